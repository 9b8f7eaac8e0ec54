/**
 * Connecting to Redis for a fleet: one ioredis client that reconnects by itself after a
 * connection loss or a Redis restart, and a clear local error when Redis cannot be
 * reached at start.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { LocalError } from '../../core/index.js';
import { setTimer } from '../../core/runtime.js';

/** Options of {@link connectRedis}: ioredis options, plus how long to try at start. */
export interface ConnectRedisOptions extends RedisOptions {
  /** Milliseconds to wait for the first connection (default 5000). */
  startTimeoutMs?: number;
}

/** Delay before the n-th reconnection attempt: 50 ms doubling, at most 2 s. */
function reconnectDelay(attempt: number): number {
  return Math.min(50 * 2 ** Math.min(attempt, 6), 2000);
}

/**
 * Connects to Redis at `url` (e.g. `redis://127.0.0.1:6379/0`) and checks it answers.
 * The client reconnects on its own later (commands wait while it does).
 * @throws LocalError `CONNECTION_CLOSED` naming the URL when Redis does not answer within
 *   `startTimeoutMs`.
 */
export async function connectRedis(url: string, options: ConnectRedisOptions = {}): Promise<Redis> {
  const { startTimeoutMs = 5000, ...redisOptions } = options;
  const redis = new Redis(url, {
    lazyConnect: true,
    retryStrategy: reconnectDelay,
    maxRetriesPerRequest: null,
    ...redisOptions,
  } as never);
  redis.on('error', () => undefined); // reported through failed commands and the start check
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimer(
      () => reject(new LocalError('TIMEOUT', `no answer within ${startTimeoutMs} ms (startTimeoutMs)`)),
      startTimeoutMs,
    );
  });
  try {
    await Promise.race([redis.connect().then(() => redis.ping()), timeout]);
    return redis;
  } catch (error) {
    redis.disconnect();
    const why = error instanceof Error ? error.message : String(error);
    throw new LocalError('CONNECTION_CLOSED', `Redis at ${redactUrl(url)} is unreachable: ${why}`, {
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an invalid Redis URL)';
  }
}

/** A second connection for SUBSCRIBE (a subscribed connection can do nothing else). */
export function subscriberOf(redis: Redis): Redis {
  const sub = redis.duplicate({ lazyConnect: false });
  sub.on('error', () => undefined);
  return sub;
}
