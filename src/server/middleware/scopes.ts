/**
 * OAuth scope refusal as built-in server middleware, so a feature registered with
 * `scopes` is guarded alike on every transport: a request from an authenticated caller
 * (`ctx.auth`, set by the HTTP auth guard or by an auth middleware before this one) whose
 * scopes lack one the feature needs is refused before it reaches the handler. Over HTTP the
 * endpoint answers that refusal with the guard's 403 `insufficient_scope` challenge.
 * Source: 2026-07-28 basic/authorization "Scope Challenge Handling"; RFC 6750 §3.1.
 */
import { WireError, type AuthInfo, type Middleware } from '../../core/index.js';
import type { Needed } from '../catalogue/catalogue.js';
import type { Caller } from '../catalogue/types.js';
import { callerOf } from '../chains.js';

/** Where the scope check reads what a request needs (`ServerCatalogue.requiredScopes`). */
export interface ScopeSource {
  requiredScopes(method: string, params: unknown, caller?: Caller): Needed;
}

/**
 * The refusal of a caller holding `auth` for a feature needing `required`: -32600
 * `InsufficientScope` (HTTP 403) with `data.requiredScopes`; undefined when nothing is lacking.
 */
function scopeError(required: readonly string[] | undefined, auth: AuthInfo): WireError | undefined {
  if (required === undefined) return undefined;
  const granted = auth.scopes ?? [];
  if (required.every((s) => granted.includes(s))) return undefined;
  return WireError.of('InsufficientScope', `Insufficient scope: this needs scope ${required.join(' ')}`, {
    requiredScopes: [...required],
  });
}

/**
 * The built-in scope check (installed by the server once a feature registers `scopes`):
 * incoming requests of an authenticated caller are refused with {@link scopeError}. What a
 * request needs is read off the entries it would be served by, resolved for this caller
 * with the same lookup serving uses, so every spelling of a name is checked as the entry it
 * selects (DESIGN decision 9). A caller without `ctx.auth` is not checked: its transport
 * authorizes no one (stdio, an HTTP endpoint without an auth guard).
 */
export function scopeCheck(source: ScopeSource): Middleware {
  return (next) => (message, ctx) => {
    const auth = ctx.auth;
    if (!auth || message.kind !== 'request' || ctx.direction !== 'incoming') return next(message, ctx);
    const needed = source.requiredScopes(message.method, message.params, callerOf(message, ctx));
    if (!(needed instanceof Promise)) {
      const refused = scopeError(needed, auth);
      return refused ? Promise.reject(refused) : next(message, ctx);
    }
    return needed.then((scopes) => {
      const refused = scopeError(scopes, auth);
      return refused ? Promise.reject(refused) : next(message, ctx);
    });
  };
}

/** The scopes a refusal names, when `error` (a JSON-RPC `error` member) is one of {@link scopeError}'s. */
export function refusedScopes(error: unknown): readonly string[] | undefined {
  const data = (error as { data?: { requiredScopes?: unknown } } | null | undefined)?.data;
  const scopes = data?.requiredScopes;
  return Array.isArray(scopes) && scopes.every((s) => typeof s === 'string') ? scopes : undefined;
}
