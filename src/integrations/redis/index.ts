/**
 * `mcpkit/redis`: Redis backends that make a fleet of mcpkit instances behave as one
 * server: the event bus (pub/sub), the task store (leases, compare-and-set), the legacy
 * SSE event store (Redis Streams), the legacy session store, the user state store (`ctx.userState`). Needs the optional peer dependency `ioredis`.
 */
export { connectRedis, type ConnectRedisOptions } from './connect.js';
export { createRedisEventBus, type RedisEventBus, type RedisEventBusOptions } from './event-bus.js';
export { createRedisTaskStore, type RedisTaskStore, type RedisTaskStoreOptions } from './task-store.js';
export { createRedisEventStore, type RedisEventStoreOptions } from './event-store.js';
export {
  createRedisSessionStore,
  type RedisSessionStore,
  type RedisSessionStoreOptions,
} from './session-store.js';
export { createRedisUserStateStore, type RedisUserStateStoreOptions } from './user-state-store.js';
export { createRedisFleet, type RedisFleet, type RedisFleetOptions } from './fleet.js';
export { createRedisFacadeStore, type RedisFacadeStoreOptions } from './facade-store.js';
