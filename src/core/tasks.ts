/**
 * The Tasks extension (`io.modelcontextprotocol/tasks`): the task record a server keeps,
 * the {@link TaskStore} interface any backend implements (in memory here, Redis at the
 * edge), and the pure state transitions every backend applies the same way.
 * Source: SEP-2663 (extensions/sep-2663-tasks-extension.md) "Tasks", "Task Status",
 * "Task Update Requests", "Task Cancellation", "Task Status Notifications".
 */
import { WireError, type ErrorObject } from './errors.js';
import type { Params } from './jsonrpc.js';
import { setOwn } from './own-keys.js';

/** The extension identifier, as declared under `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The status of a task. `completed`, `failed` and `cancelled` are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** True for the statuses a task never leaves. */
export function isTerminalStatus(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** One outstanding input request of a task (same shape as an MRTR input request). */
export interface TaskInputRequest {
  method: string;
  params: Params;
}

/** What the server remembers about a task besides its wire fields; never sent. */
export interface TaskBookkeeping {
  /** Answers received through `tasks/update` (or gathered before the task), by key. */
  answers: Record<string, unknown>;
  /** The instance running the task and until when (ms since epoch) its lease holds. */
  owner?: string;
  leaseUntil?: number;
  /** The tool call the task runs, kept so another instance can run it again. */
  call?: { name: string; arguments: Params; meta: Params };
  /** May the call run again from the start after its instance died? */
  retrySafe?: boolean;
  /** Who created the task; only they may read, update or cancel it. */
  principal?: string;
  /**
   * Whom the store's per-principal bound of stored tasks counts this task against: the
   * caller's principal key (identity, else on HTTP the peer's address group). Absent or
   * empty: the task counts only against the store's global bound.
   */
  holder?: string;
}

/** A task as a store keeps it: the wire fields plus {@link TaskBookkeeping}. */
export interface TaskState {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** Milliseconds from creation the task is kept; null for unlimited. */
  ttlMs: number | null;
  /** Suggested milliseconds between polls. */
  pollIntervalMs?: number;
  inputRequests?: Record<string, TaskInputRequest>;
  result?: Params;
  error?: ErrorObject;
  internal: TaskBookkeeping;
}

/** A change one instance tells the others about (through the store). */
export interface TaskSignal {
  taskId: string;
  /** `changed`: new status (with `task`, the DetailedTask); `responses`: new answers; `cancelled`. */
  kind: 'changed' | 'responses' | 'cancelled';
  task?: Params;
}

/**
 * Where tasks live. A task exists once {@link create} resolved: a `tasks/get` on any
 * instance sharing the store must then find it (SEP-2663 "Task Creation").
 */
export interface TaskStore {
  /** Stores a new task, durably; expires it `ttlMs` after creation. */
  create(task: TaskState): Promise<void>;
  /** The task, or undefined when unknown or expired. */
  get(taskId: string): Promise<TaskState | undefined>;
  /**
   * Atomically replaces the task with `change(task)`; `change` returning undefined leaves
   * it as it is. Resolves with the task as stored afterwards (undefined when unknown).
   */
  update(taskId: string, change: (task: TaskState) => TaskState | undefined): Promise<TaskState | undefined>;
  /** Tells every instance sharing the store (this one included). */
  signal(signal: TaskSignal): Promise<void>;
  /** Hears every signal; returns the function that stops listening. */
  subscribe(listener: (signal: TaskSignal) => void): () => void;
  /**
   * Ids of unfinished tasks whose lease ended before `now` (ms). Only stores shared
   * between processes need it; without it leases are not tracked.
   */
  expiredLeases?(now: number): Promise<string[]>;
}

/**
 * The refusal of a new task whose principal already holds `max` unexpired tasks in the store
 * (running and finished): -32600 `TooManyRequests` (HTTP 429) with
 * `data: { limit: 'maxStoredTasksPerPrincipal', max }`. Every task store refuses this way
 * instead of evicting another principal's unexpired results (SEP-2663 "Task Polling": a task
 * is discarded after its TTL).
 */
export function storedTasksRefusal(max: number): WireError {
  return WireError.of(
    'TooManyRequests',
    `Too Many Requests: this client holds ${max} unexpired tasks (maxStoredTasksPerPrincipal); ` +
      'a task is discarded only after its ttlMs',
    { limit: 'maxStoredTasksPerPrincipal', max },
  );
}

/** The task as `tasks/get` and `notifications/tasks` show it (a DetailedTask, no bookkeeping). */
export function detailedTask(task: TaskState): Params {
  const { internal: _internal, ...wire } = task;
  if (wire.status !== 'input_required') delete wire.inputRequests;
  if (wire.status !== 'completed') delete wire.result;
  if (wire.status !== 'failed') delete wire.error;
  return wire;
}

/** The `CreateTaskResult` of a new task: the Task fields only, `resultType: "task"`. */
export function createTaskResult(task: TaskState): Params {
  const out: Params = {
    resultType: 'task',
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
  };
  if (task.statusMessage !== undefined) out.statusMessage = task.statusMessage;
  if (task.pollIntervalMs !== undefined) out.pollIntervalMs = task.pollIntervalMs;
  return out;
}

/**
 * Records `responses` for the keys still outstanding (others are ignored, per
 * "Task Update Requests"); the task goes back to `working` once none is left.
 * Returns undefined when nothing changes.
 */
export function applyResponses(
  task: TaskState,
  responses: Record<string, unknown>,
  now: Date,
): TaskState | undefined {
  const pending = { ...(task.inputRequests ?? {}) };
  const answers = { ...task.internal.answers };
  let changed = false;
  for (const [key, value] of Object.entries(responses)) {
    if (!Object.hasOwn(pending, key) || typeof value !== 'object' || value === null || Array.isArray(value))
      continue;
    delete pending[key];
    setOwn(answers, key, value);
    changed = true;
  }
  if (!changed || isTerminalStatus(task.status)) return undefined;
  const next: TaskState = {
    ...task,
    lastUpdatedAt: now.toISOString(),
    internal: { ...task.internal, answers },
  };
  if (Object.keys(pending).length === 0) {
    delete next.inputRequests;
    if (next.status === 'input_required') next.status = 'working';
  } else next.inputRequests = pending;
  return next;
}

/**
 * Moves an unfinished task to a terminal status (with `statusMessage` when the outcome
 * carries one); undefined when it already ended.
 */
export function settle(
  task: TaskState,
  outcome: (
    | { status: 'completed'; result: Params }
    | { status: 'failed'; error: ErrorObject }
    | { status: 'cancelled' }
  ) & { statusMessage?: string },
  now: Date,
): TaskState | undefined {
  if (isTerminalStatus(task.status)) return undefined;
  const next: TaskState = { ...task, ...outcome, lastUpdatedAt: now.toISOString() };
  delete next.inputRequests;
  const { owner: _o, leaseUntil: _l, ...internal } = task.internal;
  next.internal = internal;
  return next;
}

/** Adds an input request (under `key`) the running handler is waiting on; the task becomes `input_required`. */
export function addInputRequest(
  task: TaskState,
  asked: { key: string; request: TaskInputRequest },
  now: Date,
): TaskState | undefined {
  const { key, request } = asked;
  if (isTerminalStatus(task.status) || Object.hasOwn(task.internal.answers, key)) return undefined;
  return {
    ...task,
    status: 'input_required',
    inputRequests: { ...(task.inputRequests ?? {}), [key]: request },
    lastUpdatedAt: now.toISOString(),
  };
}

/** Milliseconds since epoch after which a task may be discarded; Infinity for unlimited. */
export function expiresAt(task: TaskState): number {
  return task.ttlMs === null ? Infinity : Date.parse(task.createdAt) + task.ttlMs;
}

/** A task as `tasks/get` and `notifications/tasks` show it on the wire (SEP-2663 "Task Polling"). */
export interface TaskView extends Params {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  pollIntervalMs?: number;
  /** The tool result, when `completed`. */
  result?: Params;
  /** The JSON-RPC error object, when `failed`. */
  error?: Params;
  /** The input the task waits for, by key, when `input_required`. */
  inputRequests?: Params;
}

/** The params of `tasks/update` (SEP-2663 "Task Update Requests"). */
export interface UpdateTaskParams {
  taskId: string;
  inputResponses: Params;
}
