/**
 * A `resources/updated` event reaches every subscriber of the resource, whatever spelling
 * of its URI each subscribed with (percent-encoded, case-changed scheme and host, raw
 * non-ASCII), as the catalogue resolves it (resource-uri.ts), and tells each subscriber
 * its own spelling; on both eras.
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
