/**
 * A small authorization realm for isolation tests with real tokens: an ES256 key whose
 * JWKS a loopback fake serves, a signer of RFC 9068 access tokens (`typ: at+jwt`) for any
 * principal and scopes, and the mcpkit/auth guard that verifies them for a resource. Each
 * test names its callers (alice, bob, …) and what their tokens grant.
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { jwtVerifier, protectedResource, type JwtVerifierOptions } from '../../src/auth/index.js';
import type { HttpAuthGuard } from '../../src/server/http/index.js';
import { startFake, type FakeHttp } from './fake-http.js';

/** The issuer every realm's tokens name. */
export const REALM_ISSUER = 'https://as.realm.example';

/** What one token says; `sub` and `client_id` are omitted when set to undefined. */
export interface TokenClaims {
  sub?: string | undefined;
  client_id?: string | undefined;
  scope?: string;
  /** Lifetime, in seconds from now (default 300; negative: already expired). */
  ttlSec?: number;
  /** The JOSE `typ` header (default `at+jwt`; null: none). */
  typ?: string | null;
}

/** A running realm. */
export interface TokenRealm {
  /** A signed access token for `audience`. */
  token(audience: string, claims: TokenClaims): Promise<string>;
  /** The guard of the resource `resource` verifying this realm's tokens. */
  guard(
    resource: string,
    options?: { scopesSupported?: string[]; jwt?: Partial<JwtVerifierOptions> },
  ): HttpAuthGuard;
  close(): Promise<void>;
}

/** Starts a realm (its JWKS on a random loopback port). */
export async function startRealm(): Promise<TokenRealm> {
  const pair = await generateKeyPair('ES256');
  const key: CryptoKey = pair.privateKey;
  const pub = { ...(await exportJWK(pair.publicKey)), kid: 'realm', alg: 'ES256' };
  const jwks: FakeHttp = await startFake(() => ({ 'GET /jwks': () => ({ json: { keys: [pub] } }) }));
  return {
    token: (audience, claims) => sign(key, audience, claims),
    guard: (resource, options = {}) =>
      protectedResource({
        resource,
        authorizationServers: [REALM_ISSUER],
        scopesSupported: options.scopesSupported ?? ['mcp'],
        verifier: jwtVerifier({
          issuer: REALM_ISSUER,
          audience: resource,
          jwksUri: `${jwks.origin}/jwks`,
          clockToleranceSec: 0,
          ...options.jwt,
        }),
      }),
    close: () => jwks.close(),
  };
}

function sign(key: CryptoKey, audience: string, claims: TokenClaims): Promise<string> {
  const { sub, client_id, scope = 'mcp', ttlSec = 300, typ = 'at+jwt' } = claims;
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = { scope, ...(client_id === undefined ? {} : { client_id }) };
  const jwt = new SignJWT(payload)
    .setProtectedHeader({ alg: 'ES256', kid: 'realm', ...(typ === null ? {} : { typ }) })
    .setIssuer(REALM_ISSUER)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSec);
  if (sub !== undefined) jwt.setSubject(sub);
  return jwt.sign(key);
}
