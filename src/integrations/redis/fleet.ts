/** All the Redis backends of one instance at once, from one connection. */
import type { Redis } from 'ioredis';
import type { EventStore } from '../../server/http/event-store.js';
import { createRedisEventBus, type RedisEventBus } from './event-bus.js';
import { createRedisEventStore, type RedisEventStoreOptions } from './event-store.js';
import { createRedisTaskStore, type RedisTaskStore } from './task-store.js';

/** Options of {@link createRedisFleet}. */
export interface RedisFleetOptions {
  /** Key and channel prefix shared by the instances of one fleet (default `mcpkit:`). */
  prefix?: string;
  /** Bounds of the SSE event streams. */
  events?: Omit<RedisEventStoreOptions, 'prefix'>;
}

/** The backends to pass to `createServer({ eventBus, tasks: { store } })` and the HTTP handler. */
export interface RedisFleet {
  eventBus: RedisEventBus;
  taskStore: RedisTaskStore;
  /** For `createHttpHandler(server, { eventStore })` (legacy `Last-Event-ID` replay). */
  eventStore: EventStore;
  /** Ends the subscriber connections (not `redis` itself). */
  close(): Promise<void>;
}

/** Creates the event bus, task store and event store of one instance; resolves once subscribed. */
export async function createRedisFleet(redis: Redis, options: RedisFleetOptions = {}): Promise<RedisFleet> {
  const prefix = options.prefix ?? 'mcpkit:';
  const eventBus = await createRedisEventBus(redis, { channel: `${prefix}events` });
  const taskStore = await createRedisTaskStore(redis, { prefix });
  const eventStore = createRedisEventStore(redis, { ...options.events, prefix });
  return {
    eventBus,
    taskStore,
    eventStore,
    async close() {
      await eventBus.close();
      await taskStore.close();
    },
  };
}
