/**
 * The one sync-or-async step of mcpkit's per-request paths. A handler may answer at once or
 * with a promise; where the path must stay synchronous for a synchronous handler (server
 * dispatch, the HTTP endpoint's admission and legacy session lookup, the per-principal
 * quota), each step goes through {@link thenOrNow} instead of an `instanceof Promise` branch
 * of its own. Everywhere else mcpkit uses plain `async`/`Promise<T>`.
 *
 * A step whose continuation needs more state than one argument keeps its own branch, so the
 * synchronous case still allocates nothing (the endpoint's `admitted`/`answerAdmitted`,
 * `checkThenRun` for `Mcp-Param-*` headers, the scope check); so does `ToolRegistry.call`,
 * which is `async` already and only skips the extra microtask of awaiting a plain value.
 */

/**
 * `next(value, arg)`: at once when `value` is a plain value, or once it fulfils when it is a
 * promise (a rejection passes through, `next` not called). The result is a promise only when
 * one was needed: no microtask and no promise for a synchronous value; with `next` a
 * module-level function (or a field made once) and `arg` the state it needs, no closure
 * either. `arg` is optional for a `next` that needs none.
 */
export function thenOrNow<T, R, A = undefined>(
  value: T | Promise<T>,
  next: (value: T, arg: A) => R | Promise<R>,
  arg?: A,
): R | Promise<R> {
  return value instanceof Promise ? value.then((settled) => next(settled, arg as A)) : next(value, arg as A);
}
