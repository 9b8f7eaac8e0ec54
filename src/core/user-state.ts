/**
 * User state: a small key-value store a server keeps per caller, so that data which a
 * legacy server kept on its session (a preference, a cursor, a draft) outlives the request
 * on the modern era, which has no session. {@link UserStateStore} is the backend interface
 * (in-memory here; Redis and Durable Objects at the edge); the server's `ctx.userState` is
 * what handlers use. Each entry belongs to one scope (a principal of one server, or an
 * anonymous legacy session or connection) and expires after its own TTL. A store keeps
 * each scope's bounds itself, atomically, so two instances of a fleet cannot both let a
 * scope past them; an entry is never evicted to make room: a write beyond a bound is refused.
 * Source: 2026-07-28 client/elicitation "Statefulness" (state bound to the user, derived
 * from the credentials); server/tools "Stateful Tools" (no protocol-level session).
 */
import { WireError } from './errors.js';

/** One write to a {@link UserStateStore}. */
export interface UserStateWrite {
  /** The scope the entry belongs to: opaque to the store, compared as a whole. */
  scope: string;
  key: string;
  /** The value as JSON text. */
  text: string;
  /** What the entry counts against its scope's byte bound: UTF-8 bytes of the key and `text`. */
  bytes: number;
  /** Milliseconds the entry lives from this write (a positive integer). */
  ttlMs: number;
  /** Most unexpired keys the scope may hold, this one included. */
  maxKeys: number;
  /** Most bytes (see `bytes`) the scope's unexpired entries may hold together, this one included. */
  maxBytes: number;
}

/**
 * Which bound refused a write: the scope's `maxKeys` (`'maxKeysPerPrincipal'`) or `maxBytes`
 * (`'maxBytesPerPrincipal'`), or the store's own total (`'maxTotalBytes'`).
 */
export type UserStateRefusal = 'maxKeysPerPrincipal' | 'maxBytesPerPrincipal' | 'maxTotalBytes';

/**
 * Where user state lives. Implementations must keep a scope's entries apart from every
 * other scope's (no key of one scope can name an entry of another), treat an expired entry
 * as absent, and apply a write's bounds atomically with the write.
 */
export interface UserStateStore {
  /** The JSON text stored under `key` in `scope`, or undefined (never set, deleted or expired). */
  get(scope: string, key: string): Promise<string | undefined>;
  /**
   * Stores the entry (replacing the key's earlier value and TTL) unless that takes its scope
   * past `maxKeys` or `maxBytes`, or the store past its own total; then it changes nothing
   * and resolves with the bound that refused it.
   */
  set(write: UserStateWrite): Promise<UserStateRefusal | undefined>;
  /** Removes the entry; true when there was an unexpired one. */
  delete(scope: string, key: string): Promise<boolean>;
}

/** Options of {@link createMemoryUserStateStore}. */
export interface MemoryUserStateStoreOptions {
  /**
   * Most bytes (keys and JSON texts, UTF-8) of unexpired entries kept at once, all scopes
   * together (default 64 MiB). A write beyond it is refused (-32603 `ServiceUnavailable`,
   * HTTP 503, from `ctx.userState.set`); no entry is evicted.
   */
  maxTotalBytes?: number;
}

interface Entry {
  text: string;
  bytes: number;
  expiresAt: number;
}

interface Held {
  entries: Map<string, Entry>;
  bytes: number;
}

/**
 * Creates the in-memory store: this process only, so a fleet needs a shared one (Redis,
 * Durable Objects). Expired entries are dropped when read, and swept when a bound is reached.
 * @throws RangeError when `maxTotalBytes` is not positive.
 */
export function createMemoryUserStateStore(options: MemoryUserStateStoreOptions = {}): UserStateStore {
  const maxTotal = options.maxTotalBytes ?? 64 * 1024 * 1024;
  if (!(maxTotal > 0)) throw new RangeError('createMemoryUserStateStore: maxTotalBytes must be positive');
  const scopes = new Map<string, Held>();
  let total = 0;
  const drop = (scope: string, held: Held, key: string): void => {
    const entry = held.entries.get(key);
    if (!entry) return;
    held.entries.delete(key);
    held.bytes -= entry.bytes;
    total -= entry.bytes;
    if (held.entries.size === 0) scopes.delete(scope);
  };
  const sweep = (scope: string, held: Held, now: number): void => {
    for (const [key, entry] of held.entries) if (entry.expiresAt <= now) drop(scope, held, key);
  };
  const live = (scope: string, key: string): Entry | undefined => {
    const held = scopes.get(scope);
    const entry = held?.entries.get(key);
    if (held && entry && entry.expiresAt <= Date.now()) drop(scope, held, key);
    return held?.entries.get(key);
  };
  const over = (write: UserStateWrite, held: Held): UserStateRefusal | undefined => {
    const kept = held.entries.get(write.key)?.bytes;
    if (held.entries.size + (kept === undefined ? 1 : 0) > write.maxKeys) return 'maxKeysPerPrincipal';
    if (held.bytes - (kept ?? 0) + write.bytes > write.maxBytes) return 'maxBytesPerPrincipal';
    return total - (kept ?? 0) + write.bytes > maxTotal ? 'maxTotalBytes' : undefined;
  };
  // Expired entries are swept only when a bound would refuse the write: first the scope's, then all.
  const refusal = (write: UserStateWrite, held: Held, now: number): UserStateRefusal | undefined => {
    if (over(write, held) === undefined) return undefined;
    sweep(write.scope, held, now);
    if (over(write, held) !== 'maxTotalBytes') return over(write, held);
    for (const [scope, each] of scopes) sweep(scope, each, now);
    return over(write, held);
  };
  return {
    async get(scope, key) {
      return live(scope, key)?.text;
    },
    async set(write) {
      const now = Date.now();
      const held = scopes.get(write.scope) ?? { entries: new Map<string, Entry>(), bytes: 0 };
      const refused = refusal(write, held, now);
      if (refused) return refused;
      drop(write.scope, held, write.key);
      held.entries.set(write.key, { text: write.text, bytes: write.bytes, expiresAt: now + write.ttlMs });
      held.bytes += write.bytes;
      total += write.bytes;
      scopes.set(write.scope, held);
      return undefined;
    },
    async delete(scope, key) {
      const held = scopes.get(scope);
      if (!held || !live(scope, key)) return false;
      drop(scope, held, key);
      return true;
    },
  };
}

/**
 * The error a refused write throws from `ctx.userState.set`: -32600 `TooManyRequests`
 * (HTTP 429) for the caller's own bounds, -32603 `ServiceUnavailable` (HTTP 503) for the
 * store's total; `data: { limit, max }` names the bound (`max` only when known).
 */
export function userStateRefusal(limit: UserStateRefusal, max?: number): WireError {
  const data = max === undefined ? { limit } : { limit, max };
  if (limit === 'maxTotalBytes')
    return WireError.of('ServiceUnavailable', 'Service Unavailable: the user state store is full', data);
  const what = limit === 'maxKeysPerPrincipal' ? `${max} keys` : `${max} bytes`;
  return WireError.of(
    'TooManyRequests',
    `Too Many Requests: user state holds at most ${what} per caller`,
    data,
  );
}
