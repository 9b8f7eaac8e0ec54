import { describe, expect, it } from 'vitest';
import { createClient } from '../client/index.js';
import { serve } from '../integrations/node/index.js';
import { createHost } from '../host/index.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { resourceUriKey } from './resource-uri.js';
import { connect, createServer } from './index.js';

describe('resourceUriKey', () => {
  it.each([
    ['notes://Zürich', 'notes://Z%C3%BCrich'],
    ['notes://Z%c3%bcrich', 'notes://Z%C3%BCrich'],
    ['file:///data/with space.txt', 'file:///data/with%20space.txt'],
    ['file:///%7Euser/a%2Db', 'file:///~user/a-b'],
    ['search://q?x=a b&y=ü', 'search://q?x=a%20b&y=%C3%BC'],
  ])('%s and %s name the same resource', (a, b) => {
    expect(resourceUriKey(a)).toBe(resourceUriKey(b));
  });

  it.each([
    ['file:///a/b', 'file:///a%2Fb'],
    ['notes://x?y=1&z=2', 'notes://x?y=1%26z=2'],
    ['notes://Zürich', 'notes://Zurich'],
  ])('%s and %s do not (reserved characters keep their spelling)', (a, b) => {
    expect(resourceUriKey(a)).not.toBe(resourceUriKey(b));
  });

  it('leaves a lone % and a lone surrogate as they are', () => {
    expect(resourceUriKey('x://100%')).toBe('x://100%');
    expect(resourceUriKey('x://\uD800')).toBe('x://\uD800');
  });
});

/** A server with static resources whose URIs need encoding, and a template. */
function notesServer() {
  const server = createServer({ name: 'notes', version: '1' });
  for (const uri of ['notes://Zürich', 'file:///data/with space.txt', 'notes://Gen%C3%A8ve'])
    server.resource(uri, {}, (asked) => [{ uri: asked, text: `static ${asked}` }]);
  server.resourceTemplate('city://{name}', {}, (uri, { name }) => [{ uri, text: `template ${name}` }]);
  return server;
}

const SPELLINGS: [asked: string, text: string][] = [
  ['notes://Z%C3%BCrich', 'static notes://Zürich'],
  ['notes://Zürich', 'static notes://Zürich'],
  ['file:///data/with%20space.txt', 'static file:///data/with space.txt'],
  ['notes://Genève', 'static notes://Gen%C3%A8ve'],
  ['city://Z%C3%BCrich', 'template Zürich'],
  ['city://Zürich', 'template Zürich'],
];

describe.each(['modern', 'legacy'] as const)('static resources and templates match alike (%s)', (era) => {
  it('a static resource is read by its raw or percent-encoded URI, as a template is', async () => {
    const [a, b] = createLinkedPair();
    await connect(notesServer(), b);
    const client = createClient({ name: 'c', version: '1', era });
    await client.connect(a);
    for (const [asked, text] of SPELLINGS) {
      const { contents } = await client.readResource(asked);
      expect(contents[0]).toMatchObject({ text });
    }
    await client.close();
  });
});

describe('the host routes both spellings of a static resource', () => {
  it('reads notes://Z%C3%BCrich from the server listing notes://Zürich', async () => {
    const served = await serve(notesServer(), { port: 0 });
    const host = createHost({ servers: { notes: { url: served.url } } });
    try {
      await host.start();
      for (const [asked, text] of SPELLINGS) {
        const { contents } = await host.readResource(asked);
        expect(contents[0]).toMatchObject({ text });
      }
    } finally {
      await host.close();
      await served.close();
    }
  });
});

describe('registration', () => {
  it('refuses a second static resource that is the same URI in another spelling', () => {
    const server = createServer({ name: 'n', version: '1' });
    server.resource('notes://Zürich', {}, () => []);
    expect(() => server.resource('notes://Z%C3%BCrich', {}, () => [])).toThrow(/already registered/);
  });
});
