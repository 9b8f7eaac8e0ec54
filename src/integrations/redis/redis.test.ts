import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import type { ServerEvent } from '../../core/event-bus.js';
import { applyResponses, type TaskSignal, type TaskState } from '../../core/tasks.js';
import { freePort, startRedis, type TestRedis } from '../../../bench/harness/redis.js';
import { until } from '../../../test/support/wait.js';
import type { SessionMessage, SessionRecord } from '../../server/http/legacy/session-store.js';
import {
  connectRedis,
  createRedisEventBus,
  createRedisEventStore,
  createRedisSessionStore,
  createRedisTaskStore,
} from './index.js';

let redis: TestRedis;
const clients: Redis[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const close of closers) await close();
  for (const c of clients) c.disconnect();
  await redis?.stop();
});

async function client(): Promise<Redis> {
  const c = await connectRedis(redis.url);
  clients.push(c);
  return c;
}

function task(id: string, patch: Partial<TaskState> = {}): TaskState {
  const now = new Date().toISOString();
  return {
    taskId: id,
    status: 'input_required',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    inputRequests: {
      a: { method: 'elicitation/create', params: {} },
      b: { method: 'roots/list', params: {} },
    },
    internal: { answers: {}, owner: 'one', leaseUntil: Date.now() + 60_000 },
    ...patch,
  };
}

describe('the Redis backends', () => {
  it('refuses to start with a clear error when Redis is unreachable', async () => {
    const port = await freePort();
    const start = connectRedis(`redis://:secret@127.0.0.1:${port}`, { startTimeoutMs: 1000 });
    await expect(start).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(start).rejects.toThrow(
      new RegExp(`Redis at redis://:\\*\\*\\*@127.0.0.1:${port}/? is unreachable`),
    );
  });

  it('delivers events published by one instance to the listeners of every instance', async () => {
    const a = await createRedisEventBus(await client(), { channel: 'bus-test' });
    const b = await createRedisEventBus(await client(), { channel: 'bus-test' });
    closers.push(a.close, b.close);
    const seenA: ServerEvent[] = [];
    const seenB: ServerEvent[] = [];
    a.subscribe((e) => seenA.push(e));
    b.subscribe((e) => seenB.push(e));
    await b.publish({ type: 'resourceUpdated', uri: 'test://x' });
    await a.publish({ type: 'toolsListChanged' });
    await until(() => seenA.length === 2 && seenB.length === 2);
    expect(seenA).toEqual([{ type: 'resourceUpdated', uri: 'test://x' }, { type: 'toolsListChanged' }]);
    expect(seenB).toEqual(seenA);
  });

  it('stores tasks with their TTL and changes them by compare-and-set', async () => {
    const c = await client();
    const store = await createRedisTaskStore(c, { prefix: 'cas:' });
    closers.push(store.close);
    await store.create(task('t1'));
    expect((await store.get('t1'))?.status).toBe('input_required');
    const ttl = await c.pttl('cas:task:t1');
    expect(ttl).toBeGreaterThan(50_000);
    const now = new Date();
    const both = await Promise.all([
      store.update('t1', (t) => applyResponses(t, { a: { action: 'accept' } }, now)),
      store.update('t1', (t) => applyResponses(t, { b: { roots: [] } }, now)),
    ]);
    expect(both.every(Boolean)).toBe(true);
    const after = await store.get('t1');
    expect(after?.status).toBe('working');
    expect(Object.keys(after?.internal.answers ?? {}).sort()).toEqual(['a', 'b']);
    expect(await c.pttl('cas:task:t1')).toBeGreaterThan(50_000);
    expect(await store.get('missing')).toBeUndefined();
    expect(await store.update('missing', (t) => t)).toBeUndefined();
  });

  it('lists tasks whose lease ended, and forgets leases of finished tasks', async () => {
    const store = await createRedisTaskStore(await client(), { prefix: 'lease:' });
    closers.push(store.close);
    await store.create(task('old', { internal: { answers: {}, owner: 'x', leaseUntil: Date.now() - 1 } }));
    await store.create(task('fresh'));
    expect(await store.expiredLeases!(Date.now())).toEqual(['old']);
    await store.update('old', (t) => ({ ...t, status: 'failed', error: { code: -32603, message: 'x' } }));
    expect(await store.expiredLeases!(Date.now())).toEqual([]);
  });

  it('signals every instance', async () => {
    const one = await createRedisTaskStore(await client(), { prefix: 'sig:' });
    const two = await createRedisTaskStore(await client(), { prefix: 'sig:' });
    closers.push(one.close, two.close);
    const heard: TaskSignal[] = [];
    two.subscribe((s) => heard.push(s));
    await one.signal({ taskId: 't', kind: 'cancelled' });
    await until(() => heard.length === 1);
    expect(heard).toEqual([{ taskId: 't', kind: 'cancelled' }]);
  });

  it('keeps SSE events on a bounded stream with a TTL and replays after a sequence number', async () => {
    const c = await client();
    const store = createRedisEventStore(c, { prefix: 'sse:', maxLength: 50, ttlMs: 30_000 });
    for (let seq = 1; seq <= 200; seq++)
      await store.append('s1', {
        id: `s1_${seq}`,
        seq,
        message: { jsonrpc: '2.0', method: 'm', params: { seq } },
      });
    const all = await store.since('s1', 0);
    expect(all.map((e) => e.seq)).toEqual(Array.from({ length: 50 }, (_, i) => 151 + i));
    expect(all.at(-1)).toEqual({
      id: 's1_200',
      seq: 200,
      message: { jsonrpc: '2.0', method: 'm', params: { seq: 200 } },
    });
    expect((await store.since('s1', 198)).map((e) => e.seq)).toEqual([199, 200]);
    expect(await c.pttl('sse:sse:s1')).toBeGreaterThan(20_000);
    await store.deleteStream('s1');
    expect(await store.since('s1', 0)).toEqual([]);
  });

  it('bounds the SSE events one owner keeps across its streams, as the memory store does', async () => {
    const c = await client();
    const store = createRedisEventStore(c, { prefix: 'own:', maxLength: 50, maxEventsPerOwner: 5 });
    const put = async (streamId: string, count: number, owner?: string) => {
      for (let seq = 1; seq <= count; seq++)
        await store.append(
          streamId,
          { id: `${streamId}_${seq}`, seq, message: { jsonrpc: '2.0', method: 'm' } },
          owner,
        );
    };
    await put('a1', 4, 'alice');
    await put('a2', 4, 'alice');
    await put('b1', 3, 'bob');
    await put('anon', 10);
    const seqs = async (streamId: string) => (await store.since(streamId, 0)).map((e) => e.seq);
    expect(await seqs('a1')).toEqual([4]); // alice's 3 oldest went
    expect(await seqs('a2')).toEqual([1, 2, 3, 4]);
    expect(await seqs('b1')).toEqual([1, 2, 3]); // bob is not pushed out by alice
    expect(await seqs('anon')).toHaveLength(10); // unidentified: only maxLength applies
    expect(await c.llen('own:sse-owner:alice')).toBe(5);
    expect(await c.pttl('own:sse-owner:alice')).toBeGreaterThan(0);
  });

  it('reconnects after Redis restarts; what Redis held is gone, new work goes through', async () => {
    const c = await client();
    const bus = await createRedisEventBus(c, { channel: 'restart' });
    closers.push(bus.close);
    const seen: ServerEvent[] = [];
    bus.subscribe((e) => seen.push(e));
    await c.set('before', '1');
    await redis.restart();
    expect(await c.get('before')).toBeNull();
    await until(async () => {
      await bus.publish({ type: 'promptsListChanged' });
      return seen.length > 0;
    }, 10_000);
    expect(seen[0]).toEqual({ type: 'promptsListChanged' });
  });

  it('keeps legacy sessions with a TTL that each load starts again; they expire unused', async () => {
    const c = await client();
    const store = createRedisSessionStore(c, { prefix: 'sess:', ttlMs: 400 });
    closers.push(store.close);
    await store.create(session('s1'));
    await store.create(session('s2'));
    expect(await c.pttl('sess:session:s1')).toBeGreaterThan(0);
    const started = Date.now();
    await until(async () => (await c.exists('sess:session:s2')) === 0, 5000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(await store.load('s2')).toBeUndefined();
    expect(await store.load('s1')).toBeUndefined();
    await store.create(session('s3'));
    for (let i = 0; i < 4; i++) {
      await until(async () => (await c.pttl('sess:session:s3')) < 250);
      expect(await store.load('s3')).toMatchObject({ id: 's3' });
    }
  });

  it('stores session changes and tells every instance; delete ends the session once', async () => {
    const one = createRedisSessionStore(await client(), { prefix: 'chg:' });
    const two = createRedisSessionStore(await client(), { prefix: 'chg:' });
    closers.push(one.close, two.close);
    await one.create(session('s'));
    const heard: SessionMessage[] = [];
    const leave = await two.subscribe('s', (m) => heard.push(m));
    await one.change('s', { logLevel: 'error' });
    await one.change('s', { subscribe: 'test://a' });
    await one.change('s', { subscribe: 'test://b' });
    await one.change('s', { unsubscribe: 'test://a' });
    await one.change('s', { initialized: true });
    expect(await two.load('s')).toEqual({
      ...session('s'),
      logLevel: 'error',
      initialized: true,
      subscriptions: ['test://b'],
    });
    await one.publish('s', { type: 'takeover', by: 'x' });
    expect(await one.delete('s')).toBe(true);
    expect(await one.delete('s')).toBe(false);
    await one.change('s', { logLevel: 'debug' });
    expect(await two.load('s')).toBeUndefined();
    await until(() => heard.length === 7);
    expect(heard.map((m) => m.type)).toEqual([...Array(5).fill('changed'), 'takeover', 'ended']);
    leave();
  });

  it('refuses a session or a message over its size bound, naming the limit', async () => {
    const store = createRedisSessionStore(await client(), {
      prefix: 'big:',
      maxRecordBytes: 1024,
      maxMessageBytes: 2048,
    });
    closers.push(store.close);
    const big = { ...session('b'), clientInfo: { name: 'x'.repeat(2000), version: '1' } };
    await expect(store.create(big)).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: expect.stringMatching(/exceeds 1024 bytes/),
    });
    const message = { jsonrpc: '2.0' as const, method: 'm', params: { x: 'y'.repeat(3000) } };
    await expect(store.publish('b', { type: 'send', message })).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
    });
  });
});

function session(id: string): SessionRecord {
  return {
    id,
    owner: '',
    protocolVersion: '2025-11-25',
    clientInfo: { name: 'c', version: '1' },
    clientCapabilities: { elicitation: {} },
    logLevel: 'debug',
    initialized: false,
    subscriptions: [],
    standaloneStreamId: `${id}-get`,
  };
}
