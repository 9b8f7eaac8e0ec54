/**
 * The in-memory {@link TaskStore}: tasks of this process only, dropped after their TTL.
 * Signals are delivered synchronously to this process's listeners. A task is discarded only
 * after its TTL, never to make room: a new task beyond a bound is refused instead.
 * Source: SEP-2663 "Task Creation" (durable before the result), "Task Polling" (TTL).
 */
import { WireError } from './errors.js';
import { expiresAt, storedTasksRefusal, type TaskSignal, type TaskState, type TaskStore } from './tasks.js';

/** Options of {@link createMemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /**
   * Most unexpired tasks kept at once, all principals together (default 10 000). A new task
   * beyond it is refused with -32603 `ServiceUnavailable` (HTTP 503); no stored task is evicted.
   */
  maxTasks?: number;
  /**
   * Most unexpired tasks (running and finished) one principal holds at once (default: a tenth
   * of `maxTasks`, 1 000). A new task beyond it is refused with -32600 `TooManyRequests`
   * (HTTP 429) and `data: { limit: 'maxStoredTasksPerPrincipal', max }`. Tasks of a caller with
   * no principal key (`internal.holder` empty) count only against `maxTasks`.
   */
  maxStoredTasksPerPrincipal?: number;
}

/**
 * Creates the in-memory task store.
 * @throws RangeError when a bound is not a positive integer.
 */
export function createMemoryTaskStore(options: MemoryTaskStoreOptions = {}): TaskStore {
  const max = positive('maxTasks', options.maxTasks ?? 10_000);
  const perHolder = positive(
    'maxStoredTasksPerPrincipal',
    options.maxStoredTasksPerPrincipal ?? Math.max(1, Math.floor(max / 10)),
  );
  const tasks = new Map<string, TaskState>();
  const held = new Map<string, Set<string>>();
  const listeners = new Set<(signal: TaskSignal) => void>();
  const drop = (id: string): void => {
    const holder = tasks.get(id)?.internal.holder;
    tasks.delete(id);
    const ids = holder ? held.get(holder) : undefined;
    if (ids?.delete(id) && ids.size === 0) held.delete(holder!);
  };
  const live = (id: string): TaskState | undefined => {
    const task = tasks.get(id);
    if (task && expiresAt(task) <= Date.now()) drop(id);
    return tasks.get(id);
  };
  const room = (task: TaskState): void => {
    const holder = task.internal.holder;
    const ids = holder ? held.get(holder) : undefined;
    if (ids && ids.size >= perHolder) for (const id of [...ids]) live(id);
    if (ids && ids.size >= perHolder) throw storedTasksRefusal(perHolder);
    if (tasks.size >= max) for (const id of [...tasks.keys()]) live(id);
    if (tasks.size >= max)
      throw WireError.of('ServiceUnavailable', `Service Unavailable: the server holds ${max} tasks`, {
        limit: 'maxTasks',
        max,
      });
  };
  return {
    async create(task) {
      room(task);
      tasks.set(task.taskId, structuredClone(task));
      const holder = task.internal.holder;
      if (holder) held.set(holder, (held.get(holder) ?? new Set()).add(task.taskId));
    },
    async get(id) {
      const task = live(id);
      return task && structuredClone(task);
    },
    async update(id, change) {
      const task = live(id);
      if (!task) return undefined;
      const next = change(structuredClone(task));
      if (next) tasks.set(id, structuredClone(next));
      return structuredClone(next ?? task);
    },
    async signal(signal) {
      for (const listener of [...listeners]) listener(signal);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function positive(name: string, value: number): number {
  if (!(value >= 1)) throw new RangeError(`createMemoryTaskStore: ${name} must be at least 1`);
  return value;
}
