/**
 * The legacy SSE {@link EventStore} on Redis Streams: one stream per SSE stream, bounded
 * in length and expiring after a TTL, so a client that reconnects with `Last-Event-ID`
 * to another instance gets what it missed.
 * Source: 2025-11-25 basic/transports "Resumability and Redelivery".
 */
import type { Redis } from 'ioredis';
import type { EventStore, StoredEvent } from '../../server/http/event-store.js';

/** Options of {@link createRedisEventStore}. */
export interface RedisEventStoreOptions {
  /** Key prefix (default `mcpkit:`). */
  prefix?: string;
  /** Most events kept per SSE stream; older ones are trimmed (default 1000). */
  maxLength?: number;
  /** Milliseconds a stream is kept after its last event (default 1 hour). */
  ttlMs?: number;
}

/** Creates the event store. Entry ids are `0-<seq>`, so `since` is one XRANGE. */
export function createRedisEventStore(redis: Redis, options: RedisEventStoreOptions = {}): EventStore {
  const prefix = options.prefix ?? 'mcpkit:';
  const maxLength = options.maxLength ?? 1000;
  const ttlMs = options.ttlMs ?? 3_600_000;
  const key = (streamId: string): string => `${prefix}sse:${streamId}`;
  return {
    async append(streamId, event) {
      const data = JSON.stringify({ id: event.id, message: event.message });
      await redis
        .multi()
        .xadd(key(streamId), 'MAXLEN', String(maxLength), `0-${event.seq}`, 'e', data)
        .pexpire(key(streamId), ttlMs)
        .exec();
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
