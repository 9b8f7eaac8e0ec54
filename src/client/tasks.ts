/**
 * The client side of the Tasks extension: a handle on a task a server created for a
 * `tools/call`. It reads the task (`tasks/get`), waits for its end by polling at the
 * server's `pollIntervalMs` or by riding `notifications/tasks` on a listen stream,
 * answers mid-task input requests with the same handlers as MRTR (`tasks/update`), and
 * cancels it (`tasks/cancel`). Its {@link TaskReference} is plain JSON, to resume later.
 * The methods are those of the client's Tasks extension (`tasksExtension` in extension.ts),
 * sent through `client.request`, so the seam declares the extension on each of them.
 * Source: SEP-2663 "Task Polling", "Task Update Requests", "Task Cancellation",
 * "Task Status Notifications".
 */
import {
  WireError,
  LocalError,
  type ExtensionRequestMap,
  type JsonRpcNotification,
  type Params,
  type TaskView,
} from '../core/index.js';
import { isObject, sleep } from '../core/runtime.js';
import type { Subscription } from './subscription.js';

/** What is needed to pick a task up again (after a restart, in another process). */
export interface TaskReference {
  taskId: string;
  /** The tool the task runs (its `outputSchema` checks the result). */
  toolName: string;
  /** The poll interval the server suggested last, in milliseconds. */
  pollIntervalMs?: number;
}

/**
 * The reference of the task a `tools/call` of `toolName` created.
 * @throws LocalError `INVALID_RESULT` for a task result without a `taskId`.
 */
export function taskReferenceOf(toolName: string, created: Params): TaskReference {
  if (typeof created.taskId !== 'string')
    throw new LocalError('INVALID_RESULT', 'tools/call: a task result without a taskId');
  const reference: TaskReference = { taskId: created.taskId, toolName };
  if (typeof created.pollIntervalMs === 'number') reference.pollIntervalMs = created.pollIntervalMs;
  return reference;
}

/** What a handle needs from its client. */
export interface TaskPort {
  /** Sends a task method (the client's Tasks extension declares itself on it). */
  request<M extends 'tasks/get' | 'tasks/update' | 'tasks/cancel'>(
    method: M,
    params: ExtensionRequestMap[M]['params'],
  ): Promise<ExtensionRequestMap[M]['result']>;
  /** Answers input requests with the client's handlers; undefined when there are none. */
  answerInputs(
    label: string,
    inputRequests: unknown,
    signal: AbortSignal | undefined,
  ): Promise<Params | undefined>;
  /** Opens a listen stream following the task. */
  listen(taskId: string): Subscription;
  /** Checks a completed tool result (e.g. against the tool's outputSchema). */
  checkResult(toolName: string, result: Params): Promise<void>;
}

/** Options of {@link TaskHandle.result}. */
export interface TaskResultOptions {
  signal?: AbortSignal;
  /** Ride `notifications/tasks` on a listen stream instead of polling (polls still back it up). */
  notifications?: boolean;
}

/** Fallback poll while riding notifications, in case one was missed (milliseconds). */
const BACKSTOP_MS = 10_000;

/** A task running on the server for one of this client's tool calls. */
export class TaskHandle {
  readonly #port: TaskPort;
  readonly #reference: TaskReference;
  readonly #answered = new Set<string>();

  constructor(port: TaskPort, reference: TaskReference) {
    this.#port = port;
    this.#reference = { ...reference };
  }

  /** The task id. */
  get taskId(): string {
    return this.#reference.taskId;
  }

  /** A JSON-serialisable reference; `client.resumeTask(reference)` gives a handle back. */
  get reference(): TaskReference {
    return { ...this.#reference };
  }

  /** The task as the server shows it now (`tasks/get`: status, message, result or error). */
  async status(): Promise<TaskView> {
    const task = await this.#port.request('tasks/get', { taskId: this.taskId });
    if (typeof task.pollIntervalMs === 'number') this.#reference.pollIntervalMs = task.pollIntervalMs;
    return task;
  }

  /**
   * Waits for the task's end and returns the tool result. Input requests along the way
   * are answered with the client's handlers, once per key.
   * @throws WireError (the task's JSON-RPC error) when it failed; LocalError `ABORTED`
   *   when it was cancelled or `options.signal` aborted; handler errors.
   */
  async result(options: TaskResultOptions = {}): Promise<Params> {
    const listen = options.notifications ? this.#port.listen(this.taskId) : undefined;
    const updates = listen?.[Symbol.asyncIterator]();
    try {
      // Listening before the first read, so no change between the two is missed.
      if (listen) await listen.acknowledged;
      let task: Params = await this.status();
      for (;;) {
        const done = await this.#step(task, options.signal);
        if (done) return done;
        task = await this.#next(updates, options.signal);
      }
    } finally {
      listen?.close();
    }
  }

  /** Asks the server to cancel the task (cooperative; see {@link status} for the outcome). */
  async cancel(): Promise<void> {
    await this.#port.request('tasks/cancel', { taskId: this.taskId });
  }

  // Handles one observed state: the result, an error, or input to give.
  async #step(task: Params, signal: AbortSignal | undefined): Promise<Params | undefined> {
    switch (task.status) {
      case 'completed': {
        const result = isObject(task.result) ? task.result : {};
        await this.#port.checkResult(this.#reference.toolName, result);
        return result;
      }
      case 'failed':
        throw isObject(task.error) && typeof task.error.code === 'number'
          ? WireError.fromObject(task.error as never)
          : new LocalError('INVALID_RESULT', `task ${this.taskId} failed without an error object`);
      case 'cancelled':
        throw new LocalError('ABORTED', `task ${this.taskId} was cancelled`);
      case 'input_required':
        await this.#answer(task.inputRequests, signal);
        return undefined;
      default:
        return undefined;
    }
  }

  async #answer(inputRequests: unknown, signal: AbortSignal | undefined): Promise<void> {
    if (!isObject(inputRequests)) return;
    const fresh = Object.fromEntries(Object.entries(inputRequests).filter(([k]) => !this.#answered.has(k)));
    const answers = await this.#port.answerInputs('tasks/get', fresh, signal);
    if (!answers) return;
    for (const key of Object.keys(answers)) this.#answered.add(key);
    await this.#port.request('tasks/update', { taskId: this.taskId, inputResponses: answers });
  }

  // The next state: a notification for this task, or a poll after the interval.
  async #next(
    updates: AsyncIterator<JsonRpcNotification> | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Params> {
    const interval = this.#reference.pollIntervalMs ?? 1000;
    if (!updates) {
      await sleep(interval, signal);
      return this.status();
    }
    const timer = sleep(Math.max(interval, BACKSTOP_MS), signal).then(() => undefined);
    for (;;) {
      const next = await Promise.race([updates.next(), timer]);
      if (next === undefined || next.done) return this.status();
      const params = next.value.params;
      if (next.value.method === 'notifications/tasks' && params?.taskId === this.taskId) return params;
    }
  }
}
