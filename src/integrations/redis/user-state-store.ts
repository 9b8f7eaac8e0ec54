/**
 * The {@link UserStateStore} in Redis, shared by a fleet: each entry is one string key that
 * expires with its TTL; each scope has a sorted set of its keys by expiry and a hash of
 * their sizes, and one Lua script drops the scope's expired entries, checks its bounds and
 * writes, so two instances can never both let a scope past a bound. A scope's keys are named
 * by a SHA-256 of the scope (fixed length, no separator in it), so no scope or key, however
 * chosen, can name another scope's entry; the hash sits in a `{…}` tag, so on Redis Cluster
 * a scope's keys share one slot.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { UserStateRefusal, UserStateStore } from '../../core/index.js';

/** Options of {@link createRedisUserStateStore}. */
export interface RedisUserStateStoreOptions {
  /** Key prefix (default `mcpkit:`); instances of one fleet share it. */
  prefix?: string;
}

/**
 * KEYS: 1 the entry, 2 the scope's expiry index, 3 the scope's size hash. ARGV: 1 key,
 * 2 JSON text, 3 bytes, 4 TTL ms, 5 now ms, 6 max keys, 7 max bytes. Returns '' when stored,
 * else the bound that refused it. The index and the hash expire with the scope's last entry.
 */
const SET = `
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[5])
if #expired > 0 then
  redis.call('HDEL', KEYS[3], unpack(expired))
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[5])
end
local old = tonumber(redis.call('HGET', KEYS[3], ARGV[1]) or '-1')
local keys = redis.call('ZCARD', KEYS[2])
if old < 0 then keys = keys + 1 end
if keys > tonumber(ARGV[6]) then return 'maxKeysPerPrincipal' end
local bytes = 0
for _, size in ipairs(redis.call('HVALS', KEYS[3])) do bytes = bytes + tonumber(size) end
if old > 0 then bytes = bytes - old end
if bytes + tonumber(ARGV[3]) > tonumber(ARGV[7]) then return 'maxBytesPerPrincipal' end
local expiry = tonumber(ARGV[5]) + tonumber(ARGV[4])
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[4])
redis.call('ZADD', KEYS[2], expiry, ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[2], last[2])
redis.call('PEXPIREAT', KEYS[3], last[2])
return ''`;

/** KEYS as for SET; ARGV: 1 key. Returns 1 when an unexpired entry was removed. */
const DELETE = `
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return redis.call('DEL', KEYS[1])`;

/**
 * Creates the store over `redis` (see {@link connectRedis}). Bounds are those each write
 * carries (the server's `userState` options); Redis's own `maxmemory` is the fleet's total.
 */
export function createRedisUserStateStore(
  redis: Redis,
  options: RedisUserStateStoreOptions = {},
): UserStateStore {
  const prefix = options.prefix ?? 'mcpkit:';
  const keysOf = (scope: string, key: string): [string, string, string] => {
    const tag = `${prefix}user-state:{${createHash('sha256').update(scope).digest('base64url')}}`;
    return [`${tag}:entry:${key}`, `${tag}:index`, `${tag}:sizes`];
  };
  return {
    async get(scope, key) {
      return (await redis.get(keysOf(scope, key)[0])) ?? undefined;
    },
    async set(write) {
      const args = [
        write.key,
        write.text,
        write.bytes,
        write.ttlMs,
        Date.now(),
        write.maxKeys,
        write.maxBytes,
      ];
      const refused = (await redis.eval(
        SET,
        3,
        ...keysOf(write.scope, write.key),
        ...args.map(String),
      )) as string;
      return refused === '' ? undefined : (refused as UserStateRefusal);
    },
    async delete(scope, key) {
      return (await redis.eval(DELETE, 3, ...keysOf(scope, key), key)) === 1;
    },
  };
}
