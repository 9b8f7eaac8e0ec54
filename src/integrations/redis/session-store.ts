/**
 * The legacy {@link SessionStore} in Redis: one hash per session (what `initialize`
 * negotiated, the log level, whether `notifications/initialized` arrived) and one set of
 * its resource subscriptions, both expiring after the session's TTL, which each use starts
 * again; and one pub/sub channel per session between the instances serving it. Pub/sub
 * drops what is published while a subscriber is reconnecting, so a client's answer to
 * another instance's request is also kept in a hash until that request has it, and read
 * again by every instance that resubscribes.
 * Source: 2025-11-25 basic/transports "Session Management".
 */
import type { Redis } from 'ioredis';
import { LocalError } from '../../core/index.js';
import { setTimer } from '../../core/runtime.js';
import type { SessionChange, SessionMessage, SessionRecord, SessionStore } from '../../server/http/index.js';
import { subscriberOf } from './connect.js';

/** Options of {@link createRedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** Key and channel prefix (default `mcpkit:`); instances of one fleet share it. */
  prefix?: string;
  /** Milliseconds a session lives without a request or an open stream (default 30 min). */
  ttlMs?: number;
  /** Milliseconds to wait for Redis before failing a request with 503 (default 2000). */
  commandTimeoutMs?: number;
  /** Largest stored session (client info and capabilities), in bytes (default 64 KiB). */
  maxRecordBytes?: number;
  /** Largest message between instances, in bytes (default 4 MiB, the default body limit). */
  maxMessageBytes?: number;
}

/** A session store shared by a fleet; `close()` ends its subscriber connection. */
export interface RedisSessionStore extends SessionStore {
  close(): Promise<void>;
}

/** Reads a session and starts its TTL again; nil when it does not exist. */
const LOAD = `
local h = redis.call('HGETALL', KEYS[1])
if #h == 0 then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return {h, redis.call('SMEMBERS', KEYS[2])}`;

/** Changes a session that exists, then tells its instances. */
const CHANGE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] == 'hset' then redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
elseif ARGV[1] == 'sadd' then
  redis.call('SADD', KEYS[2], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
else redis.call('SREM', KEYS[2], ARGV[2]) end
redis.call('PUBLISH', KEYS[3], ARGV[5])
return 1`;

/** Ends a session and tells its instances; 1 when it existed. */
const END = `
local n = redis.call('DEL', KEYS[1])
redis.call('DEL', KEYS[2])
redis.call('DEL', KEYS[4])
if n > 0 then redis.call('PUBLISH', KEYS[3], ARGV[1]) end
return n`;

/** Keeps a client's answer (until its request has it, or the TTL) and passes it on. */
const ANSWER = `
redis.call('HSET', KEYS[4], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[4], ARGV[3])
redis.call('PUBLISH', KEYS[3], ARGV[2])
return 1`;

const TYPES = new Set(['send', 'response', 'cancelled', 'changed', 'takeover', 'ended']);

/**
 * The ids this store looks up: visible ASCII (2025-11-25 basic/transports "Session
 * Management") without ':', at most 256 characters. The server mints UUIDs; a hostile
 * `Mcp-Session-Id` such as `<id>:subs` would otherwise name another session's keys.
 */
const SESSION_ID = /^[\x21-\x39\x3b-\x7e]{1,256}$/;

/** Creates the store; its subscriber connection opens at once. */
export function createRedisSessionStore(
  redis: Redis,
  options: RedisSessionStoreOptions = {},
): RedisSessionStore {
  const prefix = options.prefix ?? 'mcpkit:';
  const ttlMs = options.ttlMs ?? 30 * 60_000;
  const timeoutMs = options.commandTimeoutMs ?? 2000;
  const maxRecord = options.maxRecordBytes ?? 64 * 1024;
  const maxMessage = options.maxMessageBytes ?? 4 * 1024 * 1024;
  const keys = (id: string): SessionKeys => keysOf(prefix, id);
  const within = <T>(what: string, promise: Promise<T>): Promise<T> => deadline(what, promise, timeoutMs);
  const channels = channelsOf(redis, prefix);
  const encode = (message: SessionMessage): string => bounded(JSON.stringify(message), maxMessage, 'message');
  return {
    ttlMs,
    async create(record) {
      const [key, subs] = keys(record.id);
      const { logLevel, initialized, subscriptions, ...fixed } = record;
      const text = bounded(JSON.stringify(fixed), maxRecord, 'session (client info and capabilities)');
      const multi = redis
        .multi()
        .del(subs)
        .hset(key, 'r', text, 'level', logLevel, 'init', initialized ? '1' : '');
      if (subscriptions.length > 0) multi.sadd(subs, ...subscriptions).pexpire(subs, ttlMs);
      await within('create a session', multi.pexpire(key, ttlMs).exec());
    },
    async load(id) {
      if (!SESSION_ID.test(id)) return undefined;
      const reply = await within('read a session', redis.eval(LOAD, 2, ...keys(id).slice(0, 2), ttlMs));
      return reply ? parseRecord(id, reply as [string[], string[]]) : undefined;
    },
    async change(id, change) {
      const text = encode({ type: 'changed', change });
      await within(
        'change a session',
        redis.eval(CHANGE, 3, ...keys(id).slice(0, 3), ...changeOp(change), ttlMs, text),
      );
    },
    async delete(id) {
      if (!SESSION_ID.test(id)) return false;
      const text = encode({ type: 'ended' });
      return (await within('end a session', redis.eval(END, 4, ...keys(id), text))) === 1;
    },
    async publish(id, message) {
      const text = encode(message);
      const answerTo = message.type === 'response' ? message.message.id : undefined;
      const kept = answerTo === undefined || answerTo === null ? undefined : String(answerTo);
      const sent = kept
        ? redis.eval(ANSWER, 4, ...keys(id), kept, text, ttlMs)
        : redis.publish(keys(id)[2], text);
      await within('reach another instance', sent);
    },
    async answered(id, requestId) {
      await within('forget a delivered answer', redis.hdel(keys(id)[3], String(requestId)));
    },
    subscribe: (id, listener) => within('subscribe to a session', channels.add(id, listener)),
    close: async () => channels.close(),
  };
}

/** The subscriber's channels; once back after a drop, what it missed is the kept answers. */
function channelsOf(redis: Redis, prefix: string): SessionChannels {
  const missed = async (id: string): Promise<string[]> =>
    Object.values(await redis.hgetall(keysOf(prefix, id)[3]));
  return new SessionChannels(subscriberOf(redis), { prefix: `${prefix}session-channel:`, missed });
}

/** A session's hash, subscription set, channel and kept answers. */
type SessionKeys = [string, string, string, string];

function keysOf(prefix: string, id: string): SessionKeys {
  const key = `${prefix}session:${id}`;
  return [key, `${key}:subs`, `${prefix}session-channel:${id}`, `${key}:answers`];
}

/** The CHANGE script's operation and its two arguments for `change`. */
function changeOp(change: SessionChange): [string, string, string] {
  if ('logLevel' in change) return ['hset', 'level', change.logLevel];
  if ('initialized' in change) return ['hset', 'init', '1'];
  if ('subscribe' in change) return ['sadd', change.subscribe, ''];
  return ['srem', change.unsubscribe, ''];
}

/** The session's record from its hash and subscription set. */
function parseRecord(id: string, [flat, subscriptions]: [string[], string[]]): SessionRecord | undefined {
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) fields.set(flat[i]!, flat[i + 1]!);
  try {
    const fixed = JSON.parse(fields.get('r') ?? '') as Omit<
      SessionRecord,
      'logLevel' | 'initialized' | 'subscriptions'
    >;
    const logLevel = (fields.get('level') ?? 'debug') as SessionRecord['logLevel'];
    return { ...fixed, id, logLevel, initialized: fields.get('init') === '1', subscriptions };
  } catch {
    return undefined;
  }
}

/** `text` when at most `max` bytes. @throws LocalError `LIMIT_EXCEEDED` naming `what`. */
function bounded(text: string, max: number, what: string): string {
  if (Buffer.byteLength(text) <= max) return text;
  throw new LocalError(
    'LIMIT_EXCEEDED',
    `the ${what} exceeds ${max} bytes (the Redis session store's limit)`,
  );
}

/** `promise`, or a clear failure once `ms` passed (Redis down: commands wait for the reconnection). */
function deadline<T>(what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimer(
      () =>
        reject(
          new LocalError('TIMEOUT', `Redis did not answer within ${ms} ms (commandTimeoutMs) to ${what}`),
        ),
      ms,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * The per-session channels this instance listens to, on one subscriber connection. Once it
 * is back after a drop, each channel is subscribed again and what it `missed` is delivered.
 */
class SessionChannels {
  readonly #sub: Redis;
  readonly #prefix: string;
  readonly #missed: (id: string) => Promise<string[]>;
  readonly #listeners = new Map<string, Set<(message: SessionMessage) => void>>();
  #connected = false;

  constructor(sub: Redis, setup: { prefix: string; missed: (id: string) => Promise<string[]> }) {
    this.#sub = sub;
    this.#prefix = setup.prefix;
    this.#missed = setup.missed;
    sub.on('message', (channel: string, text: string) => this.#dispatch(channel, text));
    sub.on('ready', () => {
      if (this.#connected) void this.#recover();
      this.#connected = true;
    });
  }

  /** After a reconnection: subscribed again (awaited, so nothing falls in between), then the kept. */
  async #recover(): Promise<void> {
    for (const channel of [...this.#listeners.keys()]) {
      try {
        await this.#sub.subscribe(channel);
        for (const text of await this.#missed(channel.slice(this.#prefix.length)))
          this.#dispatch(channel, text);
      } catch {
        // Redis went away again: the next 'ready' recovers.
      }
    }
  }

  async add(id: string, listener: (message: SessionMessage) => void): Promise<() => void> {
    const channel = this.#prefix + id;
    let set = this.#listeners.get(channel);
    if (!set) this.#listeners.set(channel, (set = new Set()));
    set.add(listener);
    if (set.size === 1) await this.#sub.subscribe(channel);
    return () => {
      if (!set.delete(listener) || set.size > 0) return;
      this.#listeners.delete(channel);
      void this.#sub.unsubscribe(channel).catch(() => undefined);
    };
  }

  close(): void {
    this.#listeners.clear();
    this.#sub.disconnect();
  }

  #dispatch(channel: string, text: string): void {
    const listeners = this.#listeners.get(channel);
    if (!listeners) return;
    let message: SessionMessage;
    try {
      message = JSON.parse(text) as SessionMessage;
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null || !TYPES.has(message.type)) return;
    for (const listener of [...listeners]) listener(message);
  }
}
