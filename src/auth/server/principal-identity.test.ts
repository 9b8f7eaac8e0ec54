/**
 * Who a token makes the caller, over HTTP with real JWT access tokens: a token naming
 * neither `sub` nor `client_id` is refused (it would have no owner for per-principal
 * state); a client whose `client_id` equals a user's `sub` is not that user (its legacy
 * session and tasks stay apart); the JOSE `typ` of an access token must be `at+jwt`
 * (RFC 9068 §4), unless the verifier is told to accept any.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principalKey, principalOf } from '../../core/runtime.js';
import { createHttpHandler, type HttpHandler } from '../../server/http/index.js';
import { protectedDefinition } from '../../../test/support/protected-server.js';
import { startRealm, type TokenClaims, type TokenRealm } from '../../../test/support/token-realm.js';

const RESOURCE = 'http://127.0.0.1:9/mcp';
let realm: TokenRealm;
let strict: HttpHandler;
let relaxed: HttpHandler;

beforeAll(async () => {
  realm = await startRealm();
  strict = createHttpHandler(protectedDefinition(), { auth: realm.guard(RESOURCE) });
  relaxed = createHttpHandler(protectedDefinition(), {
    auth: realm.guard(RESOURCE, { jwt: { typ: false } }),
  });
});
afterAll(async () => {
  strict?.close();
  relaxed?.close();
  await realm?.close();
});

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

async function whoami(handler: HttpHandler, claims: TokenClaims): Promise<Response> {
  const token = await realm.token(RESOURCE, claims);
  return handler(
    new Request(RESOURCE, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'whoami',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'whoami', arguments: {}, _meta: MODERN_META },
      }),
    }),
  );
}

describe('principalOf keeps subjects and client ids apart', () => {
  it.each([
    [{ subject: 'alice', scopes: [] }, 'sub:alice'],
    [{ clientId: 'alice', scopes: [] }, 'client:alice'],
    [{ subject: 'alice', clientId: 'c1', scopes: [] }, 'sub:alice'],
    [{ subject: '', clientId: 'c1', scopes: [] }, 'client:c1'],
    [{ scopes: [] }, ''],
    [undefined, ''],
  ])('%j is %j', (auth, principal) => {
    expect(principalOf(auth)).toBe(principal);
    expect(principalKey(auth, undefined)).toBe(principal === '' ? '' : `auth:${principal}`);
  });
});

describe('tokens that name nobody', () => {
  it('refuses a token with neither sub nor client_id as invalid_token (401)', async () => {
    const response = await whoami(strict, { sub: undefined, client_id: undefined });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // Either one alone names the caller.
    expect((await whoami(strict, { sub: 'alice' })).status).toBe(200);
    expect((await whoami(strict, { client_id: 'svc' })).status).toBe(200);
  });
});

describe('the typ of a JWT access token (RFC 9068 §4)', () => {
  it.each([
    ['at+jwt', 200],
    ['application/at+jwt', 200],
    ['AT+JWT', 200],
    [null, 401],
    ['JWT', 401],
    ['dpop+jwt', 401],
  ] as const)('typ %s: %i', async (typ, status) => {
    const response = await whoami(strict, { sub: 'alice', typ });
    expect(response.status).toBe(status);
    if (status === 401) expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('accepts any typ when the verifier is given typ: false', async () => {
    for (const typ of [null, 'JWT', 'at+jwt'])
      expect((await whoami(relaxed, { sub: 'alice', typ })).status).toBe(200);
  });
});

describe("a client whose client_id is a user's sub is not that user", () => {
  const legacy = (token: string, body: object, session?: string) =>
    strict(
      new Request(RESOURCE, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
      }),
    );

  it("gets 404 for the user's legacy session, which the user keeps using", async () => {
    const init = {
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const [alice, impostor, bob] = await Promise.all([
      realm.token(RESOURCE, { sub: 'alice', client_id: 'app' }),
      realm.token(RESOURCE, { client_id: 'alice' }),
      realm.token(RESOURCE, { sub: 'bob', client_id: 'app' }),
    ]);
    const opened = await legacy(alice, init);
    const id = opened.headers.get('mcp-session-id')!;
    await opened.text();
    const list = { method: 'tools/list', params: {} };
    const [own, theirs, other] = await Promise.all([
      legacy(alice, list, id),
      legacy(impostor, list, id),
      legacy(bob, list, id),
    ]);
    expect([own.status, theirs.status, other.status]).toEqual([200, 404, 404]);
  });
});
