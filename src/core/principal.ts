/**
 * Who is calling: the one rule that `requestState` binding, legacy session ownership,
 * task ownership and per-principal bounds all use, so they agree on the caller.
 * Source: 2026-07-28 basic/authorization "Access Token Usage"; basic/patterns/mrtr
 * (requestState bound to the principal).
 */
import type { AuthInfo } from './middleware.js';

/**
 * The verified principal: `sub:` and the token's subject, else `client:` and its client id
 * (a client acting for itself); '' when anonymous. The two are kept apart so that a client
 * whose id equals a user's subject never becomes that user. An `auth` naming neither (or
 * only empty strings) has no identity: it is anonymous for per-principal state, which it
 * then shares with every anonymous caller; mcpkit/auth's verifiers refuse such tokens.
 */
export function principalOf(auth: AuthInfo | undefined): string {
  if (auth === undefined) return '';
  if (typeof auth.subject === 'string' && auth.subject !== '') return `sub:${auth.subject}`;
  if (typeof auth.clientId === 'string' && auth.clientId !== '') return `client:${auth.clientId}`;
  return '';
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
