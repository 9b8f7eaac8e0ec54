/**
 * Who is calling: the one rule that `requestState` binding, legacy session ownership,
 * task ownership and per-principal bounds all use, so they agree on the caller.
 * Source: 2026-07-28 basic/authorization "Access Token Usage"; basic/patterns/mrtr
 * (requestState bound to the principal).
 */
import type { AuthInfo } from './middleware.js';

/** The verified principal: the token's subject, else its client id; '' when anonymous. */
export function principalOf(auth: AuthInfo | undefined): string {
  return auth?.subject ?? auth?.clientId ?? '';
}

/**
 * The key per-principal bounds count a request against: the one the transport named
 * (the HTTP endpoint names identity, else the peer's address group), else `auth:` and the
 * verified principal; '' (held only to the global bounds) when unidentified.
 */
export function principalKey(auth: AuthInfo | undefined, named: string | undefined): string {
  if (named !== undefined) return named;
  const id = principalOf(auth);
  return id === '' ? '' : `auth:${id}`;
}
