/**
 * The resource server guard on createHttpHandler: metadata at the path-aware well-known
 * URL, challenges, JWT verification (expired, foreign audience, wrong issuer, disallowed
 * algorithm, unreachable JWKS), DPoP proofs (tampered, replayed, wrong key), per-feature
 * scopes and legacy sessions bound to their principal. Tokens never appear in answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  SignJWT,
  base64url,
  type CryptoKey,
  type JWK,
} from 'jose';
import { createHttpHandler, type HttpHandler } from '../../server/http/index.js';
import { protectedDefinition } from '../../../test/support/protected-server.js';
import { startFake, type FakeHttp } from '../../../test/support/fake-http.js';
import { hideUnauthorized, jwtVerifier, protectedResource } from '../index.js';

const RESOURCE = 'http://127.0.0.1:9/mcp';
let jwks: FakeHttp;
let key: CryptoKey;
let handler: HttpHandler;
let deadJwks: HttpHandler;
const ISSUER = 'https://as.example';

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  key = pair.privateKey;
  const pub = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
  jwks = await startFake(() => ({ 'GET /jwks': () => ({ json: { keys: [pub] } }) }));
  const guard = (jwksUri: string) =>
    protectedResource({
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      scopesSupported: ['mcp:read'],
      verifier: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwksUri }),
      dpop: true,
    });
  handler = createHttpHandler(protectedDefinition(), { auth: guard(`${jwks.origin}/jwks`) });
  deadJwks = createHttpHandler(protectedDefinition(), { auth: guard('http://127.0.0.1:9/jwks') });
});

afterAll(async () => {
  handler?.close();
  deadJwks?.close();
  await jwks?.close();
});

async function token(claims: Record<string, unknown> = {}, exp = '5m') {
  return new SignJWT({ scope: 'mcp:read', client_id: 'c1', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
    .setIssuer(typeof claims.iss === 'string' ? claims.iss : ISSUER)
    .setAudience(typeof claims.aud === 'string' ? claims.aud : RESOURCE)
    .setSubject(typeof claims.sub === 'string' ? claims.sub : 'alice')
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(key);
}

function call(authorization: string | undefined, body: object, extra: Record<string, string> = {}) {
  return new Request(RESOURCE, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': (body as { method: string }).method,
      ...((body as { params: { name?: string } }).params.name
        ? { 'mcp-name': (body as { params: { name: string } }).params.name }
        : {}),
      ...(authorization ? { authorization } : {}),
      ...extra,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
  });
}

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const toolCall = (name: string) => ({ method: 'tools/call', params: { name, arguments: {}, _meta: meta } });

async function refused(response: Response, status: number, error?: string, secret?: string) {
  expect(response.status).toBe(status);
  const challenge = response.headers.get('www-authenticate') ?? '';
  expect(challenge).toContain(
    'resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp"',
  );
  if (error) expect(challenge).toContain(`error="${error}"`);
  const text = await response.text();
  if (secret) expect(text + challenge).not.toContain(secret);
  return challenge;
}

describe('protected resource metadata and challenges', () => {
  it('serves the metadata at the path-aware well-known URL', async () => {
    const response = await handler(
      new Request('http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp'),
    );
    expect(await response.json()).toEqual({
      resource: RESOURCE,
      authorization_servers: [ISSUER],
      bearer_methods_supported: ['header'],
      scopes_supported: ['mcp:read'],
      dpop_signing_alg_values_supported: expect.arrayContaining(['ES256']),
    });
  });

  it('answers a request without a token with 401 and the scope to ask for', async () => {
    const challenge = await refused(await handler(call(undefined, toolCall('whoami'))), 401);
    expect(challenge).toMatch(/^Bearer resource_metadata="[^"]+", scope="mcp:read"/);
  });

  it('accepts a valid token and hands the principal to the handler as ctx.auth', async () => {
    const response = await handler(call(`Bearer ${await token()}`, toolCall('whoami')));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('\\"sub\\":\\"alice\\"');
  });

  it('refuses expired, foreign-audience, foreign-issuer and unsigned tokens without echoing them', async () => {
    const bad = [
      await token({}, '-1m'),
      await token({ aud: 'https://other.example/mcp' }),
      await token({ iss: 'https://evil.example' }),
      `${(await token()).split('.').slice(0, 2).join('.')}.${base64url.encode('x')}`,
      'not-a-jwt',
    ];
    for (const t of bad)
      await refused(await handler(call(`Bearer ${t}`, toolCall('whoami'))), 401, 'invalid_token', t);
  });

  it('answers 503 when the key set cannot be fetched', async () => {
    const response = await deadJwks(call(`Bearer ${await token()}`, toolCall('whoami')));
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: 'temporarily_unavailable' });
  });

  it('answers 403 insufficient_scope for a tool registered with scopes', async () => {
    const response = await handler(call(`Bearer ${await token()}`, toolCall('write')));
    const challenge = await refused(response, 403, 'insufficient_scope');
    expect(challenge).toContain('scope="mcp:write"');
    const ok = await handler(
      call(`Bearer ${await token({ scope: 'mcp:read mcp:write' })}`, toolCall('write')),
    );
    expect(ok.status).toBe(200);
  });
});

describe('hideUnauthorized (server.use)', () => {
  it('leaves tools the caller cannot call out of tools/list', async () => {
    const server = protectedDefinition();
    server.use(hideUnauthorized(server));
    const guarded = createHttpHandler(server, {
      auth: protectedResource({
        resource: RESOURCE,
        authorizationServers: [ISSUER],
        verifier: jwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwksUri: `${jwks.origin}/jwks` }),
      }),
    });
    const list = { method: 'tools/list', params: { _meta: meta } };
    const names = async (scope: string) => {
      const response = await guarded(call(`Bearer ${await token({ scope })}`, list));
      const body = (await response.json()) as { result: { tools: { name: string }[] } };
      return body.result.tools.map((t) => t.name);
    };
    expect(await names('mcp:read')).toEqual(['whoami']);
    expect(await names('mcp:read mcp:write')).toEqual(['whoami', 'write']);
    guarded.close();
  });
});

describe('DPoP-bound tokens', () => {
  async function proofKit() {
    const pair = await generateKeyPair('ES256', { extractable: true });
    const jwk = (await exportJWK(pair.publicKey)) as JWK;
    const jkt = await calculateJwkThumbprint(jwk, 'sha256');
    const proof = async (access: string, claims: Record<string, unknown> = {}) => {
      const ath = base64url.encode(
        new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(access))),
      );
      return new SignJWT({ htm: 'POST', htu: RESOURCE, ath, jti: crypto.randomUUID(), ...claims })
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
        .setIssuedAt()
        .sign(pair.privateKey);
    };
    return { jkt, proof };
  }

  it('accepts a fresh proof and refuses tampered, replayed, foreign-key and bearer uses', async () => {
    const kit = await proofKit();
    const access = await token({ cnf: { jkt: kit.jkt } });
    const good = await kit.proof(access);
    expect((await handler(call(`DPoP ${access}`, toolCall('whoami'), { dpop: good }))).status).toBe(200);
    await refused(
      await handler(call(`DPoP ${access}`, toolCall('whoami'), { dpop: good })),
      401,
      'invalid_token',
    );
    const [h, p, s] = (await kit.proof(access)).split('.');
    const tampered = `${h}.${base64url.encode(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(base64url.decode(p!))), htm: 'GET' }))}.${s}`;
    await refused(
      await handler(call(`DPoP ${access}`, toolCall('whoami'), { dpop: tampered })),
      401,
      'invalid_token',
      access,
    );
    const other = await proofKit();
    await refused(
      await handler(call(`DPoP ${access}`, toolCall('whoami'), { dpop: await other.proof(access) })),
      401,
      'invalid_token',
    );
    await refused(await handler(call(`Bearer ${access}`, toolCall('whoami'))), 401, 'invalid_token');
    const wrongUrl = await kit.proof(access, { htu: 'http://127.0.0.1:9/other' });
    await refused(
      await handler(call(`DPoP ${access}`, toolCall('whoami'), { dpop: wrongUrl })),
      401,
      'invalid_token',
    );
  });
});

describe('legacy sessions belong to their principal', () => {
  it('gives another principal 404 for a session it did not open', async () => {
    const init = {
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const legacy = (auth: string, body: object, session?: string) =>
      new Request(RESOURCE, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: auth,
          ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
      });
    const alice = `Bearer ${await token()}`;
    const opened = await handler(legacy(alice, init));
    const id = opened.headers.get('mcp-session-id')!;
    await opened.text();
    expect(id).toBeTruthy();
    const list = { method: 'tools/list', params: {} };
    expect((await handler(legacy(alice, list, id))).status).toBe(200);
    const bob = `Bearer ${await token({ sub: 'bob' })}`;
    expect((await handler(legacy(bob, list, id))).status).toBe(404);
  });
});
