/**
 * The `scope` of a 401 challenge names what a request needs, not every scope the resource
 * supports: a privileged scope that only some features need (`scopes: ['admin']`) is asked
 * for by the 403 step-up challenge of the request that needs it, never up front.
 * Source: 2026-07-28 basic/authorization "Scope Selection Strategy", "Scope Challenge Handling".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../server/index.js';
import { createHttpHandler, type HttpHandler } from '../../server/http/index.js';
import { startRealm, type TokenRealm } from '../../../test/support/token-realm.js';

const RESOURCE = 'http://127.0.0.1:9/mcp';
let realm: TokenRealm;
let handler: HttpHandler;

function definition() {
  const server = createServer({ name: 'scoped', version: '1.0.0' });
  server.tool('read', { description: 'Anyone with mcp' }, () => 'read');
  server.tool('wipe', { description: 'Admins only', scopes: ['admin'] }, () => 'wiped');
  server.resource('audit://log', { scopes: ['auditor'] }, (uri) => [{ uri, text: 'log' }]);
  return server;
}

beforeAll(async () => {
  realm = await startRealm();
  handler = createHttpHandler(definition(), {
    auth: realm.guard(RESOURCE, { scopesSupported: ['mcp', 'admin', 'auditor'] }),
  });
});
afterAll(async () => {
  handler?.close();
  await realm?.close();
});

function call(name: string, token?: string): Request {
  return new Request(RESOURCE, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}

const scopeOf = (response: Response) =>
  /scope="([^"]*)"/.exec(response.headers.get('www-authenticate') ?? '')?.[1];

describe('the scope a challenge asks for', () => {
  it('a 401 (no token, expired token) asks for the basic scopes, not the privileged ones', async () => {
    const expired = await realm.token(RESOURCE, { sub: 'alice', ttlSec: -60 });
    for (const response of [await handler(call('read')), await handler(call('wipe', expired))]) {
      expect(response.status).toBe(401);
      expect(scopeOf(response)).toBe('mcp');
    }
  });

  it('a 403 asks for exactly what the refused request needs', async () => {
    const [alice, bob] = await Promise.all([
      realm.token(RESOURCE, { sub: 'alice', scope: 'mcp admin' }),
      realm.token(RESOURCE, { sub: 'bob', scope: 'mcp' }),
    ]);
    const [own, refused] = await Promise.all([handler(call('wipe', alice)), handler(call('wipe', bob))]);
    expect(own.status).toBe(200);
    expect(refused.status).toBe(403);
    expect(scopeOf(refused)).toBe('admin');
  });
});
