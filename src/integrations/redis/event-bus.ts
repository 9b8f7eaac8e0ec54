/**
 * The {@link EventBus} over Redis pub/sub: list changes and `resources/updated` published
 * on any instance reach the `subscriptions/listen` streams and legacy sessions of every
 * instance (this one included, through Redis, so every instance sees one order).
 * Delivery is at most once: an event published while an instance is disconnected from
 * Redis does not reach that instance.
 */
import type { Redis } from 'ioredis';
import type { EventBus, ServerEvent } from '../../core/index.js';
import { subscriberOf } from './connect.js';

/** Options of {@link createRedisEventBus}. */
export interface RedisEventBusOptions {
  /** The pub/sub channel (default `mcpkit:events`); instances of one fleet share it. */
  channel?: string;
}

/** An event bus shared by a fleet; `close()` ends its subscriber connection. */
export interface RedisEventBus extends EventBus {
  close(): Promise<void>;
}

const TYPES = new Set(['toolsListChanged', 'promptsListChanged', 'resourcesListChanged', 'resourceUpdated']);

/** Reads an event off the wire; undefined for anything malformed. */
function parseEvent(text: string): ServerEvent | undefined {
  try {
    const value = JSON.parse(text) as { type?: unknown; uri?: unknown };
    if (typeof value !== 'object' || value === null || !TYPES.has(value.type as string)) return undefined;
    if (value.type === 'resourceUpdated')
      return typeof value.uri === 'string' ? { type: 'resourceUpdated', uri: value.uri } : undefined;
    return { type: value.type } as ServerEvent;
  } catch {
    return undefined;
  }
}

/**
 * Creates the bus; resolves once this instance is subscribed (so what is published after
 * that is heard). `redis` is used to publish; a duplicate connection subscribes.
 */
export async function createRedisEventBus(
  redis: Redis,
  options: RedisEventBusOptions = {},
): Promise<RedisEventBus> {
  const channel = options.channel ?? 'mcpkit:events';
  const listeners = new Set<(event: ServerEvent) => void>();
  const sub = subscriberOf(redis);
  sub.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    const event = parseEvent(text);
    if (event) for (const listener of [...listeners]) listener(event);
  });
  await sub.subscribe(channel);
  return {
    async publish(event) {
      // Callers do not await publishing (server.notify*); a failure only loses this event.
      await redis.publish(channel, JSON.stringify(event)).catch(() => undefined);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      sub.disconnect();
    },
  };
}
