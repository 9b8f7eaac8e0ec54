/**
 * The client side of the extension seam: {@link defineExtension} describes an extension
 * the client supports once — its identifier and settings (advertised in
 * `capabilities.extensions`), the eras it is advertised on, whether it is advertised with
 * every request or only with the requests that use it, and the methods it adds, typed so
 * `client.request(method)` is typed once the map is merged into `ExtensionRequestMap`
 * ({@link MethodsOf}). The identifier and method-name rules are the server's (core
 * `extensionDefinitionProblem`).
 * Source: SEP-2133 "Extension Identifiers", "Negotiation"; SEP-3392 "Extension Lifecycle"
 * (stage); 2026-07-28 basic/index "_meta".
 */
import {
  LocalError,
  TASKS_EXTENSION,
  type Era,
  type ExtensionStage,
  type TaskView,
  type UpdateTaskParams,
  type Params,
} from '../core/index.js';
import { extensionDefinitionProblem } from '../core/runtime.js';

/** The type of one method an extension adds, made with {@link method}; nothing at run time but its presence. */
export interface MethodType<P extends object, R extends object> {
  readonly '~types'?: { params: P; result: R };
}

/** Marks a method of a client extension with its params and result types: `method<GetParams, GetResult>()`. */
export function method<P extends object = Params, R extends object = Params>(): MethodType<P, R> {
  return {};
}

/** An extension the client supports; build it with {@link defineExtension}. */
export interface ClientExtension<
  M extends Readonly<Record<string, MethodType<object, object>>> = Readonly<
    Record<string, MethodType<object, object>>
  >,
> {
  /** The identifier, `{vendor-prefix}/{name}`. */
  readonly id: string;
  /**
   * Its maturity stage (SEP-3392): `'experimental'` (the default), `'beta'` or `'stable'`.
   * Documentation only: never sent, since SEP-3392 leaves negotiation unchanged.
   */
  readonly stage?: ExtensionStage;
  /** Its settings in `capabilities.extensions[id]` (`{}` when omitted). */
  readonly settings?: Params;
  /** The eras it is advertised on (default both). */
  readonly eras?: readonly Era[];
  /**
   * `'always'` (default): in every modern request's `_meta` and in legacy `initialize`.
   * `'on-use'`: only in the `_meta` of requests for its own methods and of calls that ask
   * for it (modern); a server then sees it exactly where the client can handle it.
   */
  readonly advertise?: 'always' | 'on-use';
  /** The methods it adds, by name (a core method name is refused). */
  readonly methods?: M;
}

/**
 * The params/result map of a client extension's methods, to merge into
 * `ExtensionRequestMap` inside `declare module 'mcpkit'`.
 */
export type MethodsOf<E> =
  E extends ClientExtension<infer M>
    ? { [K in keyof M]: M[K] extends MethodType<infer P, infer R> ? { params: P; result: R } : never }
    : never;

/**
 * Checks and freezes a client extension definition; its method types are kept for {@link MethodsOf}.
 * The result always has a `stage` (`'experimental'` when the definition has none).
 * @throws LocalError `INVALID_DEFINITION` for a malformed identifier, a core method name or
 *   a stage other than `'experimental'`, `'beta'`, `'stable'`.
 */
export function defineExtension<const M extends Readonly<Record<string, MethodType<object, object>>>>(
  definition: ClientExtension<M>,
): ClientExtension<M> {
  const methods = Object.keys(definition.methods ?? {});
  const problem = extensionDefinitionProblem(definition.id, methods, definition.stage);
  if (problem) throw new LocalError('INVALID_DEFINITION', problem);
  return Object.freeze({ ...definition, stage: definition.stage ?? 'experimental' });
}

/** The `capabilities.extensions` entry of `extension`, for one request's `extensions`. */
export function declaration(extension: ClientExtension): Record<string, Params> {
  return { [extension.id]: { ...extension.settings } };
}

/** The Tasks extension as the client speaks it (modern only; advertised where a task may come back). */
export const tasksExtension = defineExtension({
  id: TASKS_EXTENSION,
  stage: 'beta',
  eras: ['modern'],
  advertise: 'on-use',
  methods: {
    'tasks/get': method<{ taskId: string }, TaskView>(),
    'tasks/update': method<UpdateTaskParams, Params>(),
    'tasks/cancel': method<{ taskId: string }, Params>(),
  },
});

/** The extension each method of `extensions` belongs to, by method name. */
export function methodOwners(extensions: readonly ClientExtension[]): Map<string, ClientExtension> {
  const owners = new Map<string, ClientExtension>();
  for (const extension of extensions)
    for (const name of Object.keys(extension.methods ?? {})) {
      if (owners.has(name))
        throw new LocalError('INVALID_DEFINITION', `extension method '${name}' is defined twice`);
      owners.set(name, extension);
    }
  return owners;
}
