import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryUserStateStore, userStateRefusal, type UserStateWrite } from './user-state.js';

const write = (over: Partial<UserStateWrite>): UserStateWrite => ({
  scope: 'alice',
  key: 'k',
  text: '1',
  bytes: 2,
  ttlMs: 1000,
  maxKeys: 10,
  maxBytes: 100,
  ...over,
});

afterEach(() => vi.useRealTimers());

describe('the in-memory user state store', () => {
  it('keeps each scope apart: the same key in two scopes holds two values', async () => {
    const store = createMemoryUserStateStore();
    await store.set(write({ scope: 'alice', text: '"a"' }));
    await store.set(write({ scope: 'bob', text: '"b"' }));
    expect(await store.get('alice', 'k')).toBe('"a"');
    expect(await store.get('bob', 'k')).toBe('"b"');
    expect(await store.delete('bob', 'k')).toBe(true);
    expect(await store.get('alice', 'k')).toBe('"a"');
    expect(await store.delete('bob', 'k')).toBe(false);
  });

  it('forgets an entry once its own TTL has passed, and a later set renews it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const store = createMemoryUserStateStore();
    await store.set(write({ key: 'short', ttlMs: 100 }));
    await store.set(write({ key: 'long', ttlMs: 10_000 }));
    vi.advanceTimersByTime(100);
    expect(await store.get('alice', 'short')).toBeUndefined();
    expect(await store.get('alice', 'long')).toBe('1');
    expect(await store.delete('alice', 'short')).toBe(false);
  });

  it("refuses a write past the scope's keys or bytes and changes nothing, other scopes unaffected", async () => {
    const store = createMemoryUserStateStore();
    await store.set(write({ key: 'a', maxKeys: 2 }));
    await store.set(write({ key: 'b', maxKeys: 2 }));
    expect(await store.set(write({ key: 'c', maxKeys: 2 }))).toBe('maxKeysPerPrincipal');
    expect(await store.get('alice', 'c')).toBeUndefined();
    // Replacing a held key is not one more key.
    expect(await store.set(write({ key: 'a', text: '2', maxKeys: 2 }))).toBeUndefined();
    expect(await store.set(write({ key: 'b', bytes: 200 }))).toBe('maxBytesPerPrincipal');
    expect(await store.get('alice', 'b')).toBe('1');
    expect(await store.set(write({ scope: 'bob', key: 'c', maxKeys: 2 }))).toBeUndefined();
  });

  it('counts expired entries as gone when a bound is reached', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const store = createMemoryUserStateStore({ maxTotalBytes: 4 });
    await store.set(write({ scope: 'bob', key: 'x', ttlMs: 10 }));
    await store.set(write({ key: 'a', maxKeys: 1, ttlMs: 10 }));
    expect(await store.set(write({ scope: 'carol', key: 'y' }))).toBe('maxTotalBytes');
    vi.advanceTimersByTime(10);
    expect(await store.set(write({ key: 'b', maxKeys: 1 }))).toBeUndefined();
    expect(await store.set(write({ scope: 'carol', key: 'y' }))).toBeUndefined();
  });

  it('names the bound in the refusal: 429 for the caller, 503 for the store', () => {
    const mine = userStateRefusal('maxKeysPerPrincipal', 3);
    expect([mine.code, mine.httpStatus, mine.data]).toEqual([
      -32600,
      429,
      { limit: 'maxKeysPerPrincipal', max: 3 },
    ]);
    const full = userStateRefusal('maxTotalBytes');
    expect([full.code, full.httpStatus, full.data]).toEqual([-32603, 503, { limit: 'maxTotalBytes' }]);
  });

  it('refuses a non-positive total', () => {
    expect(() => createMemoryUserStateStore({ maxTotalBytes: 0 })).toThrow(RangeError);
  });
});
