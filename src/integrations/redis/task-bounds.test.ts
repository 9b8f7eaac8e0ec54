/**
 * The Redis task store bounds stored tasks per principal across a fleet (issue 35 §1): bob,
 * creating tasks on two instances at once, is refused with -32600 TooManyRequests once he
 * holds his share of unexpired tasks, and alice's completed, unread result is still there.
 * Real redis-server (bench/harness/redis.ts).
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Params } from '../../core/index.js';
import { createServer, type McpServer } from '../../server/index.js';
import { runtimeOf } from '../../server/runtime.js';
import { startRedis, type TestRedis } from '../../../bench/harness/redis.js';
import { connectRedis, createRedisTaskStore, type RedisTaskStore } from './index.js';

let redis: TestRedis;
const connections: Redis[] = [];
const stores: RedisTaskStore[] = [];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  for (const store of stores) await store.close();
  for (const c of connections) c.disconnect();
  await redis?.stop();
});

async function instance(prefix: string, ttlMs = 3_600_000): Promise<McpServer> {
  const connection = await connectRedis(redis.url);
  connections.push(connection);
  const store = await createRedisTaskStore(connection, { prefix, maxStoredTasksPerPrincipal: 4 });
  stores.push(store);
  const server = createServer({ name: 't', version: '1', tasks: { store, ttlMs } });
  server.tool('quick', { task: 'optional' }, () => 'done');
  return server;
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};
let nextId = 1;
function as(server: McpServer, subject: string) {
  return (method: string, params: Params): Promise<Params> =>
    runtimeOf(server).handle(
      { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: META } },
      { signal: new AbortController().signal, notify: () => undefined, era: 'modern', authInfo: { subject } },
    );
}

async function completed(call: ReturnType<typeof as>, taskId: unknown): Promise<Params> {
  let task: Params = {};
  await vi.waitFor(
    async () => {
      task = await call('tasks/get', { taskId });
      expect(task.status).toBe('completed');
    },
    { timeout: 5000, interval: 10 },
  );
  return task;
}

const refusal = { code: -32600, data: { limit: 'maxStoredTasksPerPrincipal', max: 4 } };

describe('stored tasks per principal (Redis store, two instances)', () => {
  it("refuses bob's tasks beyond his share on every instance while alice's unread result survives", async () => {
    const [one, two] = [await instance('bounds1:'), await instance('bounds1:')];
    const alice = as(one, 'alice');
    const first = await alice('tools/call', { name: 'quick' });
    await completed(as(two, 'alice'), first.taskId);
    const bobs = [as(one, 'bob'), as(two, 'bob')];
    const [made, alices] = await Promise.all([
      Promise.allSettled(Array.from({ length: 10 }, (_, i) => bobs[i % 2]!('tools/call', { name: 'quick' }))),
      Promise.allSettled([1, 2, 3].map(() => as(two, 'alice')('tools/call', { name: 'quick' }))),
    ]);
    expect(made.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
    expect(made.filter((r) => r.status === 'rejected')[0]).toMatchObject({ reason: refusal });
    expect(alices.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(await completed(alice, first.taskId)).toMatchObject({ result: { content: [{ text: 'done' }] } });
    await expect(alice('tools/call', { name: 'quick' })).rejects.toMatchObject(refusal);
  });

  it('gives room again once a task passed its ttlMs, and the index expires with its tasks', async () => {
    const server = await instance('bounds2:', 300);
    const bob = as(server, 'bob');
    const made = await Promise.all([1, 2, 3, 4].map(() => bob('tools/call', { name: 'quick' })));
    await expect(bob('tools/call', { name: 'quick' })).rejects.toMatchObject(refusal);
    const probe = connections[0]!;
    const [holder, ...others] = await probe.keys('bounds2:task-holder:*');
    expect(others).toEqual([]); // bob's index alone, named after his principal key
    expect(holder).toMatch(/bob$/);
    expect(await probe.pttl(holder!)).toBeGreaterThan(0);
    await vi.waitFor(
      async () => expect(await bob('tools/call', { name: 'quick' })).toMatchObject({ resultType: 'task' }),
      { timeout: 5000, interval: 50 },
    );
    await expect(bob('tasks/get', { taskId: made[0]!.taskId })).rejects.toMatchObject({ code: -32602 });
  });
});
