/**
 * A server middleware (the `server.use` seam) that hides, in `tools/list` and
 * `prompts/list`, the features the caller's scopes do not allow, so a client is not
 * offered what would only earn it a 403. Calls stay guarded by the server's scope check either way.
 * Source: 2026-07-28 basic/authorization "Scope Challenge Handling".
 */
import { runtimeOf } from '../../server/runtime.js';
import type { Middleware } from '../../core/index.js';
import { methodFacts } from '../../core/runtime.js';
import type { McpServer } from '../../server/index.js';

/** A list whose entries are named, and the method that fetches one (core/methods.ts), or undefined. */
function namedList(method: string): { readonly key: string; readonly entry: string } | undefined {
  const list = methodFacts(method)?.list;
  return list !== undefined && methodFacts(list.entry)?.target === 'name' ? list : undefined;
}

/**
 * `server.use(hideUnauthorized(server))`: list results leave out tools and prompts whose
 * `scopes` the caller (`ctx.auth.scopes`) lacks.
 */
export function hideUnauthorized(server: McpServer): Middleware {
  return (next) => async (message, ctx) => {
    const result = await next(message, ctx);
    const list = ctx.direction === 'incoming' ? namedList(message.method) : undefined;
    const items = list && result ? (result[list.key] as { name?: unknown }[] | undefined) : undefined;
    if (!list || !Array.isArray(items)) return result;
    const granted = new Set(ctx.auth?.scopes ?? []);
    const allowed = items.filter((item) => {
      // Tools and prompts are found by name: never a promise (that is for templates).
      const needed = runtimeOf(server).requiredScopes(list.entry, { name: item.name });
      return !Array.isArray(needed) || needed.every((s) => granted.has(s));
    });
    return allowed.length === items.length ? result : { ...result, [list.key]: allowed };
  };
}
