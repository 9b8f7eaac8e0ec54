/**
 * An authorization decision is made on the entry that is served, whatever spelling names
 * it (DESIGN decision 9): a scoped resource asked for as `secret://vault/%6Bey`, `SECRET://
 * VAULT/key` or `cl%C3%A9`, a scoped template, tool, prompt, and every method that names
 * one of them (completion/complete, resources/subscribe, subscriptions/listen), on both
 * eras, over HTTP with real JWT access tokens for two principals at once, on the server
 * itself and behind `mount()`. bob (scope `mcp`) is refused or finds nothing; alice (scope
 * `mcp admin`) is served. Source: 2026-07-28 basic/authorization "Scope Challenge Handling".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../client/index.js';
import { streamableHttp } from '../../client/http/index.js';
import { createServer, type McpServer } from '../../server/index.js';
import { startProtected, type ProtectedServer } from '../../../test/support/protected-server.js';
import { startRealm, type TokenRealm } from '../../../test/support/token-realm.js';
import { modernBody, modernHeaders } from '../../../test/support/http-harness.js';

const SECRET = 'THE-SECRET';

/** What alice may read and bob may not, every feature kind with `scopes: ['admin']`. */
function vault(): McpServer {
  const server = createServer({ name: 'vault', version: '1.0.0' });
  const admin = { scopes: ['admin'] };
  for (const uri of ['secret://vault/key', 'secret://vault/clé'])
    server.resource(uri, admin, (u) => [{ uri: u, text: SECRET }]);
  server.resourceTemplate(
    'vault://{name}',
    { ...admin, complete: { name: () => [`${SECRET}-name`] } },
    (uri) => [{ uri, text: SECRET }],
  );
  server.tool('rotate', { description: 'Rotates the key', ...admin }, () => SECRET);
  server.prompt(
    'audit',
    { ...admin, arguments: [{ name: 'who' }], complete: { who: () => [`${SECRET}-who`] } },
    () => [{ role: 'user', content: { type: 'text', text: SECRET } }],
  );
  server.tool('whoami', { description: 'Anyone' }, (_args, ctx) => ctx.auth?.subject ?? '');
  return server;
}

/** The same server mounted under `ns` in an otherwise empty one. */
function mounted(): McpServer {
  return createServer({ name: 'front', version: '1.0.0' }).mount('ns', vault());
}

/** The spellings of the fixed resource that must not walk around its scope. */
const RESOURCE_SPELLINGS = [
  'secret://vault/key',
  'secret://vault/%6Bey',
  'secret://vault/%6bey',
  'SECRET://VAULT/key',
  'Secret://vault/%6B%65%79',
  'secret://vault/cl%C3%A9',
  'secret://vault/clé',
  'secret://vault/cl%c3%a9',
  'secret://vault/cle\u0301', // NFD: another URI, so not found
  'secret://vault/cle%CC%81',
];
/** Template URIs, and whether the template matches them (its literal scheme is matched as written). */
const TEMPLATE_SPELLINGS: [string, boolean][] = [
  ['vault://x', true],
  ['vault://%78', true],
  ['vault://caf%C3%A9', true],
  ['vault://cafe\u0301', true],
  ['VAULT://x', false],
];

let realm: TokenRealm;
const servers: ProtectedServer[] = [];

beforeAll(async () => {
  realm = await startRealm();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await realm?.close();
});

async function serve(definition: McpServer): Promise<ProtectedServer> {
  const started = await startProtected(
    (url) => realm.guard(url, { scopesSupported: ['mcp', 'admin'] }),
    definition,
  );
  servers.push(started);
  return started;
}

async function clientOf(url: string, era: 'modern' | 'legacy', sub: string, scope: string): Promise<Client> {
  const token = await realm.token(url, { sub, scope });
  const client = createClient({ name: sub, version: '1.0.0', era });
  await client.connect(streamableHttp(url, { headers: { authorization: `Bearer ${token}` } }));
  return client;
}

/** The HTTP status of a modern listen whose filter names `uri` (the stream, if any, is closed at once). */
async function listenStatus(url: string, sub: string, scope: string, uri: string): Promise<number> {
  const token = await realm.token(url, { sub, scope });
  const body = modernBody('subscriptions/listen', { notifications: { resourceSubscriptions: [uri] } }, 1);
  const abort = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...modernHeaders(body), authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
    signal: abort.signal,
  });
  abort.abort();
  return response.status;
}

/** The outcome of a request as text: `served:…` with the result, or `refused:<code>`. */
async function outcome(client: Client, method: string, params: Record<string, unknown>): Promise<string> {
  try {
    const result = await client.request(method as 'tools/call', params as never);
    return `served:${JSON.stringify(result)}`;
  } catch (error) {
    const e = error as { code?: unknown; message?: string };
    return `refused:${String(e.code)}:${e.message ?? ''}`;
  }
}

describe.each([
  ['on the server', vault, ''],
  ['behind mount()', mounted, 'ns'],
] as const)('scopes hold whatever the spelling, %s', (_where, definition, prefix) => {
  const uri = (u: string) => (prefix === '' ? u : `${prefix}+${u}`);
  const name = (n: string) => (prefix === '' ? n : `${prefix}__${n}`);
  let server: ProtectedServer;
  beforeAll(async () => {
    server = await serve(definition());
  });

  describe.each(['modern', 'legacy'] as const)('%s era', (era) => {
    let alice: Client;
    let bob: Client;
    beforeAll(async () => {
      [alice, bob] = await Promise.all([
        clientOf(server.url, era, 'alice', 'mcp admin'),
        clientOf(server.url, era, 'bob', 'mcp'),
      ]);
    });
    afterAll(async () => {
      await Promise.all([alice?.close(), bob?.close()]);
    });

    it.each(RESOURCE_SPELLINGS)('resources/read of %s: bob never reads the secret', async (spelling) => {
      const [a, b] = await Promise.all([
        outcome(alice, 'resources/read', { uri: uri(spelling) }),
        outcome(bob, 'resources/read', { uri: uri(spelling) }),
      ]);
      expect(b).not.toContain(SECRET);
      expect(b).toMatch(/^refused:/);
      if (spelling.includes('\u0301') || spelling.includes('%CC%81')) expect(a).not.toContain(SECRET);
      else expect(a).toContain(SECRET);
    });

    it.each(TEMPLATE_SPELLINGS)('resources/read of the scoped template URI %s', async (spelling, matches) => {
      const [a, b] = await Promise.all([
        outcome(alice, 'resources/read', { uri: uri(spelling) }),
        outcome(bob, 'resources/read', { uri: uri(spelling) }),
      ]);
      expect(b).toMatch(/^refused:/);
      expect(b).not.toContain(SECRET);
      if (matches) expect(a).toContain(SECRET);
      else expect(a).toMatch(/^refused:.*not found/);
    });

    it('tools/call: a case-changed tool name is another, unknown tool, never a bypass', async () => {
      expect(await outcome(alice, 'tools/call', { name: name('rotate'), arguments: {} })).toContain(SECRET);
      for (const spelling of [name('rotate'), name('Rotate'), name('ROTATE'), `${name('rotate')} `]) {
        const b = await outcome(bob, 'tools/call', { name: spelling, arguments: {} });
        expect(b).not.toContain(SECRET);
        expect(b).toMatch(/^refused:|"isError":true/);
      }
      expect(await outcome(alice, 'tools/call', { name: name('Rotate'), arguments: {} })).not.toContain(
        SECRET,
      );
    });

    it('prompts/get and completion/complete of a scoped prompt are refused alike', async () => {
      const get = { name: name('audit'), arguments: { who: 'x' } };
      const complete = {
        ref: { type: 'ref/prompt', name: name('audit') },
        argument: { name: 'who', value: '' },
      };
      expect(await outcome(bob, 'prompts/get', get)).toMatch(/^refused:/);
      expect(await outcome(bob, 'completion/complete', complete)).toMatch(/^refused:/);
      expect(await outcome(alice, 'completion/complete', complete)).toContain(`${SECRET}-who`);
    });

    it('completion/complete of a scoped template needs its scopes', async () => {
      for (const ref of [uri('vault://{name}')]) {
        const params = { ref: { type: 'ref/resource', uri: ref }, argument: { name: 'name', value: '' } };
        expect(await outcome(bob, 'completion/complete', params)).toMatch(/^refused:/);
        expect(await outcome(alice, 'completion/complete', params)).toContain(`${SECRET}-name`);
      }
    });

    if (era === 'modern') {
      it.each(['secret://vault/%6Bey', 'SECRET://vault/key', 'vault://%78'])(
        'subscriptions/listen naming %s in its filter needs the scopes of what it names',
        async (spelling) => {
          const [a, b] = await Promise.all([
            listenStatus(server.url, 'alice', 'mcp admin', uri(spelling)),
            listenStatus(server.url, 'bob', 'mcp', uri(spelling)),
          ]);
          expect([a, b]).toEqual([200, 403]);
        },
      );
    }

    if (era === 'legacy') {
      it.each(['secret://vault/%6Bey', 'SECRET://vault/key', 'vault://%78'])(
        'resources/subscribe of %s needs the scopes of what it names',
        async (spelling) => {
          expect(await outcome(bob, 'resources/subscribe', { uri: uri(spelling) })).toMatch(/^refused:/);
          expect(await outcome(alice, 'resources/subscribe', { uri: uri(spelling) })).toMatch(/^served:/);
        },
      );
    }
  });
});
