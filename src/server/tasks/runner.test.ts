import { describe, expect, it } from 'vitest';
import { runtimeOf } from '../runtime.js';
import type { Params } from '../../core/jsonrpc.js';
import { createMemoryTaskStore } from '../../core/task-store.js';
import type { TaskState, TaskStore } from '../../core/tasks.js';
import { deferred, until } from '../../../test/support/wait.js';
import { createServer } from '../index.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

/** A shared-looking store (it tracks leases) whose calls for the ids in `hang` never settle, or reject for those in `fail`. */
function faultyStore(): { store: TaskStore; hang: Set<string>; fail: Set<string>; inner: TaskStore } {
  const inner = createMemoryTaskStore();
  const hang = new Set<string>();
  const fail = new Set<string>();
  const store: TaskStore = {
    create: (task) => inner.create(task),
    get: (id) => inner.get(id),
    update: (id, change) => {
      if (hang.has(id)) return new Promise<never>(() => undefined);
      if (fail.has(id)) return Promise.reject(new Error('store down for this key'));
      return inner.update(id, change);
    },
    signal: (signal) => inner.signal(signal),
    subscribe: (listener) => inner.subscribe(listener),
    expiredLeases: async () => [],
  };
  return { store, hang, fail, inner };
}

async function leaseOf(store: TaskStore, id: string): Promise<number> {
  const task = (await store.get(id)) as TaskState;
  return task.internal.leaseUntil ?? 0;
}

describe('task leases (hostile: a store call that hangs or fails for one task)', () => {
  it.each(['hang', 'fail'] as const)(
    'keeps renewing the other tasks’ leases when the store calls for one task %s',
    async (fault) => {
      const { store, hang, fail, inner } = faultyStore();
      const done = deferred();
      const server = createServer({ name: 't', version: '1', tasks: { store, leaseMs: 150 } });
      server.tool('work', { task: 'required' }, async () => {
        await done.promise;
        return 'done';
      });
      const start = async (): Promise<string> => {
        const created = await runtimeOf(server).handle(
          {
            jsonrpc: '2.0',
            id: crypto.randomUUID(),
            method: 'tools/call',
            params: { name: 'work', _meta: META },
          },
          { signal: new AbortController().signal, notify: () => undefined, era: 'modern' },
        );
        return String((created as Params).taskId);
      };
      const bad = await start();
      const good = await start();
      (fault === 'hang' ? hang : fail).add(bad);
      const badLease = await leaseOf(inner, bad);
      const before = await leaseOf(inner, good);
      await until(async () => (await leaseOf(inner, good)) > before);
      const renewed = await leaseOf(inner, good);
      await until(async () => (await leaseOf(inner, good)) > renewed);
      expect(await leaseOf(inner, bad)).toBe(badLease); // its store calls never went through
      done.resolve();
      server.stopTasks();
    },
  );

  it('stops a task here once its lease ended without the store confirming a renewal', async () => {
    const { store, hang } = faultyStore();
    const stopped = deferred<string>();
    const server = createServer({ name: 't', version: '1', tasks: { store, leaseMs: 150 } });
    server.tool('work', { task: 'required' }, async (_args, ctx) => {
      ctx.signal.addEventListener('abort', () =>
        stopped.resolve(String((ctx.signal.reason as Error)?.message)),
      );
      await stopped.promise;
      return 'stopped';
    });
    const created = await runtimeOf(server).handle(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'work', _meta: META } },
      { signal: new AbortController().signal, notify: () => undefined, era: 'modern' },
    );
    hang.add(String((created as Params).taskId));
    expect(await stopped.promise).toMatch(/lease lost/);
    server.stopTasks();
  });

  it('asks the store for expired leases again only once its last answer came (a hung listing does not pile up)', async () => {
    const { store, inner } = faultyStore();
    let listings = 0;
    store.expiredLeases = () => {
      listings += 1;
      return new Promise<never>(() => undefined);
    };
    const done = deferred();
    const server = createServer({ name: 't', version: '1', tasks: { store, leaseMs: 150 } });
    server.tool('work', { task: 'required' }, async () => {
      await done.promise;
      return 'done';
    });
    const created = await runtimeOf(server).handle(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'work', _meta: META } },
      { signal: new AbortController().signal, notify: () => undefined, era: 'modern' },
    );
    const id = String((created as Params).taskId);
    // Four renewals (every 50 ms) span at least two sweep periods (every 75 ms).
    for (let i = 0; i < 4; i++) {
      const lease = await leaseOf(inner, id);
      await until(async () => (await leaseOf(inner, id)) > lease);
    }
    expect(listings).toBe(1);
    done.resolve();
    server.stopTasks();
  });
});
