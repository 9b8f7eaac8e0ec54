/**
 * Legacy (2025-11-25) sessions served by a fleet with no sticky routing: three mcpkit
 * instances share their sessions through one Redis. Each POST of a session may land on any
 * instance; the GET stream on one instance hears what happens on the others; the answer to
 * a server-initiated request reaches the instance that asked; a `Last-Event-ID` reconnect
 * to another instance replays from Redis Streams; DELETE ends a session everywhere; a
 * session survives the death of the instance that opened it; Redis down gives a clear 503.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { createClient, streamableHttp, type Client } from '../../src/client/index.js';
import type { JsonRpcNotification } from '../../src/core/jsonrpc.js';
import { sessionRouter, startFleet, type FleetInstance } from '../support/fleet.js';
import { startRedis, type TestRedis } from '../../bench/harness/redis.js';
import { SseReader, until } from '../support/http-harness.js';

let redis: TestRedis;
let fleet: FleetInstance[];
const clients: Client[] = [];

beforeAll(async () => {
  redis = await startRedis();
  fleet = await startFleet(redis.url, ['a', 'b', 'c'], { leaseMs: 1500, pollMs: 50 });
}, 30_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  for (const instance of fleet ?? []) await instance.kill();
  await redis?.stop();
});

const dead = new Set<string>();
const urls = (): string[] => fleet.map((i) => i.url).filter((url) => !dead.has(url));
const text = (result: unknown): string =>
  ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text).join('');

/** A legacy client whose POSTs rotate over the instances and whose GET goes to `getTarget()`. */
async function legacyClient(getTarget: () => string, seen: JsonRpcNotification[] = []) {
  const router = sessionRouter(urls, getTarget);
  const client = createClient({
    name: 'fleet-legacy-test',
    version: '1',
    era: 'legacy',
    timeoutMs: 10_000,
    handlers: { elicitation: async () => ({ action: 'accept', content: { ok: true } }) },
    onNotification: (n) => void seen.push(n),
  });
  await client.connect(streamableHttp(fleet[0]!.url, { fetch: router.fetch }));
  clients.push(client);
  return { client, router, seen };
}

function collect(sub: AsyncIterable<JsonRpcNotification>): JsonRpcNotification[] {
  const seen: JsonRpcNotification[] = [];
  void (async () => {
    for await (const n of sub) seen.push(n);
  })().catch(() => undefined);
  return seen;
}

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

/** Opens a session with a raw initialize on `url`; returns its id. */
async function rawSession(url: string): Promise<string> {
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  const response = await fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(init) });
  expect(response.status).toBe(200);
  await response.text();
  const id = response.headers.get('mcp-session-id')!;
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
  const sent = await post(url, id, initialized);
  expect(sent.status).toBe(202);
  return id;
}

function post(url: string, sessionId: string, body: unknown): Promise<Response> {
  const headers = { ...HEADERS, 'mcp-session-id': sessionId };
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
}

async function callTool(url: string, sessionId: string, name: string, id: number): Promise<void> {
  const response = await post(url, sessionId, { jsonrpc: '2.0', id, method: 'tools/call', params: { name } });
  expect(response.status).toBe(200);
  await response.text();
}

/** A raw GET SSE stream: its events (id and data) as they arrive; `close()` drops the connection. */
async function rawGet(url: string, sessionId: string, lastEventId?: string) {
  const headers: Record<string, string> = { ...HEADERS, 'mcp-session-id': sessionId };
  if (lastEventId) headers['last-event-id'] = lastEventId;
  const response = await fetch(url, { headers });
  expect(response.status).toBe(200);
  const reader = new SseReader(response);
  return { events: reader.events, close: () => reader.cancel() };
}

describe('legacy sessions on a fleet of three instances, no sticky routing', () => {
  it('keeps the log level and resource subscriptions in Redis and delivers to the GET stream on A what B and C produce', async () => {
    const [a] = fleet;
    const { client, router, seen } = await legacyClient(() => a!.url);
    await until(() => router.routed.some((r) => r.http === 'GET'));
    await client.setLoggingLevel('warning');
    expect(text(await client.callTool('chatty', {}))).toMatch(/^logged on [abc]$/);
    const setLevel = router.routed.find((r) => r.rpc === 'logging/setLevel')!;
    const call = router.routed.find((r) => r.rpc === 'tools/call')!;
    expect(call.url).not.toBe(setLevel.url);
    const logs = seen.filter((n) => n.method === 'notifications/message');
    expect(logs.map((n) => n.params?.level)).toEqual(['warning']);

    const sub = client.listen({ toolsListChanged: true, resourceSubscriptions: ['fleet://note'] });
    expect(await sub.acknowledged).toEqual({
      toolsListChanged: true,
      resourceSubscriptions: ['fleet://note'],
    });
    const heard = collect(sub);
    await client.callTool('touch', { uri: 'fleet://note' });
    await client.callTool('touch', { uri: 'fleet://other' });
    await client.callTool('add_tool', {});
    await until(() => heard.length >= 2);
    await client.callTool('add_tool', {});
    await until(() => heard.length >= 3);
    expect(heard.map((n) => n.method).sort()).toEqual([
      'notifications/resources/updated',
      'notifications/tools/list_changed',
      'notifications/tools/list_changed',
    ]);
    const posted = new Set(router.routed.filter((r) => r.http === 'POST').map((r) => r.url));
    expect(posted.size).toBe(3);
    sub.close();
  });

  it('hands the answer to an elicitation asked on one instance, POSTed to the next, to the waiting tool', async () => {
    const { client, router } = await legacyClient(() => fleet[0]!.url);
    const result = await client.callTool('approve', {});
    const call = router.routed.find((r) => r.rpc === 'tools/call')!;
    const answer = router.routed.find((r) => r.rpc === 'response')!;
    expect(answer.url).not.toBe(call.url);
    const asked = fleet.find((i) => i.url === call.url)!.name;
    expect(text(result)).toBe(`approved on ${asked}`);
  });

  it('ends a session everywhere on DELETE; an ended or unknown session gets 404 on every instance', async () => {
    const [a, b] = fleet;
    const id = await rawSession(a!.url);
    for (const url of urls())
      expect((await post(url, id, { jsonrpc: '2.0', id: 2, method: 'ping' })).status).toBe(200);
    const deleted = await fetch(b!.url, { method: 'DELETE', headers: { ...HEADERS, 'mcp-session-id': id } });
    expect(deleted.status).toBe(200);
    for (const sessionId of [id, crypto.randomUUID()])
      for (const url of urls()) {
        const response = await post(url, sessionId, { jsonrpc: '2.0', id: 3, method: 'ping' });
        expect(response.status).toBe(404);
        expect(await response.json()).toMatchObject({
          error: { code: -32600, message: 'Session not found' },
        });
      }
  });

  it('replays from Redis Streams what a GET stream missed when it reconnects to another instance with Last-Event-ID', async () => {
    const [a, b, c] = fleet;
    const id = await rawSession(a!.url);
    const first = await rawGet(a!.url, id);
    await until(() => first.events.length >= 1); // the priming event
    await callTool(b!.url, id, 'add_tool', 10);
    await until(() => first.events.length >= 2);
    const lastSeen = first.events[1]!.id!;
    await first.close();
    await callTool(c!.url, id, 'add_tool', 11);
    await callTool(c!.url, id, 'add_tool', 12);
    const resumed = await rawGet(b!.url, id, lastSeen);
    await until(() => resumed.events.length >= 2);
    await callTool(c!.url, id, 'add_tool', 13);
    await until(() => resumed.events.length >= 3);
    const replayed = resumed.events.map((e) => JSON.parse(e.data) as JsonRpcNotification);
    expect(replayed.map((n) => n.method)).toEqual(Array(3).fill('notifications/tools/list_changed'));
    const seqs = [lastSeen, ...resumed.events.map((e) => e.id ?? '')].map((e) => Number(e.split('_').at(-1)));
    expect(seqs).toEqual([seqs[0], seqs[0]! + 1, seqs[0]! + 2, seqs[0]! + 3]);
    await resumed.close();
  });

  it('serves the official v1 SDK client (legacy Streamable HTTP) through a round-robin front', async () => {
    const [, b] = fleet;
    const router = sessionRouter(urls, () => b!.url);
    const client = new V1Client({ name: 'v1-fleet', version: '1' }, { capabilities: { elicitation: {} } });
    const logs: unknown[] = [];
    const changes: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { ok: true } }));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.level));
    client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => void changes.push(n));
    const transport = new StreamableHTTPClientTransport(new URL(b!.url), { fetch: router.fetch });
    await client.connect(transport);
    try {
      await until(() => router.routed.some((r) => r.http === 'GET'));
      await client.setLoggingLevel('warning');
      expect(text(await client.callTool({ name: 'chatty', arguments: {} }))).toMatch(/^logged on [abc]$/);
      expect(logs).toEqual(['warning']);
      expect(text(await client.callTool({ name: 'approve', arguments: {} }))).toMatch(/^approved on [abc]$/);
      const call = router.routed.filter((r) => r.rpc === 'tools/call').at(-1)!;
      const answer = router.routed.find((r) => r.rpc === 'response')!;
      expect(answer.url).not.toBe(call.url);
      await client.callTool({ name: 'add_tool', arguments: {} });
      await until(() => changes.length >= 1);
      expect(new Set(router.routed.filter((r) => r.http === 'POST').map((r) => r.url)).size).toBe(3);
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });

  it('goes on after the instance that opened the session and held its GET stream is SIGKILLed', async () => {
    const [a, b] = fleet;
    let getTarget = a!.url;
    const { client, router, seen } = await legacyClient(() => getTarget);
    expect(router.routed[0]).toMatchObject({ rpc: 'initialize', url: a!.url });
    await until(() => router.routed.some((r) => r.http === 'GET'));
    await client.callTool('add_tool', {});
    await until(() => seen.some((n) => n.method === 'notifications/tools/list_changed'));
    getTarget = b!.url;
    dead.add(a!.url);
    await a!.kill('SIGKILL');
    expect(text(await client.callTool('approve', {}))).toMatch(/^approved on [bc]$/);
    await until(() => router.routed.some((r) => r.http === 'GET' && r.url === b!.url), 10_000);
    const before = seen.filter((n) => n.method === 'notifications/tools/list_changed').length;
    await until(async () => {
      await client.callTool('add_tool', {});
      return seen.filter((n) => n.method === 'notifications/tools/list_changed').length > before;
    }, 10_000);
  });

  it('answers 503 naming Redis while Redis is down, and 404 once it is back without the session', async () => {
    const [, b, c] = fleet;
    const id = await rawSession(b!.url);
    await redis.stop();
    const startedAt = Date.now();
    const refused = await post(c!.url, id, { jsonrpc: '2.0', id: 5, method: 'ping' });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({
      error: {
        code: -32603,
        message: expect.stringMatching(/session store failed: Redis did not answer within \d+ ms/),
      },
    });
    expect(Date.now() - startedAt).toBeLessThan(5000);
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const noSession = await fetch(b!.url, { method: 'POST', headers: HEADERS, body: JSON.stringify(init) });
    expect(noSession.status).toBe(503);
    await redis.restart();
    await until(
      async () => (await post(b!.url, id, { jsonrpc: '2.0', id: 6, method: 'ping' })).status === 404,
      10_000,
    );
    expect(await rawSession(c!.url)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
