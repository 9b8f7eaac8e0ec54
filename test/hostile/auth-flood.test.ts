/**
 * A flood of bad tokens is rate-limited like any other flood: with an auth guard, each
 * failed authentication is charged to the caller's address against `principals`'
 * request rate, so past the burst the address gets 429 (before its tokens are checked),
 * while callers elsewhere keep being served.
 */
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtVerifier, protectedResource } from '../../src/auth/index.js';
import { createHttpHandler, type HttpHandler } from '../../src/server/http/index.js';
import { startFake, type FakeHttp } from '../support/fake-http.js';
import { modernPost } from '../support/http-harness.js';
import { protectedDefinition } from '../support/protected-server.js';
import { bounded } from '../support/watchdog.js';

const RESOURCE = 'http://127.0.0.1:9/mcp';
const ISSUER = 'https://as.example';
let jwks: FakeHttp;
let key: CryptoKey;
let handler: HttpHandler;
let verified = 0; // tokens the real verifier was asked to check

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  key = pair.privateKey;
  const pub = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
  jwks = await startFake(() => ({ 'GET /jwks': () => ({ json: { keys: [pub] } }) }));
  const verify = jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwksUri: `${jwks.origin}/jwks` });
  const auth = protectedResource({
    resource: RESOURCE,
    authorizationServers: [ISSUER],
    verifier: (token) => (verified++, verify(token)),
  });
  handler = createHttpHandler(protectedDefinition(), {
    auth,
    principals: { requestsPerSecond: 1, burst: 3 },
  });
});

afterAll(async () => {
  handler?.close();
  await jwks?.close();
});

const goodToken = () =>
  new SignJWT({ scope: 'mcp:read', client_id: 'c1' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setAudience(RESOURCE)
    .setSubject('alice')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key);

const whoami = (token: string) =>
  modernPost('tools/call', { name: 'whoami', arguments: {} }, { authorization: `Bearer ${token}` });

async function statusOf(response: Response): Promise<number> {
  await response.body?.cancel();
  return response.status;
}

describe('failed authentication counts against the caller address', () => {
  it('20 bad tokens from one address: 3 get 401, the rest 429; then 429 without verifying', async () => {
    const { value: statuses } = await bounded({ withinMs: 5000 }, () =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          handler(whoami(`bad-${i}`), { remoteAddress: '10.0.0.1' }).then(statusOf),
        ),
      ),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);

    const before = verified;
    const refused = await handler(whoami('bad-again'), { remoteAddress: '10.0.0.1' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({
      error: { code: -32600, message: expect.stringContaining('requestsPerSecond') },
    });
    expect(verified).toBe(before);
    // Until its bucket refills the address is refused even with a valid token.
    expect(await statusOf(await handler(whoami(await goodToken()), { remoteAddress: '10.0.0.1' }))).toBe(429);
  });

  it('a valid token from another address is served, and its requests do not touch that address', async () => {
    const token = await goodToken();
    for (let i = 0; i < 3; i++) {
      const response = await handler(whoami(token), { remoteAddress: '10.0.0.2' });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        result: { content: [{ text: expect.stringContaining('alice') }] },
      });
    }
    // The address's own bucket is untouched by authenticated requests: a bad token still gets its 401.
    expect(await statusOf(await handler(whoami('bad'), { remoteAddress: '10.0.0.2' }))).toBe(401);
  });
});
