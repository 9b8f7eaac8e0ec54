/**
 * Resource subscriptions through the gateway, with the official server-everything (stdio,
 * legacy: `resources/subscribe`, its `toggle-subscriber-updates` tool sends an update of
 * every subscribed URI at once) and our own server (modern over HTTP: `subscriptions/listen`),
 * and gateway clients of both eras: the official v1 client over HTTP and mcpkit clients
 * on in-memory connections.
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../client/index.js';
import type { JsonRpcNotification } from '../../core/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { connect, createServer, type McpServer } from '../../server/index.js';
import { createLinkedPair } from '../../testing/linked-pair.js';
import { referenceEntry } from '../../../test/interop/helpers.js';
import { deferred, until } from '../../../test/support/wait.js';
import { whenHost } from '../../../test/support/host-fixtures.js';
import { createGateway, createHost, type Gateway, type Host } from '../index.js';

const DOC = 'demo://resource/static/document/architecture.md';
const LIVE = 'memo://live';

function ours(): McpServer {
  const server = createServer({ name: 'ours', version: '1.0.0', eras: ['modern'] });
  server.resource(LIVE, { name: 'live' }, (uri) => [{ uri, text: 'now' }]);
  return server;
}

describe('resource subscriptions through the gateway', () => {
  let backend: McpServer;
  let served: Served;
  let host: Host;
  let gateway: Gateway;
  let front: Served;
  const fromEverything: string[] = [];
  /** What server-everything logged (it logs every subscribe request it receives). */
  const everythingLogs: string[] = [];
  const clients: Client[] = [];

  /** An mcpkit client of the gateway on an in-memory connection, recording its notifications. */
  async function frontClient(
    era: 'legacy' | 'modern',
  ): Promise<{ client: Client; got: JsonRpcNotification[] }> {
    const [a, b] = createLinkedPair();
    await connect(gateway.server, b);
    const got: JsonRpcNotification[] = [];
    const client = createClient({
      name: `front-${era}`,
      version: '1',
      era,
      onNotification: (n) => got.push(n),
    });
    await client.connect(a);
    clients.push(client);
    return { client, got };
  }

  const updates = (got: JsonRpcNotification[]) =>
    got.filter((n) => n.method === 'notifications/resources/updated').map((n) => n.params?.uri);

  beforeAll(async () => {
    backend = ours();
    served = await serve(backend, { port: 0 });
    host = createHost({
      servers: {
        everything: { command: process.execPath, args: [referenceEntry('server-everything')] },
        ours: { url: served.url },
      },
    });
    await host.start();
    host.on('notification', ({ server, notification }) => {
      if (server !== 'everything') return;
      if (notification.method === 'notifications/resources/updated')
        fromEverything.push(String(notification.params?.uri));
      if (notification.method === 'notifications/message')
        everythingLogs.push(String(notification.params?.data));
    });
    gateway = createGateway(host);
    front = await serve(gateway.server, { port: 0 });
  });

  afterAll(async () => {
    for (const c of clients) await c.close();
    await front?.close();
    gateway?.close();
    await host?.close();
    await served?.close();
  });

  it('reaches exactly the subscribed clients of both eras, with one backend subscription per URI', async () => {
    const legacy = await frontClient('legacy');
    const modern = await frontClient('modern');
    const bystander = await frontClient('legacy');
    const official = new LegacyClient({ name: 'official-v1', version: '1' });
    const officialGot: string[] = [];
    official.setNotificationHandler(
      ResourceUpdatedNotificationSchema,
      (n) => void officialGot.push(n.params.uri),
    );
    const officialTransport = new LegacyHttp(new URL(front.url));
    await official.connect(officialTransport);

    await legacy.client.subscribeResource(DOC);
    await legacy.client.subscribeResource(LIVE);
    await official.subscribeResource({ uri: DOC });
    const listen = modern.client.listen({ resourceSubscriptions: [DOC, LIVE] });
    expect(await listen.acknowledged).toEqual({ resourceSubscriptions: [DOC, LIVE] });
    // Three gateway clients, one subscription on our backend.
    expect(backend.subscribers(LIVE)).toBe(1);
    expect(gateway.server.subscribers(LIVE)).toBe(2);

    // The tool sends an update of every subscribed URI before its result (stdio keeps the order).
    await bystander.client.callTool('everything__toggle-subscriber-updates');
    expect(fromEverything).toEqual([DOC]);
    backend.notifyResourceUpdated(LIVE);
    const both = (got: JsonRpcNotification[]) => [DOC, LIVE].every((uri) => updates(got).includes(uri));
    await until(() => both(modern.got) && both(legacy.got) && officialGot.length > 0);
    // (server-everything repeats its updates every 5 s while they are on: sets, not counts.)
    expect(new Set(updates(legacy.got))).toEqual(new Set([DOC, LIVE]));
    expect(new Set(updates(modern.got))).toEqual(new Set([DOC, LIVE]));
    expect(new Set(officialGot)).toEqual(new Set([DOC]));
    expect(updates(bystander.got)).toEqual([]);

    await bystander.client.callTool('everything__toggle-subscriber-updates'); // stops the updates
    listen.close();
    await legacy.client.unsubscribeResource(DOC);
    await legacy.client.unsubscribeResource(LIVE);
    await until(() => backend.subscribers(LIVE) === 0);
    expect(gateway.server.subscribers(DOC)).toBe(1);
    // Ending its session (DELETE) gives back the session's subscriptions.
    await officialTransport.terminateSession();
    await official.close();
    await until(() => gateway.server.subscribers(DOC) === 0);
    // Unsubscribed on the backend too (it logs the request before it answers; closing the
    // gateway's backend subscription sends it, so wait for it rather than race it): starting
    // the updates again sends nothing.
    await until(() =>
      everythingLogs.some((l) => l.includes(`Received Unsubscribe Resource request: ${DOC}`)),
    );
    fromEverything.length = 0;
    await bystander.client.callTool('everything__toggle-subscriber-updates');
    await bystander.client.callTool('everything__toggle-subscriber-updates');
    expect(fromEverything).toEqual([]);
  });

  it('refuses a URI no server offers: -32602 on legacy, left out of a modern acknowledgment', async () => {
    const legacy = await frontClient('legacy');
    await expect(legacy.client.subscribeResource('nowhere://x')).rejects.toMatchObject({ code: -32602 });
    const modern = await frontClient('modern');
    const listen = modern.client.listen({ resourceSubscriptions: ['nowhere://x', LIVE] });
    expect(await listen.acknowledged).toEqual({ resourceSubscriptions: [LIVE] });
    listen.close();
  });

  it('subscribes again on the backend after it reconnects', async () => {
    const modern = await frontClient('modern');
    const legacy = await frontClient('legacy');
    const listen = modern.client.listen({ resourceSubscriptions: [LIVE] });
    await listen.acknowledged;
    await legacy.client.subscribeResource(DOC);
    everythingLogs.length = 0;
    await host.reconnect('ours');
    await host.reconnect('everything');
    await whenHost(host, () => (host.status().every((s) => s.state === 'ready') ? true : undefined));
    await until(() => backend.subscribers(LIVE) === 1);
    backend.notifyResourceUpdated(LIVE);
    await until(() => updates(modern.got).includes(LIVE));
    // The new everything process gets the subscription again, and its update reaches the client.
    await until(() =>
      everythingLogs.some((l) => l.includes(`Received Subscribe Resource request for URI: ${DOC}`)),
    );
    fromEverything.length = 0;
    await legacy.client.callTool('everything__toggle-subscriber-updates');
    expect(fromEverything).toEqual([DOC]);
    await until(() => updates(legacy.got).includes(DOC));
    await legacy.client.callTool('everything__toggle-subscriber-updates');
    listen.close();
  });
});

describe('a backend slower than the gateway server’s subscriptionHookTimeoutMs (hostile: a stalling backend)', () => {
  it('closes the abandoned backend subscription once a later subscriber took the URI over', async () => {
    const gate = deferred<boolean>();
    let calls = 0;
    const backend = createServer({
      name: 'slow',
      version: '1',
      eras: ['modern'],
      resourceSubscriptions: { subscribe: () => (calls++ === 0 ? gate.promise : true) },
    });
    backend.resource(LIVE, { name: 'live' }, (uri) => [{ uri, text: 'now' }]);
    const served = await serve(backend, { port: 0 });
    const host = createHost({ servers: { slow: { url: served.url } } });
    await host.start();
    const gateway = createGateway(host, { server: { limits: { subscriptionHookTimeoutMs: 1000 } } });
    const clients: Client[] = [];
    const front = async (): Promise<Client> => {
      const [a, b] = createLinkedPair();
      await connect(gateway.server, b);
      const client = createClient({ name: 'front', version: '1', era: 'legacy' });
      await client.connect(a);
      clients.push(client);
      return client;
    };
    try {
      const first = await front();
      await expect(first.subscribeResource(LIVE)).rejects.toMatchObject({ code: -32603 });
      const second = await front();
      const subscribed = second.subscribeResource(LIVE);
      await until(() => backend.subscribers(LIVE) === 2); // the abandoned listen and the new one
      gate.resolve(true);
      await subscribed;
      await until(() => backend.subscribers(LIVE) === 1);
      await second.unsubscribeResource(LIVE);
      await until(() => backend.subscribers(LIVE) === 0);
      expect(gateway.server.subscribers(LIVE)).toBe(0);
    } finally {
      for (const c of clients) await c.close();
      gateway.close();
      await host.close();
      await served.close();
    }
  });
});
