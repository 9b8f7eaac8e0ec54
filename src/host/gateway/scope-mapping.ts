/**
 * Scope mapping at the gateway (`GatewayOptions.scopes`): every backend call goes out with
 * the gateway's own credentials for that backend, so the front decides which callers may
 * reach which backend features. The mapped scopes become the front features' `scopes`, and
 * the front server's scope check enforces them as it does any feature's (resolved as
 * served, on every method that names the feature); tool search's `call_tool`, which runs
 * the handler without that check, asks {@link requireScopes}.
 * Source: 2026-07-28 basic/authorization "Scope Challenge Handling".
 */
import { WireError } from '../../core/index.js';
import type { RequestContext } from '../../server/index.js';
import type { GatewayFeature, GatewayOptions } from './options.js';

/** The front scopes a backend feature needs; undefined or empty: none. */
export type ScopeMapping = (feature: GatewayFeature) => string[] | undefined;

/** {@link GatewayOptions.scopes} as one function. */
export function scopeMapping(scopes: GatewayOptions['scopes']): ScopeMapping {
  if (typeof scopes === 'function') return scopes;
  if (scopes === undefined) return () => undefined;
  return ({ server }) => (Object.hasOwn(scopes, server) ? scopes[server] : undefined);
}

/** The front scopes of `feature`, as a definition's `scopes` field (absent when none). */
export function scopesField(scopesOf: ScopeMapping, feature: GatewayFeature): { scopes?: string[] } {
  const scopes = scopesOf(feature);
  return scopes && scopes.length > 0 ? { scopes: [...scopes] } : {};
}

/** Refuses a front caller lacking `scopes` as the server's scope check does (-32600, HTTP 403). */
export function requireScopes(ctx: RequestContext, scopes: readonly string[] | undefined): void {
  if (!scopes || !ctx.auth) return;
  const granted = ctx.auth.scopes ?? [];
  if (scopes.every((s) => granted.includes(s))) return;
  throw WireError.of('InsufficientScope', `Insufficient scope: this needs scope ${scopes.join(' ')}`, {
    requiredScopes: [...scopes],
  });
}
