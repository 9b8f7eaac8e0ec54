/**
 * Spellings of one resource URI (`file:///a%2Eb` and `file:///a.b`, a case-changed scheme or
 * host, percent-encoded and raw non-ASCII) are one subscription: the server's counts and its
 * `resourceSubscriptions` hooks see the canonical URI once, an unsubscribe in another
 * spelling ends it, and an update reaches the subscriber once; legacy sessions and modern
 * listen streams alike.
 */
import { describe, expect, it } from 'vitest';
import { Peer } from '../core/peer.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { validateWire } from '../testing/wire-tap.js';
import { until } from '../../test/support/wait.js';
import { connect, createServer, type McpServer } from './index.js';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

type Note = { method: string; params?: Record<string, unknown> };

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

async function peerOf(server: McpServer, era: '2025-11-25' | '2026-07-28', got: Note[]): Promise<Peer> {
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const peer = new Peer(validateWire(a, era), {
    request: async () => ({}),
    notification: (n) => got.push(n),
  });
  await peer.start();
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
    const peer = await peerOf(server, '2025-11-25', got);
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
    const peer = await peerOf(server, '2026-07-28', got);
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
    const legacy = await peerOf(server, '2025-11-25', []);
    const modern = await peerOf(server, '2026-07-28', []);
    await legacy.request('resources/subscribe', { uri: 'file:///a%2eb' });
    const abort = new AbortController();
    const got: Note[] = [];
    const listenPeer = await peerOf(server, '2026-07-28', got);
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
