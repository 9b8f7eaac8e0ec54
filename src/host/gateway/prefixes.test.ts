/**
 * Backends named as people name them (`fs_a`, `Local Files`, `1password`) share a resource
 * URI: the gateway lists each under a prefix that is a valid start of a URI scheme
 * (RFC 3986 §3.1; core/namespace.ts `uriPrefix`), reads each from its own backend, and
 * refuses two names that would give the same prefix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../client/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { connect, createServer } from '../../server/index.js';
import { createLinkedPair } from '../../testing/linked-pair.js';
import { createGateway, createHost, type Host } from '../index.js';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const NAMES = ['fs_a', 'Local Files', '1password'];

describe('a gateway over backends whose names are not URI schemes', () => {
  const backends: Served[] = [];
  let host: Host;
  let client: Client;

  beforeAll(async () => {
    for (const name of NAMES) {
      const server = createServer({ name, version: '1' });
      server.resource('file:///README.md', { name: 'readme' }, (uri) => [{ uri, text: `readme of ${name}` }]);
      backends.push(await serve(server, { port: 0 }));
    }
    const servers = Object.fromEntries(NAMES.map((name, i) => [name, { url: backends[i]!.url }]));
    host = createHost({ servers });
    await host.start();
    const [a, b] = createLinkedPair();
    await connect(createGateway(host).server, b);
    client = createClient({ name: 'front', version: '1', era: 'modern' });
    await client.connect(a);
  });

  afterAll(async () => {
    await client?.close();
    await host?.close();
    await Promise.all(backends.map((b) => b.close()));
  });

  it('lists every resource under a valid scheme and reads each from its own backend', async () => {
    const uris = (await client.listResources()).map((r) => r.uri).sort();
    expect(uris).toEqual([
      'fs-a+file:///README.md',
      'local-files+file:///README.md',
      'x1password+file:///README.md',
    ]);
    for (const uri of uris) expect(uri).toMatch(SCHEME);
    const read = await client.readResource('local-files+file:///README.md');
    expect(read).toMatchObject({ contents: [{ text: 'readme of Local Files' }] });
    expect(await client.readResource('x1password+file:///README.md')).toMatchObject({
      contents: [{ text: 'readme of 1password' }],
    });
  });
});

describe('two backend names that give the same URI prefix', () => {
  it('are refused when the host is configured, naming both', () => {
    const servers = { fs_a: { url: 'http://127.0.0.1:9/mcp' }, 'fs-a': { url: 'http://127.0.0.1:9/mcp' } };
    expect(() => createHost({ servers })).toThrow(/'fs_a' and 'fs-a' both give the URI prefix 'fs-a\+'/);
  });
});
