/**
 * The authorization server façade's store on Redis, for a fleet: a flow started on one
 * instance (registration, consent, upstream redirect) finishes on another (callback, token,
 * refresh). Every key expires (PX); codes and refresh tokens are taken with GETDEL, so one
 * of two instances racing for the same code wins; counters start their window on first use.
 * Needs Redis 6.2 or newer (GETDEL).
 */
import type { Redis } from 'ioredis';
import type { FacadeStore } from '../../auth/index.js';

/** Options of {@link createRedisFacadeStore}. */
export interface RedisFacadeStoreOptions {
  /** Prefix of every key (default `mcpkit:facade:`); instances of one façade share it. */
  prefix?: string;
}

/** INCR, and the window's expiry when the counter is new: one atomic step. */
const INCREMENT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`;

/**
 * A {@link FacadeStore} on `redis` (see `connectRedis`); the façade's `secret` must be the
 * same on every instance, so each can verify and decrypt what another wrote.
 */
export function createRedisFacadeStore(redis: Redis, options: RedisFacadeStoreOptions = {}): FacadeStore {
  const prefix = options.prefix ?? 'mcpkit:facade:';
  const k = (key: string) => prefix + key;
  return {
    get: async (key) => (await redis.get(k(key))) ?? undefined,
    set: async (key, value, ttlMs) =>
      void (await redis.set(k(key), value, 'PX', Math.max(1, Math.ceil(ttlMs)))),
    take: async (key) => (await redis.getdel(k(key))) ?? undefined,
    delete: async (key) => void (await redis.del(k(key))),
    increment: async (key, ttlMs) =>
      Number(await redis.eval(INCREMENT, 1, k(key), Math.max(1, Math.ceil(ttlMs)))),
  };
}
