/**
 * The façade's Durable Object store, with the object class run in process over an in-memory
 * storage (one event at a time per object, as the platform delivers them): values expire,
 * a take is single, counters count within their window. The façade's own flows over any
 * store are in src/auth/facade; this checks the object protocol.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDurableFacadeStore, facadeObject } from './index.js';
import type { DurableObjectNamespace, DurableObjectState } from './types.js';

/** A namespace whose objects live in this process; each object handles one request at a time. */
function fakeNamespace(): DurableObjectNamespace {
  const Object_ = facadeObject();
  const objects = new Map<string, { fetch(r: Request): Promise<Response> }>();
  const queue = new Map<string, Promise<unknown>>();
  const objectFor = (name: string) => {
    let object = objects.get(name);
    if (!object) {
      const data = new Map<string, unknown>();
      const state = {
        id: { toString: () => name },
        storage: {
          get: async (k: string) => data.get(k),
          put: async (k: string, v: unknown) => void data.set(k, v),
          delete: async (k: string) => data.delete(k),
          deleteAll: async () => data.clear(),
          setAlarm: async () => undefined,
        },
        blockConcurrencyWhile: <T>(f: () => Promise<T>) => f(),
      } as unknown as DurableObjectState;
      objects.set(name, (object = new Object_(state, {})));
    }
    return object;
  };
  return {
    newUniqueId: () => ({ toString: () => crypto.randomUUID() }),
    idFromName: (name) => ({ toString: () => name }),
    idFromString: (id) => ({ toString: () => id }),
    get: (id) => ({
      fetch: (request) => {
        const name = id.toString();
        const run = (queue.get(name) ?? Promise.resolve()).then(() => objectFor(name).fetch(request));
        queue.set(
          name,
          run.catch(() => undefined),
        );
        return run;
      },
    }),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the façade store in Durable Objects', () => {
  it('keeps a value until its expiry', async () => {
    const store = createDurableFacadeStore(fakeNamespace());
    await store.set('a', 'one', 1000);
    expect(await store.get('a')).toBe('one');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 1001);
    expect(await store.get('a')).toBeUndefined();
  });

  it('gives a value taken by two callers at once to one of them', async () => {
    const store = createDurableFacadeStore(fakeNamespace());
    await store.set('code', 'grant', 60_000);
    const taken = await Promise.all([store.take('code'), store.take('code')]);
    expect(taken.filter(Boolean)).toEqual(['grant']);
  });

  it('counts increments within the window, then starts again', async () => {
    const store = createDurableFacadeStore(fakeNamespace());
    const counts = await Promise.all([1, 2, 3].map(() => store.increment('n', 1000)));
    expect(counts.sort()).toEqual([1, 2, 3]);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 1001);
    expect(await store.increment('n', 1000)).toBe(1);
  });
});
