/**
 * The legacy SSE {@link EventStore} on Redis Streams: one stream per SSE stream, bounded
 * in length and expiring after a TTL, so a client that reconnects with `Last-Event-ID`
 * to another instance gets what it missed. Each owner (principal) also has a list of its
 * events across its streams, capped like `createMemoryEventStore({ maxEventsPerOwner })`:
 * past the cap the owner's oldest events are deleted (XDEL), atomically with the append.
 * Source: 2025-11-25 basic/transports "Resumability and Redelivery".
 */
import type { Redis } from 'ioredis';
import type { EventStore, StoredEvent } from '../../server/http/index.js';

/** Options of {@link createRedisEventStore}. */
export interface RedisEventStoreOptions {
  /** Key prefix (default `mcpkit:`). */
  prefix?: string;
  /** Most events kept per SSE stream; older ones are trimmed (default 1000). */
  maxLength?: number;
  /** Milliseconds a stream is kept after its last event (default 1 hour). */
  ttlMs?: number;
  /**
   * Most events kept for one owner (principal) across its streams; beyond it that owner's
   * oldest are deleted, so one client cannot fill Redis (default 1 000). Events trimmed by
   * `maxLength` or of deleted streams still count until they age out of the owner's list.
   */
  maxEventsPerOwner?: number;
}

// KEYS: the stream, then the owner's list (absent when unidentified). ARGV: maxLength,
// entry id, data, ttlMs, maxEventsPerOwner. The owner's entries name streams outside KEYS,
// so this expects one Redis (not a cluster), as the rest of the fleet does.
const APPEND = `
redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], ARGV[2], 'e', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
if KEYS[2] == nil then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[2] .. ' ' .. KEYS[1])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
local over = redis.call('LLEN', KEYS[2]) - tonumber(ARGV[5])
for _ = 1, over do
  local entry = redis.call('LPOP', KEYS[2])
  local space = string.find(entry, ' ', 1, true)
  redis.call('XDEL', string.sub(entry, space + 1), string.sub(entry, 1, space - 1))
end
return over
`;

/** Creates the event store. Entry ids are `0-<seq>`, so `since` is one XRANGE. */
export function createRedisEventStore(redis: Redis, options: RedisEventStoreOptions = {}): EventStore {
  const prefix = options.prefix ?? 'mcpkit:';
  const maxLength = options.maxLength ?? 1000;
  const ttlMs = options.ttlMs ?? 3_600_000;
  const maxPerOwner = options.maxEventsPerOwner ?? 1000;
  const key = (streamId: string): string => `${prefix}sse:${streamId}`;
  return {
    async append(streamId, event, owner = '') {
      const data = JSON.stringify({ id: event.id, message: event.message });
      const keys = owner === '' ? [key(streamId)] : [key(streamId), `${prefix}sse-owner:${owner}`];
      const args = [String(maxLength), `0-${event.seq}`, data, String(ttlMs), String(maxPerOwner)];
      await redis.eval(APPEND, keys.length, ...keys, ...args);
    },
    async since(streamId, afterSeq) {
      const entries = await redis.xrange(key(streamId), `(0-${afterSeq}`, '+');
      return entries.flatMap(([id, fields]) => {
        const seq = Number(id.split('-')[1]);
        const parsed = JSON.parse(fields[1] ?? '{}') as Omit<StoredEvent, 'seq'>;
        return typeof parsed.id === 'string' ? [{ id: parsed.id, seq, message: parsed.message }] : [];
      });
    },
    async deleteStream(streamId) {
      await redis.del(key(streamId));
    },
  };
}
