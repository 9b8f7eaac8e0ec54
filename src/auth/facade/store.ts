/**
 * Where the authorization server façade keeps what outlives one request: registrations,
 * authorizations in flight, codes, grants (with the upstream tokens, encrypted) and refresh
 * tokens. A small key-value interface with expiries, an atomic take for what is spent once
 * (codes, refresh tokens) and counters for the bounds; in memory by default, Redis for a
 * fleet (`mcpkit/redis` `createRedisFacadeStore`), a Durable Object on Workers.
 * Source: 2026-07-28 basic/authorization/security-considerations (codes single-use).
 */

/**
 * The façade's storage. Keys are short ASCII strings; values are strings (JSON); every entry
 * has an expiry in milliseconds. Implementations must make {@link FacadeStore.take} atomic
 * (two instances taking one key: one gets the value, the other `undefined`).
 */
export interface FacadeStore {
  /** The value under `key`, or undefined when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key` for `ttlMs` milliseconds, replacing any value. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Removes and returns the value under `key`, atomically; undefined when absent. */
  take(key: string): Promise<string | undefined>;
  /** Removes `key` (nothing when absent). */
  delete(key: string): Promise<void>;
  /**
   * Adds one to the counter `key` and returns its new value; a new counter expires after
   * `ttlMs` milliseconds (the window the bound counts over).
   */
  increment(key: string, ttlMs: number): Promise<number>;
}

/** Options of {@link memoryFacadeStore}. */
export interface MemoryFacadeStoreOptions {
  /** Most entries held (default 100 000); beyond it the oldest entries are dropped. */
  maxEntries?: number;
}

/**
 * The in-memory {@link FacadeStore}: one process only (a fleet needs a shared store), with
 * lazy expiry and an overall bound on entries.
 */
export function memoryFacadeStore(options: MemoryFacadeStoreOptions = {}): FacadeStore {
  const max = options.maxEntries ?? 100_000;
  const entries = new Map<string, { value: string; until: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.until <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const put = (key: string, value: string, ttlMs: number) => {
    entries.delete(key);
    while (entries.size >= max) entries.delete(entries.keys().next().value!);
    entries.set(key, { value, until: Date.now() + ttlMs });
  };
  return {
    get: async (key) => live(key)?.value,
    set: async (key, value, ttlMs) => put(key, value, ttlMs),
    take: async (key) => {
      const entry = live(key);
      entries.delete(key);
      return entry?.value;
    },
    delete: async (key) => void entries.delete(key),
    increment: async (key, ttlMs) => {
      const entry = live(key);
      const next = Number(entry?.value ?? 0) + 1;
      if (entry) entry.value = String(next);
      else put(key, String(next), ttlMs);
      return next;
    },
  };
}
