/**
 * The in-memory {@link TaskStore}: tasks of this process only, dropped after their TTL.
 * Signals are delivered synchronously to this process's listeners.
 * Source: SEP-2663 "Task Creation" (durable before the result), "Task Polling" (TTL).
 */
import { expiresAt, type TaskSignal, type TaskState, type TaskStore } from './tasks.js';

/** Options of {@link createMemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /** Most tasks kept at once (default 10 000); beyond it the oldest finished ones go first. */
  maxTasks?: number;
}

/** Creates the in-memory task store. */
export function createMemoryTaskStore(options: MemoryTaskStoreOptions = {}): TaskStore {
  const max = options.maxTasks ?? 10_000;
  const tasks = new Map<string, TaskState>();
  const listeners = new Set<(signal: TaskSignal) => void>();
  const live = (id: string): TaskState | undefined => {
    const task = tasks.get(id);
    if (task && expiresAt(task) <= Date.now()) tasks.delete(id);
    return tasks.get(id);
  };
  return {
    async create(task) {
      if (tasks.size >= max) evict(tasks);
      tasks.set(task.taskId, structuredClone(task));
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

/** Drops expired tasks, then the oldest finished one, then the oldest. */
function evict(tasks: Map<string, TaskState>): void {
  const now = Date.now();
  for (const [id, task] of tasks) if (expiresAt(task) <= now) tasks.delete(id);
  if (tasks.size === 0) return;
  for (const [id, task] of tasks) {
    if (task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') {
      tasks.delete(id);
      return;
    }
  }
  const first = tasks.keys().next().value;
  if (first !== undefined) tasks.delete(first);
}
