/**
 * A `resources/updated` event reaches every subscriber of the resource, whatever spelling
 * of its URI each subscribed with (percent-encoded, case-changed scheme and host, raw
 * non-ASCII), as the catalogue resolves it (resource-uri.ts), and tells each subscriber
 * its own spelling; on both eras.
 *
 * Spellings of one resource URI are also one subscription: the server's counts and its
 * `resourceSubscriptions` hooks see the canonical URI once, an unsubscribe in another
 * spelling ends it, and an update reaches the subscriber once.
 */
import { describe, expect, it } from 'vitest';
import { Peer } from '../core/peer.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { validateWire } from '../testing/wire-tap.js';
import { until } from '../../test/support/wait.js';
import { connect, createServer, type McpServer } from './index.js';
import { SubscribedUris } from './resource-uri.js';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

type Note = { method: string; params?: Record<string, unknown> };

function vault(): McpServer {
  const server = createServer({ name: 's', version: '1' });
  server.resource('secret://vault/key', { name: 'key' }, (uri) => [{ uri, text: 'k' }]);
  server.resource('notes://Zürich', { name: 'zurich' }, (uri) => [{ uri, text: 'z' }]);
  return server;
}

async function peerOf(server: McpServer, era: '2025-11-25' | '2026-07-28', got: Note[]): Promise<Peer> {
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const peer = new Peer(validateWire(a, era), {
    request: async () => ({}),
    notification: (n) => got.push(n),
  });
  await peer.start();
  return peer;
}

describe('resources/updated for another spelling of a subscribed URI', () => {
  it('reaches a legacy session that subscribed with an encoded, case-changed spelling', async () => {
    const server = vault();
    const got: Note[] = [];
    const peer = await peerOf(server, '2025-11-25', got);
    await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    peer.notify('notifications/initialized');
    await peer.request('resources/subscribe', { uri: 'SECRET://Vault/%6Bey' });
    await peer.request('resources/subscribe', { uri: 'notes://Z%c3%bcrich' });
    server.notifyResourceUpdated('secret://vault/key');
    server.notifyResourceUpdated('notes://Zürich');
    await until(() => got.length >= 2);
    expect(got.map((n) => n.params?.uri)).toEqual(['SECRET://Vault/%6Bey', 'notes://Z%c3%bcrich']);
    await peer.close();
  });

  it('reaches a modern listen stream that asked for another spelling', async () => {
    const server = vault();
    const got: Note[] = [];
    const peer = await peerOf(server, '2026-07-28', got);
    const abort = new AbortController();
    const notifications = { resourceSubscriptions: ['secret://vault/%6bey', 'notes://Z%C3%BCrich'] };
    const listening = peer.request(
      'subscriptions/listen',
      { _meta: MODERN_META, notifications },
      { signal: abort.signal },
    );
    listening.catch(() => undefined);
    await until(() => got.length > 0);
    server.notifyResourceUpdated('secret://VAULT/key');
    server.notifyResourceUpdated('secret://vault/other');
    server.notifyResourceUpdated('notes://Zürich');
    await until(() => got.length >= 3);
    expect(got.slice(1).map((n) => [n.method, n.params?.uri])).toEqual([
      ['notifications/resources/updated', 'secret://vault/%6bey'],
      ['notifications/resources/updated', 'notes://Z%C3%BCrich'],
    ]);
    abort.abort();
    await peer.close();
  });
});

describe('SubscribedUris', () => {
  const subscribed = new SubscribedUris(['secret://vault/%6Bey', 'file:///a%2Fb']);
  it.each([
    ['secret://vault/%6Bey', 'secret://vault/%6Bey'],
    ['SECRET://VAULT/key', 'secret://vault/%6Bey'],
    ['secret://vault/Key', undefined],
    ['file:///a/b', undefined],
    ['file:///a%2fb', 'file:///a%2Fb'],
  ])('finds %s as %s', (uri, expected) => {
    expect(subscribed.spellingOf(uri)).toBe(expected);
  });
});

function recording(): { server: McpServer; edges: string[] } {
  const edges: string[] = [];
  const server = createServer({
    name: 's',
    version: '1',
    resourceSubscriptions: {
      subscribe: (uri) => void edges.push(`+${uri}`),
      unsubscribe: (uri) => void edges.push(`-${uri}`),
    },
  });
  for (const uri of ['file:///a.b', 'notes://Zürich', 'file:///end'])
    server.resource(uri, { name: uri }, (u) => [{ uri: u, text: 'x' }]);
  return { server, edges };
}

/** {@link peerOf}, initialized when legacy. */
async function clientOf(server: McpServer, era: '2025-11-25' | '2026-07-28', got: Note[]): Promise<Peer> {
  const peer = await peerOf(server, era, got);
  if (era === '2025-11-25') {
    await peer.request('initialize', {
      protocolVersion: era,
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    peer.notify('notifications/initialized');
  }
  return peer;
}

/** Announces `uris`, then `file:///end`, and waits for the last: what came before is all there is. */
async function updatesAfter(server: McpServer, got: Note[], uris: string[]): Promise<unknown[]> {
  const from = got.length;
  for (const uri of uris) server.notifyResourceUpdated(uri);
  server.notifyResourceUpdated('file:///end');
  await until(() => got.slice(from).some((n) => n.params?.uri === 'file:///end'));
  return got
    .slice(from)
    .filter((n) => n.method === 'notifications/resources/updated' && n.params?.uri !== 'file:///end')
    .map((n) => n.params?.uri);
}

describe('one subscription per resource, whatever the spelling', () => {
  it('counts a legacy session subscribing in two spellings once, and an unsubscribe in a third ends it', async () => {
    const { server, edges } = recording();
    const got: Note[] = [];
    const peer = await clientOf(server, '2025-11-25', got);
    await peer.request('resources/subscribe', { uri: 'file:///a%2Eb' });
    await peer.request('resources/subscribe', { uri: 'file:///a.b' });
    await peer.request('resources/subscribe', { uri: 'notes://Z%c3%bcrich' });
    await peer.request('resources/subscribe', { uri: 'NOTES://zürich' });
    await peer.request('resources/subscribe', { uri: 'file:///end' });
    expect(edges).toEqual(['+file:///a.b', '+notes://Zürich', '+file:///end']);
    expect([server.subscribers('file:///a.b'), server.subscribers('notes://Zürich')]).toEqual([1, 1]);
    expect(await updatesAfter(server, got, ['file:///a.b', 'notes://Zürich'])).toEqual([
      'file:///a%2Eb',
      'notes://Z%c3%bcrich',
    ]);
    await peer.request('resources/unsubscribe', { uri: 'FILE:///a.b' });
    await peer.request('resources/unsubscribe', { uri: 'notes://Zürich' });
    await until(() => edges.length === 5);
    expect(edges.slice(3)).toEqual(['-file:///a.b', '-notes://Zürich']);
    expect([server.subscribers('file:///a%2Eb'), server.subscribers('notes://Z%C3%BCrich')]).toEqual([0, 0]);
    expect(await updatesAfter(server, got, ['file:///a.b', 'notes://Zürich'])).toEqual([]);
    await peer.close();
  });

  it('counts a modern listen naming one resource in several spellings once, and acknowledges it once', async () => {
    const { server, edges } = recording();
    const got: Note[] = [];
    const peer = await clientOf(server, '2026-07-28', got);
    const abort = new AbortController();
    const resourceSubscriptions = ['file:///a%2Eb', 'file:///a.b', 'notes://Zürich', 'Notes://Z%C3%BCrich'];
    const listening = peer.request(
      'subscriptions/listen',
      {
        _meta: MODERN_META,
        notifications: { resourceSubscriptions: [...resourceSubscriptions, 'file:///end'] },
      },
      { signal: abort.signal },
    );
    listening.catch(() => undefined);
    await until(() => got.length > 0);
    expect(got[0]?.params?.notifications).toEqual({
      resourceSubscriptions: ['file:///a%2Eb', 'notes://Zürich', 'file:///end'],
    });
    expect(edges).toEqual(['+file:///a.b', '+notes://Zürich', '+file:///end']);
    expect([server.subscribers('file:///a.b'), server.subscribers('notes://zürich')]).toEqual([1, 1]);
    expect(await updatesAfter(server, got, ['FILE:///a%2eb', 'notes://Zürich'])).toEqual([
      'file:///a%2Eb',
      'notes://Zürich',
    ]);
    abort.abort();
    await until(() => edges.length === 6);
    expect(edges.slice(3).sort()).toEqual(['-file:///a.b', '-file:///end', '-notes://Zürich']);
    expect(server.subscribers('file:///a%2Eb')).toBe(0);
    await peer.close();
  });

  it('counts a legacy session and a modern listen in different spellings as two subscribers of one URI', async () => {
    const { server, edges } = recording();
    const legacy = await clientOf(server, '2025-11-25', []);
    const modern = await clientOf(server, '2026-07-28', []);
    await legacy.request('resources/subscribe', { uri: 'file:///a%2eb' });
    const abort = new AbortController();
    const got: Note[] = [];
    const listenPeer = await clientOf(server, '2026-07-28', got);
    const listening = listenPeer.request(
      'subscriptions/listen',
      { _meta: MODERN_META, notifications: { resourceSubscriptions: ['File:///a.b'] } },
      { signal: abort.signal },
    );
    listening.catch(() => undefined);
    await until(() => got.length > 0);
    expect([edges, server.subscribers('file:///a.b')]).toEqual([['+file:///a.b'], 2]);
    await legacy.request('resources/unsubscribe', { uri: 'file:///a.b' });
    expect([edges, server.subscribers('file:///a.b')]).toEqual([['+file:///a.b'], 1]);
    abort.abort();
    await until(() => edges.length === 2);
    expect(edges).toEqual(['+file:///a.b', '-file:///a.b']);
    await Promise.all([legacy.close(), modern.close(), listenPeer.close()]);
  });
});
