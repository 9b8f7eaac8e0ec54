import { afterEach, describe, expect, it } from 'vitest';
import { Peer } from '../core/peer.js';
import type { JsonRpcNotification } from '../core/jsonrpc.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { validateWire } from '../testing/wire-tap.js';
import { turn, until } from '../../test/support/wait.js';
import type { ServerEvent } from '../core/index.js';
import { createHttpHandler } from './http/index.js';
import { connect, createServer, type McpServer } from './index.js';
import { runtimeOf } from './runtime.js';

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const LISTS = ['tools', 'prompts', 'resources'].map((l) => `notifications/${l}/list_changed`);
const text = { role: 'user' as const, content: { type: 'text' as const, text: 'hi' } };

function serving(): McpServer {
  const server = createServer({ name: 's', version: '1' });
  server.tool('first', {}, () => 'one');
  server.prompt('first', {}, () => [text]);
  server.resource('test://first', { name: 'first' }, (uri) => ({ contents: [{ uri, text: 'x' }] }));
  return server;
}

const open: Peer[] = [];
afterEach(async () => {
  for (const peer of open.splice(0)) await peer.close();
});

/** A client on `server` that keeps the list_changed notifications it hears (modern: on a listen stream). */
async function listening(
  server: McpServer,
  era: 'modern' | 'legacy',
): Promise<{ peer: Peer; got: string[] }> {
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const got: string[] = [];
  let acknowledged = false;
  const keep = (n: JsonRpcNotification) => {
    if (n.method === 'notifications/subscriptions/acknowledged') acknowledged = true;
    if (LISTS.includes(n.method)) got.push(n.method);
  };
  const tapped = validateWire(a, era === 'modern' ? '2026-07-28' : '2025-11-25');
  const peer = new Peer(tapped, { request: async () => ({}), notification: keep });
  open.push(peer);
  await peer.start();
  if (era === 'legacy') {
    const clientInfo = { name: 'c', version: '1' };
    await peer.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo });
    peer.notify('notifications/initialized');
    await peer.request('ping', {});
    return { peer, got };
  }
  const notifications = { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true };
  void peer.request('subscriptions/listen', { _meta: MODERN_META, notifications }).catch(() => undefined);
  await until(() => acknowledged);
  return { peer, got };
}

describe('registering while serving announces the list change', () => {
  it.each(['modern', 'legacy'] as const)(
    '%s: tool(), prompt(), resource() and resourceTemplate() each send list_changed, once per list and turn',
    async (era) => {
      const server = serving();
      const { got } = await listening(server, era);
      server.tool('second', {}, () => 'two');
      server.tool('third', {}, () => 'three');
      server.prompt('second', {}, () => [text]);
      server.resource('test://second', { name: 'second' }, (uri) => ({ contents: [{ uri, text: 'y' }] }));
      server.resourceTemplate('test://{id}', { name: 't' }, (uri) => ({ contents: [{ uri, text: 'z' }] }));
      await until(() => got.length >= 3);
      expect([...got].sort()).toEqual([...LISTS].sort());
      server.tool('fourth', {}, () => 'four');
      await until(() => got.length >= 4);
      expect(got[3]).toBe('notifications/tools/list_changed');
    },
  );

  it('an explicit notifyToolsChanged() in the same turn is the only announcement', async () => {
    const server = serving();
    const { peer, got } = await listening(server, 'legacy');
    server.tool('second', {}, () => 'two');
    server.notifyToolsChanged();
    await turn();
    await peer.request('ping', {});
    expect(got).toEqual(['notifications/tools/list_changed']);
  });
});

describe('a server is served once a transport takes it, not when its runtime is read', () => {
  /** The events `server` publishes from now on. */
  function published(server: McpServer): ServerEvent[] {
    const events: ServerEvent[] = [];
    runtimeOf(server).eventBus.subscribe((event) => void events.push(event));
    return events;
  }

  it('reading runtimeOf() switches no announcement on: a later registration publishes nothing', async () => {
    const server = serving();
    const events = published(server);
    void runtimeOf(server).servesLegacy;
    server.tool('second', {}, () => 'two');
    await turn();
    expect(events).toEqual([]);
  });

  const takers: [string, (server: McpServer) => void][] = [
    ['connect', (server) => void connect(server, createLinkedPair()[1])],
    ['createHttpHandler', (server) => void createHttpHandler(server)],
  ];
  it.each(takers)('after %s, a registration is announced once', async (_name, take) => {
    const server = serving();
    const events = published(server);
    take(server);
    server.tool('second', {}, () => 'two');
    await until(() => events.length > 0);
    expect(events).toEqual([{ type: 'toolsListChanged' }]);
  });
});
