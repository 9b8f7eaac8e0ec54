/**
 * Tasks in Durable Objects: {@link createDurableTaskStore} is the `TaskStore` of a Worker,
 * and {@link taskObject} the class that keeps one task per object (`idFromName(taskId)`), so a
 * `tasks/get`, `tasks/update` or `tasks/cancel` reaching any isolate finds the task. Changes
 * are compare-and-set on a version, so two isolates never overwrite each other's change. The
 * isolate running a task polls it while it runs, and hears answers and cancellation that
 * arrived elsewhere; a task expires with its TTL (the object's alarm deletes it).
 * Source: SEP-2663 "Task Creation" (durable before the result), "Task Polling", "Task Cancellation".
 */
import {
  LocalError,
  isTerminalStatus,
  type TaskSignal,
  type TaskState,
  type TaskStore,
} from '../../core/index.js';
import { storedTasksRefusal } from '../../core/runtime.js';
import type { DurableObjectNamespace, DurableObjectState } from './types.js';

/** A task as its object stores it, with the version compare-and-set checks. */
interface Stored {
  task: TaskState;
  version: number;
}

/** Options of {@link createDurableTaskStore}. */
export interface DurableTaskStoreOptions {
  /** Milliseconds between polls of the tasks this isolate runs (default 500). */
  pollMs?: number;
  /**
   * Most unexpired tasks (running and finished) one principal holds at once (default 1 000).
   * A new task beyond it is refused with -32600 `TooManyRequests` (HTTP 429) and
   * `data: { limit: 'maxStoredTasksPerPrincipal', max }`; no stored task is evicted. Counted
   * by one object per principal (`idFromName('holder:' + key)`) of the same class.
   */
  maxStoredTasksPerPrincipal?: number;
}

const ORIGIN = 'https://task.object';
/** Most compare-and-set attempts before a change gives up (each retry re-reads). */
const MAX_ATTEMPTS = 20;

/**
 * Creates the task store over `namespace`, the binding of a {@link taskObject} class.
 * @throws LocalError `CONNECTION_CLOSED` from a call when the object cannot be reached.
 */
export function createDurableTaskStore(
  namespace: DurableObjectNamespace,
  options: DurableTaskStoreOptions = {},
): TaskStore {
  const call = async (taskId: string, op: string, body: unknown): Promise<unknown> => {
    const stub = namespace.get(namespace.idFromName(taskId));
    const response = await stub.fetch(
      new Request(`${ORIGIN}/${op}`, { method: 'POST', body: JSON.stringify(body) }),
    );
    if (!response.ok)
      throw new LocalError('CONNECTION_CLOSED', `task store: ${op} answered ${response.status}`);
    return response.json();
  };
  const read = (taskId: string) => call(taskId, 'get', {}) as Promise<Stored | null>;
  const listeners = new Set<(signal: TaskSignal) => void>();
  const emit = (signal: TaskSignal): void => {
    for (const listener of [...listeners]) listener(signal);
  };
  const watcher = watch(read, emit, options.pollMs ?? 500);
  const max = options.maxStoredTasksPerPrincipal ?? 1000;
  if (!(max >= 1))
    throw new RangeError('createDurableTaskStore: maxStoredTasksPerPrincipal must be at least 1');
  return {
    async create(task) {
      const holder = task.internal.holder;
      if (holder) {
        const reserve = { taskId: task.taskId, expiresAt: task.ttlMs === null ? null : expiry(task), max };
        if (!(await call(`holder:${holder}`, 'reserve', reserve))) throw storedTasksRefusal(max);
      }
      await call(task.taskId, 'put', { task, expected: null });
      watcher.add(task);
    },
    get: async (taskId) => (await read(taskId))?.task,
    update: (taskId, change) => updateTask(read, call, { taskId, change }),
    async signal(signal) {
      emit(signal);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

async function updateTask(
  read: (taskId: string) => Promise<Stored | null>,
  call: (taskId: string, op: string, body: unknown) => Promise<unknown>,
  { taskId, change }: { taskId: string; change: (task: TaskState) => TaskState | undefined },
): Promise<TaskState | undefined> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const stored = await read(taskId);
    if (!stored) return undefined;
    const next = change(structuredClone(stored.task));
    if (!next) return stored.task;
    if (await call(taskId, 'put', { task: next, expected: stored.version })) return next;
  }
  throw new LocalError(
    'LIMIT_EXCEEDED',
    `task ${taskId} kept changing under ${MAX_ATTEMPTS} attempts to update it`,
  );
}

/**
 * Polls the tasks this isolate started until they finish, turning what changed elsewhere
 * into signals: new answers (`responses`) and cancellation (`cancelled`).
 */
function watch(
  read: (taskId: string) => Promise<Stored | null>,
  emit: (signal: TaskSignal) => void,
  pollMs: number,
): { add(task: TaskState): void } {
  const answered = new Map<string, number>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = async (): Promise<void> => {
    timer = undefined;
    await Promise.all(
      [...answered].map(async ([taskId, known]) => {
        const stored = await read(taskId).catch(() => undefined);
        if (stored === undefined) return;
        const task = stored?.task;
        const count = task ? Object.keys(task.internal.answers).length : 0;
        if (count > known) emit({ taskId, kind: 'responses' });
        if (task?.status === 'cancelled') emit({ taskId, kind: 'cancelled' });
        if (!task || isTerminalStatus(task.status)) answered.delete(taskId);
        else answered.set(taskId, count);
      }),
    );
    schedule();
  };
  const schedule = (): void => {
    if (timer === undefined && answered.size > 0) timer = setTimeout(() => void poll(), pollMs);
  };
  return {
    add(task) {
      answered.set(task.taskId, Object.keys(task.internal.answers).length);
      schedule();
    },
  };
}

/** The shape of the class {@link taskObject} returns, as wrangler instantiates it. */
export interface TaskObjectClass {
  new (
    state: DurableObjectState,
    env: unknown,
  ): {
    fetch(request: Request): Promise<Response>;
    alarm(): Promise<void>;
  };
}

/**
 * Makes the Durable Object class that holds one task; export it from the Worker module under
 * the class name the wrangler config binds, and pass the binding to {@link createDurableTaskStore}.
 */
export function taskObject(): TaskObjectClass {
  return class McpTaskObject {
    readonly #state: DurableObjectState;

    constructor(state: DurableObjectState) {
      this.#state = state;
    }

    /** `get` → the stored task or null; `put` → true when `expected` matched the version. */
    async fetch(request: Request): Promise<Response> {
      const op = new URL(request.url).pathname;
      const storage = this.#state.storage;
      if (op === '/reserve') return Response.json(await reserve(storage, await request.json()));
      const stored = (await storage.get<Stored>('task')) ?? null;
      const live = stored && expiry(stored.task) > Date.now() ? stored : null;
      if (op === '/get') return Response.json(live);
      if (op !== '/put') return new Response('Not Found', { status: 404 });
      const { task, expected } = (await request.json()) as { task: TaskState; expected: number | null };
      if ((live?.version ?? null) !== expected) return Response.json(false);
      await storage.put('task', { task, version: (expected ?? 0) + 1 } satisfies Stored);
      if (expected === null && task.ttlMs !== null) await storage.setAlarm(expiry(task));
      return Response.json(true);
    }

    /** The task's TTL ended: it is gone. */
    async alarm(): Promise<void> {
      await this.#state.storage.deleteAll();
    }
  };
}

/**
 * A principal's object: records `taskId` until `expiresAt` unless `max` unexpired tasks are
 * recorded already (expired ones are dropped first). True when recorded.
 */
async function reserve(storage: DurableObjectState['storage'], body: unknown): Promise<boolean> {
  const { taskId, expiresAt, max } = body as { taskId: string; expiresAt: number | null; max: number };
  const now = Date.now();
  const held = ((await storage.get<Record<string, number | null>>('held')) ?? {}) as Record<
    string,
    number | null
  >;
  const live = Object.entries(held).filter(([, until]) => until === null || until > now);
  if (live.length >= max) return false;
  await storage.put('held', Object.fromEntries([...live, [taskId, expiresAt]]));
  return true;
}

function expiry(task: TaskState): number {
  return task.ttlMs === null ? Infinity : Date.parse(task.createdAt) + task.ttlMs;
}
