/** All the Redis backends of one instance at once, from one connection. */
import type { Redis } from 'ioredis';
import type { EventStore } from '../../server/http/index.js';
import { createRedisEventBus, type RedisEventBus } from './event-bus.js';
import { createRedisEventStore, type RedisEventStoreOptions } from './event-store.js';
import { createRedisTaskStore, type RedisTaskStore, type RedisTaskStoreOptions } from './task-store.js';
import { createRedisUserStateStore } from './user-state-store.js';
import type { UserStateStore } from '../../core/index.js';
import {
  createRedisSessionStore,
  type RedisSessionStore,
  type RedisSessionStoreOptions,
} from './session-store.js';

/** Options of {@link createRedisFleet}. */
export interface RedisFleetOptions {
  /** Key and channel prefix shared by the instances of one fleet (default `mcpkit:`). */
  prefix?: string;
  /** Bounds of the SSE event streams. */
  events?: Omit<RedisEventStoreOptions, 'prefix'>;
  /** TTL, Redis timeout and size bounds of the legacy session store. */
  sessions?: Omit<RedisSessionStoreOptions, 'prefix'>;
  /** Bounds of the task store (stored tasks per principal). */
  tasks?: Omit<RedisTaskStoreOptions, 'prefix'>;
}

/**
 * The backends to pass to `createServer({ eventBus, tasks: { store }, userState: { store } })` and to the HTTP
 * handler (`{ eventStore, sessionStore }`).
 */
export interface RedisFleet {
  eventBus: RedisEventBus;
  taskStore: RedisTaskStore;
  /** For `createHttpHandler(server, { eventStore })` (legacy `Last-Event-ID` replay). */
  eventStore: EventStore;
  /** For `createHttpHandler(server, { sessionStore })`: legacy sessions served by any instance. */
  sessionStore: RedisSessionStore;
  /** For `createServer({ userState: { store } })`: each caller's `ctx.userState`, the same on every instance. */
  userStateStore: UserStateStore;
  /** Ends the subscriber connections (not `redis` itself). */
  close(): Promise<void>;
}

/** Creates the event bus, task store and event store of one instance; resolves once subscribed. */
export async function createRedisFleet(redis: Redis, options: RedisFleetOptions = {}): Promise<RedisFleet> {
  const prefix = options.prefix ?? 'mcpkit:';
  const eventBus = await createRedisEventBus(redis, { channel: `${prefix}events` });
  const taskStore = await createRedisTaskStore(redis, { ...options.tasks, prefix });
  const eventStore = createRedisEventStore(redis, { ...options.events, prefix });
  const sessionStore = createRedisSessionStore(redis, { ...options.sessions, prefix });
  const userStateStore = createRedisUserStateStore(redis, { prefix });
  return {
    eventBus,
    taskStore,
    eventStore,
    sessionStore,
    userStateStore,
    async close() {
      await eventBus.close();
      await taskStore.close();
      await sessionStore.close();
    },
  };
}
