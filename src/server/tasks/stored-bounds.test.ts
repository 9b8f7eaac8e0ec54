/**
 * One principal's tasks never evict another's unexpired results (issue 35 §1): bob creating
 * tasks as fast as he can gets -32600 TooManyRequests once he holds his share of stored tasks
 * (running and finished), and alice's completed, unread task still answers tasks/get.
 * A task is discarded only after its ttlMs. Memory store here; Redis in
 * src/integrations/redis/task-bounds.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runtimeOf } from '../runtime.js';
import { createMemoryTaskStore } from '../../core/task-store.js';
import type { Params } from '../../core/jsonrpc.js';
import type { TaskStore } from '../../core/tasks.js';
import { createServer, type McpServer } from '../index.js';

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

function build(store?: TaskStore): McpServer {
  const server = createServer({
    name: 't',
    version: '1',
    tasks: { ttlMs: 3_600_000, ...(store ? { store } : {}) },
  });
  server.tool('quick', { task: 'optional' }, () => 'done');
  return server;
}

async function completed(call: ReturnType<typeof as>, taskId: unknown): Promise<Params> {
  let task: Params = {};
  await vi.waitFor(
    async () => {
      task = await call('tasks/get', { taskId });
      expect(task.status).toBe('completed');
    },
    { timeout: 5000, interval: 5 },
  );
  return task;
}

const refusal = { code: -32600, data: { limit: 'maxStoredTasksPerPrincipal' } };

afterEach(() => vi.useRealTimers());

describe('stored tasks per principal (memory store)', () => {
  it("refuses bob's tasks beyond his share while alice's unread result survives, both creating at once", async () => {
    const server = build(createMemoryTaskStore({ maxTasks: 20, maxStoredTasksPerPrincipal: 5 }));
    const alice = as(server, 'alice');
    const bob = as(server, 'bob');
    const first = await alice('tools/call', { name: 'quick' });
    await completed(alice, first.taskId);
    const [bobs, alices] = await Promise.all([
      Promise.allSettled(Array.from({ length: 12 }, () => bob('tools/call', { name: 'quick' }))),
      Promise.allSettled(Array.from({ length: 4 }, () => alice('tools/call', { name: 'quick' }))),
    ]);
    expect(bobs.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const refused = bobs.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ ...refusal, data: { ...refusal.data, max: 5 } });
    expect(alices.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(await completed(alice, first.taskId)).toMatchObject({ result: { content: [{ text: 'done' }] } });
    await expect(alice('tools/call', { name: 'quick' })).rejects.toMatchObject(refusal);
  });

  it('refuses a new task when the store is full of unexpired ones instead of evicting a result', async () => {
    const server = build(createMemoryTaskStore({ maxTasks: 6, maxStoredTasksPerPrincipal: 3 }));
    const alice = as(server, 'alice');
    const mine = await alice('tools/call', { name: 'quick' });
    await completed(alice, mine.taskId);
    for (const who of ['bob', 'carol']) {
      const call = as(server, who);
      await Promise.all([1, 2, 3].map(() => call('tools/call', { name: 'quick' }).catch(() => undefined)));
    }
    await expect(as(server, 'dave')('tools/call', { name: 'quick' })).rejects.toMatchObject({
      code: -32603,
      data: { limit: 'maxTasks', max: 6 },
    });
    expect((await completed(alice, mine.taskId)).taskId).toBe(mine.taskId);
  });

  it('gives a principal room again only once one of its tasks passed its ttlMs', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const server = build(createMemoryTaskStore({ maxStoredTasksPerPrincipal: 2 }));
    const bob = as(server, 'bob');
    const a = await bob('tools/call', { name: 'quick' });
    await bob('tools/call', { name: 'quick' });
    await expect(bob('tools/call', { name: 'quick' })).rejects.toMatchObject(refusal);
    await completed(bob, a.taskId);
    vi.setSystemTime(Date.now() + 3_600_001);
    await expect(bob('tools/call', { name: 'quick' })).resolves.toMatchObject({ resultType: 'task' });
    await expect(bob('tasks/get', { taskId: a.taskId })).rejects.toMatchObject({ code: -32602 });
  });

  it('keeps the default store at a tenth of its 10 000 tasks per principal', async () => {
    const server = build();
    const alice = as(server, 'alice');
    const bob = as(server, 'bob');
    const mine = await alice('tools/call', { name: 'quick' });
    for (let batch = 0; batch < 10; batch++)
      await Promise.all(Array.from({ length: 100 }, () => bob('tools/call', { name: 'quick' })));
    await expect(bob('tools/call', { name: 'quick' })).rejects.toMatchObject({
      ...refusal,
      data: { ...refusal.data, max: 1000 },
    });
    expect((await completed(alice, mine.taskId)).status).toBe('completed');
  });
});
