/**
 * The {@link TaskStore} in Redis: each task is one JSON value that expires with the
 * task's TTL, changed only by compare-and-set (so two instances never overwrite each
 * other's change), with a sorted set of running tasks by lease end, and signals on a
 * pub/sub channel (new answers, cancellation, status changes for `notifications/tasks`).
 * A task exists for every instance once `create` resolved (SEP-2663 "Task Creation").
 */
import type { Redis } from 'ioredis';
import {
  LocalError,
  isTerminalStatus,
  type TaskSignal,
  type TaskState,
  type TaskStore,
} from '../../core/index.js';
import { storedTasksRefusal } from '../../core/runtime.js';
import { subscriberOf } from './connect.js';

/** Options of {@link createRedisTaskStore}. */
export interface RedisTaskStoreOptions {
  /** Key prefix (default `mcpkit:`); instances of one fleet share it. */
  prefix?: string;
  /**
   * Most unexpired tasks (running and finished) one principal holds in the fleet at once
   * (default 1 000). A new task beyond it is refused with -32600 `TooManyRequests` (HTTP 429)
   * and `data: { limit: 'maxStoredTasksPerPrincipal', max }`; no stored task is evicted, each
   * expires with its own TTL. Counted in a sorted set per principal, checked and added in the
   * same Lua script that stores the task.
   */
  maxStoredTasksPerPrincipal?: number;
}

/** A task store shared by a fleet; `close()` ends its subscriber connection. */
export interface RedisTaskStore extends TaskStore {
  close(): Promise<void>;
}

/** Sets KEYS[1] to ARGV[2] if it still holds ARGV[1]; keeps its TTL; maintains the lease set. */
const COMPARE_AND_SET = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
if ARGV[3] == '' then redis.call('ZREM', KEYS[2], ARGV[4])
else redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4]) end
return 1`;

/**
 * Stores a new task (KEYS[1]) unless its holder's index (KEYS[3]) already counts ARGV[7]
 * unexpired tasks. ARGV: 1 task JSON, 2 TTL ms ('' for none), 3 lease score ('' for none),
 * 4 task id, 5 now (ms), 6 expiry (ms; NO_EXPIRY for none), 7 the bound ('' when the task has
 * no holder). The index expires with its longest-lived task. Returns 0 when refused.
 */
/** The expiry score of a task kept forever (year 2255; beyond every real expiry). */
const NO_EXPIRY = 9_000_000_000_000;

const CREATE = `
if ARGV[7] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[5])
  if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[7]) then return 0 end
  redis.call('ZADD', KEYS[3], ARGV[6], ARGV[4])
  local last = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')
  if tonumber(last[2]) >= ${NO_EXPIRY} then redis.call('PERSIST', KEYS[3])
  else redis.call('PEXPIREAT', KEYS[3], last[2]) end
end
if ARGV[2] == '' then redis.call('SET', KEYS[1], ARGV[1])
else redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
if ARGV[3] ~= '' then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4]) end
return 1`;

/** Most compare-and-set attempts before giving up on a change (each retry re-reads). */
const MAX_ATTEMPTS = 20;

/** The lease end to index, or '' when the task holds no lease (finished, or never leased). */
function leaseScore(task: TaskState): string {
  return isTerminalStatus(task.status) || task.internal.leaseUntil === undefined
    ? ''
    : String(task.internal.leaseUntil);
}

/** Where one fleet's tasks live: the connection, their keys and their channel. */
interface TaskKeys {
  readonly redis: Redis;
  task(id: string): string;
  /** The sorted set of a principal's unexpired tasks, by expiry. */
  holder(key: string): string;
  readonly leases: string;
  readonly maxPerHolder: number;
  readonly channel: string;
}

/** Creates the store; resolves once it hears signals. */
export async function createRedisTaskStore(
  redis: Redis,
  options: RedisTaskStoreOptions = {},
): Promise<RedisTaskStore> {
  const prefix = options.prefix ?? 'mcpkit:';
  const keys: TaskKeys = {
    redis,
    task: (id) => `${prefix}task:${id}`,
    holder: (key) => `${prefix}task-holder:${key}`,
    leases: `${prefix}task-leases`,
    maxPerHolder: positive(options.maxStoredTasksPerPrincipal ?? 1000),
    channel: `${prefix}task-signals`,
  };
  const listeners = new Set<(signal: TaskSignal) => void>();
  const sub = subscriberOf(redis);
  sub.on('message', (from: string, text: string) => {
    const signal = from === keys.channel ? parseSignal(text) : undefined;
    if (signal) for (const listener of [...listeners]) listener(signal);
  });
  await sub.subscribe(keys.channel);
  return {
    create: (task) => createTask(keys, task),
    async get(id) {
      const raw = await redis.get(keys.task(id));
      return raw === null ? undefined : (JSON.parse(raw) as TaskState);
    },
    update: (id, change) => updateTask(keys, id, change),
    async signal(signal) {
      await redis.publish(keys.channel, JSON.stringify(signal));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    expiredLeases: (now) => expiredLeases(keys, now),
    async close() {
      listeners.clear();
      sub.disconnect();
    },
  };
}

async function createTask(keys: TaskKeys, task: TaskState): Promise<void> {
  const now = Date.now();
  const holder = task.internal.holder ?? '';
  const done = await keys.redis.eval(
    CREATE,
    3,
    keys.task(task.taskId),
    keys.leases,
    keys.holder(holder),
    JSON.stringify(task),
    task.ttlMs === null ? '' : String(task.ttlMs),
    leaseScore(task),
    task.taskId,
    String(now),
    String(task.ttlMs === null ? NO_EXPIRY : Date.parse(task.createdAt) + task.ttlMs),
    holder === '' ? '' : String(keys.maxPerHolder),
  );
  if (done !== 1) throw storedTasksRefusal(keys.maxPerHolder);
}

function positive(value: number): number {
  if (!(value >= 1))
    throw new RangeError('createRedisTaskStore: maxStoredTasksPerPrincipal must be at least 1');
  return value;
}

/** {@link TaskStore.update} by compare-and-set: re-read and retry when another instance changed the task meanwhile. */
async function updateTask(
  keys: TaskKeys,
  id: string,
  change: Parameters<TaskStore['update']>[1],
): Promise<TaskState | undefined> {
  const { redis } = keys;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const raw = await redis.get(keys.task(id));
    if (raw === null) return undefined;
    const next = change(JSON.parse(raw) as TaskState);
    if (!next) return JSON.parse(raw) as TaskState;
    const text = JSON.stringify(next);
    const done = await redis.eval(
      COMPARE_AND_SET,
      2,
      keys.task(id),
      keys.leases,
      raw,
      text,
      leaseScore(next),
      id,
    );
    if (done === 1) return next;
  }
  throw new LocalError(
    'LIMIT_EXCEEDED',
    `task ${id} kept changing under ${MAX_ATTEMPTS} attempts to update it`,
  );
}

/** The leased tasks whose lease ended by `now` (at most 100); drops index entries of expired tasks. */
async function expiredLeases(keys: TaskKeys, now: number): Promise<string[]> {
  const { redis } = keys;
  const ids = await redis.zrangebyscore(keys.leases, '-inf', String(now), 'LIMIT', 0, 100);
  const alive = await Promise.all(ids.map((id) => redis.exists(keys.task(id))));
  const gone = ids.filter((_, i) => alive[i] === 0);
  if (gone.length > 0) await redis.zrem(keys.leases, ...gone);
  return ids.filter((_, i) => alive[i] === 1);
}

function parseSignal(text: string): TaskSignal | undefined {
  try {
    const value = JSON.parse(text) as TaskSignal;
    const kinds = ['changed', 'responses', 'cancelled'];
    return typeof value.taskId === 'string' && kinds.includes(value.kind) ? value : undefined;
  } catch {
    return undefined;
  }
}
