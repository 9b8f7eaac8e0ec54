/**
 * User state in Durable Objects, with an in-process stand-in for the platform (one object
 * per name, its storage a Map, one event at a time as input gates make it): the store keeps
 * scopes apart, checks bounds, expires entries by alarm, and serves `ctx.userState` the same
 * on both eras of a Worker's HTTP endpoint with real ES256 tokens.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpHandler } from '../../server/http/index.js';
import { startRealm, type TokenRealm } from '../../../test/support/token-realm.js';
import { callTool, notesServer, openLegacy } from '../../../test/support/user-state.js';
import { createDurableUserStateStore, userStateObject } from './index.js';
import type { DurableObjectNamespace, DurableObjectStorage } from './types.js';

interface Fake {
  namespace: DurableObjectNamespace;
  /** Runs every alarm that is due. */
  alarms(): Promise<void>;
  /** Names of the objects that hold anything. */
  holding(): string[];
}

function fakeNamespace(): Fake {
  const Class = userStateObject();
  const objects = new Map<
    string,
    {
      object: InstanceType<typeof Class>;
      data: Map<string, unknown>;
      alarm?: number | undefined;
      queue: Promise<unknown>;
    }
  >();
  const objectOf = (name: string) => {
    let held = objects.get(name);
    if (held) return held;
    const data = new Map<string, unknown>();
    const storage: DurableObjectStorage = {
      get: async (key) => structuredClone(data.get(key)) as never,
      put: async (key, value) => void data.set(key, structuredClone(value)),
      delete: async (key) => data.delete(key),
      deleteAll: async () => data.clear(),
      setAlarm: async (at) => void (held!.alarm = at),
    };
    const id = { toString: () => name };
    const object = new Class({ id, storage, blockConcurrencyWhile: (f) => f() }, {});
    held = { object, data, queue: Promise.resolve() };
    objects.set(name, held);
    return held;
  };
  const serially = <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const held = objectOf(name);
    const next = held.queue.then(run, run);
    held.queue = next.catch(() => undefined);
    return next;
  };
  return {
    namespace: {
      newUniqueId: () => ({ toString: () => crypto.randomUUID() }),
      idFromName: (name) => ({ toString: () => name }),
      idFromString: (name) => ({ toString: () => name }),
      get: (id) => ({
        fetch: (request) => serially(id.toString(), () => objectOf(id.toString()).object.fetch(request)),
      }),
    },
    async alarms() {
      for (const [name, held] of objects)
        if (held.alarm !== undefined && held.alarm <= Date.now()) {
          held.alarm = undefined;
          await serially(name, () => held.object.alarm());
        }
    },
    holding: () => [...objects].filter(([, held]) => held.data.size > 0).map(([name]) => name),
  };
}

const write = { text: '1', bytes: 2, ttlMs: 1000, maxKeys: 2, maxBytes: 100 };
afterEach(() => vi.useRealTimers());

describe('the Durable Object user state store', () => {
  it('keeps scopes apart, refuses a write past the bound and changes nothing', async () => {
    const store = createDurableUserStateStore(fakeNamespace().namespace);
    await store.set({ ...write, scope: 'alice', key: 'a', text: '"alice"' });
    await store.set({ ...write, scope: 'bob', key: 'a', text: '"bob"' });
    await store.set({ ...write, scope: 'alice', key: '__proto__' });
    expect(await store.set({ ...write, scope: 'alice', key: 'c' })).toBe('maxKeysPerPrincipal');
    expect(await store.get('alice', 'c')).toBeUndefined();
    expect(await store.set({ ...write, scope: 'alice', key: 'a', bytes: 200 })).toBe('maxBytesPerPrincipal');
    expect([await store.get('alice', 'a'), await store.get('bob', 'a')]).toEqual(['"alice"', '"bob"']);
    expect(await store.get('alice', 'constructor')).toBeUndefined();
    expect(await store.delete('bob', 'a')).toBe(true);
    expect(await store.get('alice', 'a')).toBe('"alice"');
  });

  it('applies concurrent writes of one scope one at a time: never past the bound', async () => {
    const store = createDurableUserStateStore(fakeNamespace().namespace);
    const outcomes = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((key) => store.set({ ...write, scope: 'alice', key })),
    );
    expect(outcomes.filter((outcome) => outcome === undefined)).toHaveLength(2);
  });

  it("expires entries with their TTL, and the object's alarm empties it once none is left", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const fake = fakeNamespace();
    const store = createDurableUserStateStore(fake.namespace);
    await store.set({ ...write, scope: 'alice', key: 'brief', ttlMs: 100 });
    await store.set({ ...write, scope: 'alice', key: 'long', ttlMs: 500 });
    vi.advanceTimersByTime(100);
    await fake.alarms();
    expect(await store.get('alice', 'brief')).toBeUndefined();
    expect(await store.get('alice', 'long')).toBe('1');
    vi.advanceTimersByTime(400);
    await fake.alarms();
    expect(fake.holding()).toEqual([]);
  });
});

describe('ctx.userState of a Worker, in Durable Objects', () => {
  const RESOURCE = 'http://127.0.0.1:9/mcp';
  let realm: TokenRealm;
  beforeAll(async () => void (realm = await startRealm()));
  afterAll(() => realm?.close());

  it('reads on a legacy session what the principal kept on a modern request, another principal nothing', async () => {
    const store = createDurableUserStateStore(fakeNamespace().namespace);
    const handler = createHttpHandler(notesServer({ userState: { store } }), { auth: realm.guard(RESOURCE) });
    const [alice, bob] = await Promise.all(['alice', 'bob'].map((sub) => realm.token(RESOURCE, { sub })));
    await callTool(
      RESOURCE,
      { token: alice, via: handler },
      { name: 'note_set', args: { key: 'k', value: [1] } },
    );
    const session = await openLegacy(RESOURCE, alice, handler);
    const read = (token: string | undefined, legacy?: string) =>
      callTool(RESOURCE, { token, via: handler, session: legacy }, { name: 'note_get', args: { key: 'k' } });
    expect((await read(alice, session)).text).toBe('[1]');
    expect((await read(bob)).text).toBe('null');
    handler.close();
  });
});
