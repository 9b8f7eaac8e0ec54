/**
 * Scope mapping at the gateway (`createGateway(host, { scopes })`): every backend call
 * goes out with the gateway's own credentials, so which front callers may reach a backend
 * is decided at the front, on the feature the request resolves to, whatever spelling
 * names it. alice (scope `mcp admin`) reaches the `vault` backend; bob (scope `mcp`) gets
 * 403 for its tools, prompts, resources (`%6B`, case-changed scheme and host, `cl%C3%A9`)
 * and templates, on both eras, but still reaches the unmapped `public` backend.
 * Over HTTP with real JWT access tokens, alice and bob at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../client/index.js';
import { streamableHttp } from '../../client/http/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { createServer } from '../../server/index.js';
import { startProtected, type ProtectedServer } from '../../../test/support/protected-server.js';
import { startRealm, type TokenRealm } from '../../../test/support/token-realm.js';
import { createGateway, createHost, type Gateway, type Host } from '../index.js';

const SECRET = 'THE-SECRET';
let realm: TokenRealm;
const backends: Served[] = [];
let host: Host;
let gateway: Gateway;
let front: ProtectedServer;

beforeAll(async () => {
  realm = await startRealm();
  const vault = createServer({ name: 'vault', version: '1.0.0' });
  for (const uri of ['secret://vault/key', 'secret://vault/clé'])
    vault.resource(uri, {}, (u) => [{ uri: u, text: SECRET }]);
  vault.resourceTemplate('vault://{name}', {}, (uri) => [{ uri, text: SECRET }]);
  vault.tool('rotate', { description: 'Rotates the key' }, () => SECRET);
  vault.prompt('audit', { arguments: [{ name: 'who' }] }, () => [
    { role: 'user', content: { type: 'text', text: SECRET } },
  ]);
  const open = createServer({ name: 'public', version: '1.0.0' });
  open.tool('hello', { description: 'Anyone' }, () => 'hello');
  backends.push(await serve(vault, { port: 0 }), await serve(open, { port: 0 }));
  host = createHost({ servers: { vault: { url: backends[0]!.url }, public: { url: backends[1]!.url } } });
  await host.start();
  gateway = createGateway(host, { scopes: { vault: ['admin'] } });
  front = await startProtected(
    (url) => realm.guard(url, { scopesSupported: ['mcp', 'admin'] }),
    gateway.server,
  );
});

afterAll(async () => {
  await front?.close();
  gateway?.close();
  await host?.close();
  await Promise.all(backends.map((b) => b.close()));
  await realm?.close();
});

async function clientOf(era: 'modern' | 'legacy', sub: string, scope: string): Promise<Client> {
  const token = await realm.token(front.url, { sub, scope });
  const client = createClient({ name: sub, version: '1.0.0', era });
  await client.connect(streamableHttp(front.url, { headers: { authorization: `Bearer ${token}` } }));
  return client;
}

async function outcome(client: Client, method: string, params: Record<string, unknown>): Promise<string> {
  try {
    return `served:${JSON.stringify(await client.request(method as 'tools/call', params as never))}`;
  } catch (error) {
    const e = error as { code?: unknown; message?: string };
    return `refused:${String(e.code)}:${e.message ?? ''}`;
  }
}

/** `uri` spelled another way: the given transformation applied after the scheme's `+` prefix, if any. */
function respell(uri: string, how: 'encoded' | 'upper'): string {
  if (how === 'encoded') return uri.replace(/key$/, '%6Bey').replace(/clé$/, 'cl%C3%A9');
  const at = uri.indexOf('://');
  return (
    uri.slice(0, at).toUpperCase() +
    uri.slice(at, at + 3) +
    uri.slice(at + 3).replace(/^[^/]+/, (h) => h.toUpperCase())
  );
}

describe.each(['modern', 'legacy'] as const)(
  'front callers reach the backends their scopes map to (%s)',
  (era) => {
    let alice: Client;
    let bob: Client;
    beforeAll(async () => {
      [alice, bob] = await Promise.all([clientOf(era, 'alice', 'mcp admin'), clientOf(era, 'bob', 'mcp')]);
    });
    afterAll(async () => {
      await Promise.all([alice?.close(), bob?.close()]);
    });

    it('tools and prompts of the mapped backend need its scopes; the unmapped one does not', async () => {
      const tools = (await alice.listTools()).map((t) => t.name);
      const rotate = tools.find((t) => t.endsWith('rotate'))!;
      const hello = tools.find((t) => t.endsWith('hello'))!;
      const prompt = (await alice.listPrompts()).find((p) => p.name.endsWith('audit'))!.name;
      const [a, b, bh] = await Promise.all([
        outcome(alice, 'tools/call', { name: rotate, arguments: {} }),
        outcome(bob, 'tools/call', { name: rotate, arguments: {} }),
        outcome(bob, 'tools/call', { name: hello, arguments: {} }),
      ]);
      expect(a).toContain(SECRET);
      expect(b).toMatch(/^refused:-32600:.*(403|Insufficient scope)/);
      expect(bh).toContain('hello');
      const complete = { ref: { type: 'ref/prompt', name: prompt }, argument: { name: 'who', value: '' } };
      expect(await outcome(bob, 'prompts/get', { name: prompt, arguments: { who: 'x' } })).toMatch(
        /^refused:-32600/,
      );
      expect(await outcome(bob, 'completion/complete', complete)).toMatch(/^refused:-32600/);
      expect(await outcome(bob, 'tools/call', { name: rotate.toUpperCase(), arguments: {} })).not.toContain(
        SECRET,
      );
    });

    it('resources and templates of the mapped backend need its scopes in every spelling', async () => {
      const uris = (await alice.listResources()).map((r) => r.uri);
      expect(uris.length).toBe(2);
      const spellings = uris.flatMap((u) => [u, respell(u, 'encoded'), respell(u, 'upper')]);
      const template = (await alice.listResourceTemplates())[0]!.uriTemplate;
      spellings.push(template.replace('{name}', 'x'), template.replace('{name}', '%78'));
      for (const uri of spellings) {
        const [a, b] = await Promise.all([
          outcome(alice, 'resources/read', { uri }),
          outcome(bob, 'resources/read', { uri }),
        ]);
        expect(b, uri).not.toContain(SECRET);
        expect(b, uri).toMatch(/^refused:/);
        expect(a, uri).toContain(SECRET);
      }
    });
  },
);
