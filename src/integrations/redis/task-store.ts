/**
 * The {@link TaskStore} in Redis: each task is one JSON value that expires with the
 * task's TTL, changed only by compare-and-set (so two instances never overwrite each
 * other's change), with a sorted set of running tasks by lease end, and signals on a
 * pub/sub channel (new answers, cancellation, status changes for `notifications/tasks`).
 * A task exists for every instance once `create` resolved (SEP-2663 "Task Creation").
 */
import type { Redis } from 'ioredis';
import { isTerminalStatus, type TaskSignal, type TaskState, type TaskStore } from '../../core/tasks.js';
import { subscriberOf } from './connect.js';

/** Options of {@link createRedisTaskStore}. */
export interface RedisTaskStoreOptions {
  /** Key prefix (default `mcpkit:`); instances of one fleet share it. */
  prefix?: string;
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

/** Most compare-and-set attempts before giving up on a change (each retry re-reads). */
const MAX_ATTEMPTS = 20;

/** The lease end to index, or '' when the task holds no lease (finished, or never leased). */
function leaseScore(task: TaskState): string {
  return isTerminalStatus(task.status) || task.internal.leaseUntil === undefined
    ? ''
    : String(task.internal.leaseUntil);
}

/** Creates the store; resolves once it hears signals. */
export async function createRedisTaskStore(
  redis: Redis,
  options: RedisTaskStoreOptions = {},
): Promise<RedisTaskStore> {
  const prefix = options.prefix ?? 'mcpkit:';
  const key = (id: string): string => `${prefix}task:${id}`;
  const leases = `${prefix}task-leases`;
  const channel = `${prefix}task-signals`;
  const listeners = new Set<(signal: TaskSignal) => void>();
  const sub = subscriberOf(redis);
  sub.on('message', (from: string, text: string) => {
    const signal = from === channel ? parseSignal(text) : undefined;
    if (signal) for (const listener of [...listeners]) listener(signal);
  });
  await sub.subscribe(channel);

  const update: TaskStore['update'] = async (id, change) => {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const raw = await redis.get(key(id));
      if (raw === null) return undefined;
      const next = change(JSON.parse(raw) as TaskState);
      if (!next) return JSON.parse(raw) as TaskState;
      const text = JSON.stringify(next);
      const done = await redis.eval(COMPARE_AND_SET, 2, key(id), leases, raw, text, leaseScore(next), id);
      if (done === 1) return next;
    }
    throw new Error(`task ${id} kept changing under ${MAX_ATTEMPTS} attempts to update it`);
  };

  return {
    async create(task) {
      const text = JSON.stringify(task);
      const multi = redis.multi();
      if (task.ttlMs === null) multi.set(key(task.taskId), text);
      else multi.set(key(task.taskId), text, 'PX', task.ttlMs);
      const score = leaseScore(task);
      if (score !== '') multi.zadd(leases, score, task.taskId);
      const results = await multi.exec();
      const failed = results?.find(([error]) => error);
      if (!results || failed) throw failed?.[0] ?? new Error('Redis did not store the task');
    },
    async get(id) {
      const raw = await redis.get(key(id));
      return raw === null ? undefined : (JSON.parse(raw) as TaskState);
    },
    update,
    async signal(signal) {
      await redis.publish(channel, JSON.stringify(signal));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async expiredLeases(now) {
      const ids = await redis.zrangebyscore(leases, '-inf', String(now), 'LIMIT', 0, 100);
      const alive = await Promise.all(ids.map((id) => redis.exists(key(id))));
      const gone = ids.filter((_, i) => alive[i] === 0);
      if (gone.length > 0) await redis.zrem(leases, ...gone);
      return ids.filter((_, i) => alive[i] === 1);
    },
    async close() {
      listeners.clear();
      sub.disconnect();
    },
  };
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
