import { afterEach, describe, expect, it } from 'vitest';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest } from '../core/jsonrpc.js';
import { META } from '../core/revisions.js';
import type { Transport } from '../core/transport.js';
import { connect, createServer, type McpServer } from '../server/index.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import type { WireRevision } from '../testing/wire-schema.js';
import { validateWire } from '../testing/wire-tap.js';
import { until } from '../../test/support/client-harness.js';
import { createClient, type Client, type ClientOptions, type Subscription } from './index.js';

function buildServer(): McpServer {
  const server = createServer({ name: 's', version: '1' });
  server.tool('echo', {}, () => 'hi');
  server.prompt('greet', {}, () => [{ role: 'user', content: { type: 'text', text: 'hello' } }]);
  server.resource('test://a', { mimeType: 'text/plain' }, (uri) => [{ uri, text: 'A' }]);
  return server;
}

const clients: Client[] = [];
const violations: string[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  expect(violations.splice(0), 'messages that break the official schema').toEqual([]);
});

interface Live {
  client: Client;
  sent: JsonRpcMessage[];
  notifications: JsonRpcNotification[];
  server: Awaited<ReturnType<typeof connect>>;
}

function recordSent(transport: Transport, sent: JsonRpcMessage[]): Transport {
  return {
    start: (sink) => transport.start(sink),
    send: (message) => (sent.push(...[message].flat()), transport.send(message)),
    close: () => transport.close(),
  };
}

/** Connects `client` (a new one unless given) to `server` over a fresh linked pair. */
async function live(
  server: McpServer,
  revision: WireRevision,
  options: Partial<ClientOptions> = {},
  existing?: Live,
): Promise<Live> {
  const [a, b] = createLinkedPair();
  const connection = await connect(server, b);
  const notifications: JsonRpcNotification[] = existing?.notifications ?? [];
  const sent: JsonRpcMessage[] = existing?.sent ?? [];
  const client =
    existing?.client ??
    createClient({
      name: 'c',
      version: '1',
      era: revision === '2026-07-28' ? 'modern' : 'legacy',
      onNotification: (n) => void notifications.push(n),
      ...options,
    });
  if (!existing) clients.push(client);
  await client.connect(validateWire(recordSent(a, sent), revision, violations));
  return { client, sent, notifications, server: connection };
}

/** Collects what a subscription yields until it ends; resolves with the methods, or the error. */
function drain(sub: Subscription): { methods: string[]; done: Promise<unknown> } {
  const methods: string[] = [];
  const done = (async () => {
    for await (const n of sub) methods.push(n.method);
  })().then(
    () => 'ended',
    (error: unknown) => error,
  );
  return { methods, done };
}

const acknowledgments = (notifications: JsonRpcNotification[]) =>
  notifications.filter((n) => n.method === 'notifications/subscriptions/acknowledged').length;

const listens = (sent: JsonRpcMessage[]) =>
  sent.filter((m): m is JsonRpcRequest => 'method' in m && 'id' in m && m.method === 'subscriptions/listen');

describe('listen on a modern server', () => {
  it('delivers list_changed to the two clients that listen and nothing to one that did not', async () => {
    const server = buildServer();
    const [one, two, bystander] = await Promise.all([
      live(server, '2026-07-28'),
      live(server, '2026-07-28'),
      live(server, '2026-07-28'),
    ]);
    const subs = [one, two].map((c) => c.client.listen({ toolsListChanged: true, promptsListChanged: true }));
    const drains = subs.map(drain);
    for (const sub of subs)
      await expect(sub.acknowledged).resolves.toEqual({ toolsListChanged: true, promptsListChanged: true });
    server.notifyToolsChanged();
    server.notifyResourcesChanged();
    await until(() => drains.every((d) => d.methods.length === 1));
    expect(drains.map((d) => d.methods)).toEqual([
      ['notifications/tools/list_changed'],
      ['notifications/tools/list_changed'],
    ]);
    await bystander.client.listTools();
    expect(bystander.notifications).toEqual([]);
    const tagged = one.notifications.find((n) => n.method === 'notifications/tools/list_changed');
    expect(tagged?.params?._meta).toEqual({ [META.subscriptionId]: listens(one.sent)[0]?.id });
  });

  it('keeps each subscription to its own notifications on one connection', async () => {
    const server = buildServer();
    const { client } = await live(server, '2026-07-28');
    const tools = drain(client.listen({ toolsListChanged: true }));
    const resources = client.listen({ resourceSubscriptions: ['test://a'] });
    const updates = drain(resources);
    await resources.acknowledged;
    server.notifyResourceUpdated('test://a');
    server.notifyToolsChanged();
    await until(() => tools.methods.length === 1 && updates.methods.length === 1);
    expect(tools.methods).toEqual(['notifications/tools/list_changed']);
    expect(updates.methods).toEqual(['notifications/resources/updated']);
  });

  it('listens again when the server completes the listen, and still delivers a later list_changed', async () => {
    const server = buildServer();
    const { client, sent, notifications } = await live(server, '2026-07-28');
    const sub = client.listen({ toolsListChanged: true });
    const { methods, done } = drain(sub);
    await sub.acknowledged;
    server.closeSubscriptions();
    await until(() => listens(sent).length === 2);
    await until(() => acknowledgments(notifications) === 2);
    server.notifyToolsChanged();
    await until(() => methods.length > 0);
    expect(methods).toEqual(['notifications/tools/list_changed']);
    sub.close();
    await expect(done).resolves.toBe('ended');
  });

  it('delivers a list change made while no listen was open, by listing again after the re-listen', async () => {
    const server = buildServer();
    const { client, notifications } = await live(server, '2026-07-28');
    const sub = client.listen({ toolsListChanged: true });
    const { methods } = drain(sub);
    await sub.acknowledged;
    await client.tools();
    // Between the completion and the next acknowledgment nobody hears the bus: change the list then.
    server.closeSubscriptions();
    server.tool('added', {}, () => 'new');
    await until(() => acknowledgments(notifications) === 2);
    await until(() => methods.length > 0);
    expect(methods).toEqual(['notifications/tools/list_changed']);
    expect((await client.tools()).map((t) => t.name)).toContain('added');
    sub.close();
  });

  it('does not listen again after a completion that honoured nothing', async () => {
    const server = createServer({ name: 's', version: '1', listChanged: false });
    server.tool('echo', {}, () => 'hi');
    const { client, sent } = await live(server, '2026-07-28');
    const sub = client.listen({ toolsListChanged: true });
    const { done } = drain(sub);
    await expect(sub.acknowledged).resolves.toEqual({});
    await expect(done).resolves.toBe('ended');
    expect(listens(sent)).toHaveLength(1);
  });

  it('ends the iteration and cancels the listen request on close()', async () => {
    const server = buildServer();
    const { client, sent } = await live(server, '2026-07-28');
    const sub = client.listen({ toolsListChanged: true });
    const { done } = drain(sub);
    await sub.acknowledged;
    sub.close();
    await expect(done).resolves.toBe('ended');
    const cancelled = sent.find((m) => 'method' in m && m.method === 'notifications/cancelled');
    expect(cancelled).toMatchObject({ params: { requestId: listens(sent)[0]?.id } });
  });

  it('ends the iteration when the listen signal aborts', async () => {
    const { client } = await live(buildServer(), '2026-07-28');
    const abort = new AbortController();
    const sub = client.listen({ toolsListChanged: true }, { signal: abort.signal });
    const { done } = drain(sub);
    await sub.acknowledged;
    abort.abort();
    await expect(done).resolves.toBe('ended');
  });

  it('invalidates the tool list callTool checks against on tools list_changed', async () => {
    const server = buildServer();
    const { client, sent } = await live(server, '2026-07-28');
    const toolLists = () => sent.filter((m) => 'method' in m && m.method === 'tools/list').length;
    const sub = client.listen({ toolsListChanged: true });
    const { methods } = drain(sub);
    await sub.acknowledged;
    await client.callTool('echo');
    const listed = toolLists();
    await client.callTool('echo');
    expect(toolLists()).toBe(listed);
    server.notifyToolsChanged();
    await until(() => methods.length === 1);
    await client.callTool('echo');
    expect(toolLists()).toBe(listed + 1);
  });

  it('throws CONNECTION_CLOSED from the iteration when the connection drops, without reconnect', async () => {
    const server = buildServer();
    const { client, server: connection } = await live(server, '2026-07-28');
    const sub = client.listen({ toolsListChanged: true });
    const { done } = drain(sub);
    await sub.acknowledged;
    await connection.close();
    await expect(done).resolves.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('listens again on the new connection after a drop, with reconnect', async () => {
    const server = buildServer();
    const first = await live(server, '2026-07-28');
    const sub = first.client.listen({ toolsListChanged: true }, { reconnect: true });
    const { methods, done } = drain(sub);
    await sub.acknowledged;
    await first.server.close();
    await until(() => !isConnected(first.client));
    await live(server, '2026-07-28', {}, first);
    await until(() => listens(first.sent).length === 2, 3000);
    await until(
      () =>
        first.notifications.filter((n) => n.method === 'notifications/subscriptions/acknowledged').length ===
        2,
    );
    server.notifyToolsChanged();
    await until(() => methods.length === 1);
    sub.close();
    await expect(done).resolves.toBe('ended');
  });
});

/** Whether the client still has an open connection (notifyRootsChanged throws when not). */
function isConnected(client: Client): boolean {
  try {
    client.notifyRootsChanged();
    return true;
  } catch {
    return false;
  }
}

describe('listen on a legacy session', () => {
  it('delivers the list_changed and resource updates asked for, subscribing and unsubscribing the URIs', async () => {
    const server = buildServer();
    const { client, sent } = await live(server, '2025-11-25');
    const sub = client.listen({ toolsListChanged: true, resourceSubscriptions: ['test://a'] });
    const { methods, done } = drain(sub);
    await expect(sub.acknowledged).resolves.toEqual({
      toolsListChanged: true,
      resourceSubscriptions: ['test://a'],
    });
    expect(sent.filter((m) => 'method' in m && m.method === 'resources/subscribe')).toHaveLength(1);
    server.notifyPromptsChanged();
    server.notifyToolsChanged();
    server.notifyResourceUpdated('test://a');
    await until(() => methods.length === 2);
    expect(methods).toEqual(['notifications/tools/list_changed', 'notifications/resources/updated']);
    sub.close();
    await expect(done).resolves.toBe('ended');
    await until(() => sent.some((m) => 'method' in m && m.method === 'resources/unsubscribe'));
  });

  it('unsubscribes a URI only after the last subscription to it closes', async () => {
    const { client, sent } = await live(buildServer(), '2025-11-25');
    const unsubscribes = () =>
      sent.filter((m) => 'method' in m && m.method === 'resources/unsubscribe').length;
    const a = client.listen({ resourceSubscriptions: ['test://a'] });
    const b = client.listen({ resourceSubscriptions: ['test://a'] });
    await Promise.all([a.acknowledged, b.acknowledged]);
    a.close();
    await client.ping();
    expect(unsubscribes()).toBe(0);
    b.close();
    await until(() => unsubscribes() === 1);
  });
});
