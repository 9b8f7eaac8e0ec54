/**
 * The inspector's Tasks view, server side: every task the client created or learnt about,
 * read off the connection's frames (a `tools/call` answered with a task, `tasks/get`,
 * `tasks/list`, `tasks/result`, the task status notifications), so a task shows up however
 * the client came to see it. Each task keeps its status over time, the input it waits for,
 * and its result or error.
 * Sources: the Tasks extension (SEP-2663: `resultType: "task"`, `tasks/get`, `tasks/update`,
 * `tasks/cancel`, `notifications/tasks`) on the modern era; 2025-11-25 basic/utilities/tasks
 * (`CreateTaskResult`, `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`,
 * `notifications/tasks/status`) on the legacy one.
 */
import type { RecordedFrame } from './recorder.js';

/** One status a task was seen in. */
export interface TaskStatusChange {
  /** When the client saw it, in ms since the epoch. */
  at: number;
  status: string;
  statusMessage?: string;
}

/** A task as the Tasks view shows it. */
export interface InspectedTask {
  taskId: string;
  /** The tool whose call created it, when the client saw that call. */
  toolName?: string;
  /** `created`: a call of this client; `listed`: learnt from `tasks/list` or a look-up. */
  origin: 'created' | 'listed';
  era: 'modern' | 'legacy';
  /** The latest status first seen at each change, oldest first (at most {@link MAX_CHANGES}). */
  changes: TaskStatusChange[];
  /** The input requests of an `input_required` status (modern), as the server sent them. */
  inputRequests?: unknown;
  /** The tool result of a completed task. */
  result?: unknown;
  /** The JSON-RPC error of a failed task. */
  error?: unknown;
  pollIntervalMs?: number;
  ttlMs?: number | null;
}

/** Tasks kept per connection (the oldest go first: the task ids are the server's). */
const MAX_TASKS = 200;
/** Status changes kept per task. */
const MAX_CHANGES = 100;
/** Requests whose answer is still awaited, kept to read that answer. */
const MAX_OPEN_REQUESTS = 1000;
/** Longest status message kept, in characters. */
const MAX_MESSAGE = 2000;

/** The statuses after which a task does not change (SEP-2663 and 2025-11-25 "Task Status"). */
export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const text = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' ? value.slice(0, max) : undefined;

/** The task of `tasks/get`, of a task result or notification: modern flat, legacy under `task`. */
function taskOf(value: unknown): Json | undefined {
  if (!isObject(value)) return undefined;
  const inner = isObject(value.task) ? value.task : value;
  return typeof inner.taskId === 'string' ? inner : undefined;
}

/** The tasks of one connection, learnt from its frames; `emit` gets each changed task. */
export class TaskBoard {
  readonly #tasks = new Map<string, InspectedTask>();
  /** Requests sent and not yet answered: id → method and params. */
  readonly #open = new Map<string, { method: string; params: Json }>();
  readonly #emit: (task: InspectedTask) => void;
  #era: 'modern' | 'legacy' = 'modern';

  constructor(emit: (task: InspectedTask) => void) {
    this.#emit = emit;
  }

  /** Forgets every task (a new connection) and notes the era of the next one. */
  reset(era: 'modern' | 'legacy' = 'modern'): void {
    this.#tasks.clear();
    this.#open.clear();
    this.#era = era;
  }

  /** Sets the era once the connection settled it. */
  set era(era: 'modern' | 'legacy') {
    this.#era = era;
  }

  /** Every task, the newest first. */
  list(): InspectedTask[] {
    return [...this.#tasks.values()].reverse();
  }

  /** One task. */
  get(taskId: string): InspectedTask | undefined {
    return this.#tasks.get(taskId);
  }

  /** Reads one frame of the connection. */
  frame(frame: RecordedFrame): void {
    const message = frame.message;
    if (!isObject(message)) return;
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? String(message.id) : '';
    if (frame.direction === 'out') {
      if (typeof message.method !== 'string' || id === '') return;
      if (this.#open.size >= MAX_OPEN_REQUESTS) this.#open.delete(this.#open.keys().next().value ?? '');
      this.#open.set(id, { method: message.method, params: isObject(message.params) ? message.params : {} });
      return;
    }
    if (typeof message.method === 'string')
      return this.#notification(message.method, message.params, frame.at);
    const request = this.#open.get(id);
    if (!request) return;
    this.#open.delete(id);
    this.#answer(request, message, frame.at);
  }

  #notification(method: string, params: unknown, at: number): void {
    if (method !== 'notifications/tasks' && method !== 'notifications/tasks/status') return;
    const task = taskOf(params);
    if (task) this.#seen(task, at, {});
  }

  #answer(request: { method: string; params: Json }, message: Json, at: number): void {
    const { method, params } = request;
    const taskId = typeof params.taskId === 'string' ? params.taskId : undefined;
    if (isObject(message.error)) {
      if (method === 'tasks/result' && taskId) this.#update(taskId, { error: message.error });
      return;
    }
    const result = message.result;
    if (!isObject(result)) return;
    if (method === 'tools/call') {
      const created = result.resultType === 'task' || isObject(result.task) ? taskOf(result) : undefined;
      if (created) this.#seen(created, at, { toolName: String(params.name ?? ''), origin: 'created' });
    } else if (method === 'tasks/get' || method === 'tasks/cancel') {
      const task = taskOf(result);
      if (task) this.#seen(task, at, {});
    } else if (method === 'tasks/list' && Array.isArray(result.tasks)) {
      for (const item of result.tasks.slice(0, MAX_TASKS)) {
        const task = taskOf(item);
        if (task) this.#seen(task, at, {});
      }
    } else if (method === 'tasks/result' && taskId) {
      this.#update(taskId, { result });
    }
  }

  /** Notes a task as the server showed it at `at`. */
  #seen(task: Json, at: number, known: { toolName?: string; origin?: 'created' }): void {
    const taskId = String(task.taskId).slice(0, 200);
    let entry = this.#tasks.get(taskId);
    if (!entry) {
      if (this.#tasks.size >= MAX_TASKS) this.#tasks.delete(this.#tasks.keys().next().value ?? '');
      entry = { taskId, origin: known.origin ?? 'listed', era: this.#era, changes: [] };
      this.#tasks.set(taskId, entry);
    }
    if (known.toolName) entry.toolName = known.toolName.slice(0, 200);
    if (known.origin) entry.origin = known.origin;
    const status = text(task.status, 40) ?? 'unknown';
    const statusMessage = text(task.statusMessage, MAX_MESSAGE);
    const last = entry.changes.at(-1);
    if (!last || last.status !== status || last.statusMessage !== statusMessage) {
      entry.changes.push({ at, status, ...(statusMessage === undefined ? {} : { statusMessage }) });
      if (entry.changes.length > MAX_CHANGES) entry.changes.splice(1, 1); // keep the first
    }
    if (typeof task.pollIntervalMs === 'number') entry.pollIntervalMs = task.pollIntervalMs;
    else if (typeof task.pollInterval === 'number') entry.pollIntervalMs = task.pollInterval;
    if (typeof task.ttlMs === 'number' || task.ttlMs === null) entry.ttlMs = task.ttlMs;
    else if (typeof task.ttl === 'number' || task.ttl === null) entry.ttlMs = task.ttl;
    if (status === 'input_required' && task.inputRequests !== undefined)
      entry.inputRequests = task.inputRequests;
    else delete entry.inputRequests;
    if (isObject(task.result)) entry.result = task.result;
    if (isObject(task.error)) entry.error = task.error;
    this.#emit(entry);
  }

  #update(taskId: string, outcome: { result?: unknown; error?: unknown }): void {
    const entry = this.#tasks.get(taskId);
    if (!entry) return;
    Object.assign(entry, outcome);
    this.#emit(entry);
  }
}
