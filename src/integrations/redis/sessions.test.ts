import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createServer, type McpServer } from '../../server/index.js';
import { createHttpHandler, type HttpHandler } from '../../server/http/index.js';
import { startRedis, type TestRedis } from '../../../bench/harness/redis.js';
import { post, SseReader, until } from '../../../test/support/http-harness.js';
import { connectRedis, createRedisEventStore, createRedisSessionStore } from './index.js';

let redis: TestRedis;
const connections: Redis[] = [];
const closers: (() => unknown)[] = [];
const stopped: string[] = [];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  for (const close of closers) await close();
  for (const c of connections) c.disconnect();
  await redis?.stop();
});

function definition(name: string): McpServer {
  const server = createServer({ name: 'fleet-unit', version: '1' });
  server.tool('wait', {}, async (_args, ctx) => {
    ctx.progress(1);
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
    stopped.push(name);
    return 'stopped';
  });
  return server;
}

/** One instance: its own server, Redis connection and handler, sharing the fleet's keys. */
async function instance(name: string, prefix: string, maxSessions?: number): Promise<HttpHandler> {
  const connection = await connectRedis(redis.url);
  connections.push(connection);
  const sessionStore = createRedisSessionStore(connection, { prefix });
  const eventStore = createRedisEventStore(connection, { prefix });
  const handler = createHttpHandler(definition(name), {
    sessionStore,
    eventStore,
    ...(maxSessions === undefined ? {} : { maxSessions }),
  });
  closers.push(() => handler.close(), sessionStore.close);
  return handler;
}

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

async function open(handler: HttpHandler): Promise<string> {
  const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'u', version: '1' } };
  const response = await handler(post({ jsonrpc: '2.0', id: 0, method: 'initialize', params }, HEADERS));
  expect(response.status).toBe(200);
  const id = response.headers.get('mcp-session-id')!;
  await handler(
    post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { ...HEADERS, 'mcp-session-id': id }),
  );
  return id;
}

const inSession = (id: string, body: unknown) => post(body, { ...HEADERS, 'mcp-session-id': id });

describe('legacy sessions shared through the Redis session store', () => {
  it("cancels a request running on A when the client's notifications/cancelled reaches B", async () => {
    const a = await instance('a', 'cancel:');
    const b = await instance('b', 'cancel:');
    const id = await open(a);
    const call = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'wait', _meta: { progressToken: 1 } },
    };
    const running = new SseReader(await a(inSession(id, call)));
    await running.waitFor(2); // the priming event, then progress: the tool runs
    const cancel = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 7, reason: 'no' },
    };
    expect((await b(inSession(id, cancel))).status).toBe(202);
    await until(() => stopped.includes('a'));
    await running.finished();
  });

  it('replays on B what a POST stream served by A stored, then ends it', async () => {
    const a = await instance('a2', 'replay:');
    const b = await instance('b2', 'replay:');
    const id = await open(a);
    const call = {
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'wait', _meta: { progressToken: 2 } },
    };
    const first = new SseReader(await a(inSession(id, call)));
    const [priming] = await first.waitFor(2);
    await first.cancel();
    const get = new Request('http://localhost:3000/mcp', {
      headers: { ...HEADERS, 'mcp-session-id': id, 'last-event-id': priming!.id! },
    });
    const resumed = new SseReader(await b(get));
    await resumed.finished();
    expect(resumed.events.map((e) => JSON.parse(e.data) as { method?: string })).toEqual([
      expect.objectContaining({ method: 'notifications/progress' }),
    ]);
    const foreign = new Request('http://localhost:3000/mcp', {
      headers: { ...HEADERS, 'mcp-session-id': await open(b), 'last-event-id': priming!.id! },
    });
    const other = new SseReader(await b(foreign));
    await other.waitFor(1);
    expect(other.events[0]?.data).toBe(''); // a fresh GET stream, nothing of the other session
    await other.cancel();
  });

  it('holds at most maxSessions replicas on one instance: one more gets 503', async () => {
    const a = await instance('a3', 'full:');
    const b = await instance('b3', 'full:', 1);
    const [one, two] = [await open(a), await open(a)];
    expect((await b(inSession(one, { jsonrpc: '2.0', id: 1, method: 'ping' }))).status).toBe(200);
    const refused = await b(inSession(two, { jsonrpc: '2.0', id: 2, method: 'ping' }));
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({
      error: { message: expect.stringMatching(/too many open sessions on this instance/) },
    });
  });
});

describe('hostile Mcp-Session-Id values at the Redis session store', () => {
  it("does not reach another session's keys through an id such as `<id>:subs`", async () => {
    const connection = await connectRedis(redis.url);
    connections.push(connection);
    const store = createRedisSessionStore(connection, { prefix: 'hostile-ids:' });
    closers.push(store.close);
    const record = {
      id: 'victim',
      owner: '',
      protocolVersion: '2025-11-25' as const,
      clientCapabilities: {},
      logLevel: 'info' as const,
      initialized: true,
      subscriptions: ['file:///watched'],
      standaloneStreamId: 'g',
    };
    await store.create(record);
    for (const id of ['victim:subs', 'victim\n', 'vïctim', 'v'.repeat(10_000)]) {
      await expect(store.load(id)).resolves.toBeUndefined();
      await expect(store.delete(id)).resolves.toBe(false);
    }
    expect((await store.load('victim'))?.subscriptions).toEqual(['file:///watched']);
  });
});
