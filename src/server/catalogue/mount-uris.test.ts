/**
 * A mount prefix becomes the start of a URI scheme, so it is mapped to a valid one
 * (`my_fs` → `my-fs+file:///…`, RFC 3986 §3.1), and the mounted resources stay readable.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import { createLinkedPair } from '../../testing/linked-pair.js';
import { validateWire } from '../../testing/wire-tap.js';
import { connect, createServer } from '../index.js';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

describe.each(['modern', 'legacy'] as const)("mount('my_fs', child) (%s)", (era) => {
  it('lists resources and templates under a valid scheme and reads them', async () => {
    const child = createServer({ name: 'fs', version: '1' });
    child.resource('file:///notes.txt', { name: 'notes' }, (uri) => [{ uri, text: 'hello' }]);
    child.resourceTemplate('file:///docs/{name}', { name: 'doc' }, (uri, { name }) => [
      { uri, text: `doc ${name}` },
    ]);
    const parent = createServer({ name: 'p', version: '1' });
    parent.mount('my_fs', child);
    parent.mount('1password', createServer({ name: 'empty', version: '1' }));
    const [a, b] = createLinkedPair();
    validateWire(a, era === 'modern' ? '2026-07-28' : '2025-11-25');
    await connect(parent, b);
    const client = createClient({ name: 'c', version: '1', era });
    await client.connect(a);
    const [resource] = await client.listResources();
    expect(resource?.uri).toBe('my-fs+file:///notes.txt');
    expect(resource?.uri).toMatch(SCHEME);
    const [template] = await client.listResourceTemplates();
    expect(template?.uriTemplate).toBe('my-fs+file:///docs/{name}');
    expect(await client.readResource('my-fs+file:///notes.txt')).toMatchObject({
      contents: [{ text: 'hello' }],
    });
    expect(await client.readResource('my-fs+file:///docs/a.md')).toMatchObject({
      contents: [{ text: 'doc a.md' }],
    });
    await client.close();
  });
});

describe('two mount prefixes that map to one URI prefix', () => {
  it("refuses the second at mount time, naming both (a_b and a-b would share 'a-b+')", () => {
    const parent = createServer({ name: 'p', version: '1' });
    const child = (): ReturnType<typeof createServer> => {
      const server = createServer({ name: 'c', version: '1' });
      server.resource('file:///x', { name: 'x' }, (uri) => [{ uri, text: 'x' }]);
      return server;
    };
    parent.mount('a_b', child());
    expect(() => parent.mount('a-b', child())).toThrow(/mount 'a-b'.*'a-b\+'.*mount 'a_b'/);
    expect(() => parent.mount('A_B', child())).toThrow(/INVALID_DEFINITION|'a-b\+'/);
  });
});
