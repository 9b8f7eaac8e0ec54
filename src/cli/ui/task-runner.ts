/**
 * What the inspector does with tasks (Tasks view): calls that allow a task on both eras, and
 * the tasks it follows to their end, polling them and answering their input requests
 * through the client's handlers; `tasks/list` (legacy), look-up by id and cancel. What it
 * learns is on the {@link TaskBoard}, read off the connection's frames.
 * Sources: the Tasks extension (SEP-2663) on the modern era, 2025-11-25
 * basic/utilities/tasks on the legacy one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { TaskHandle, tasksExtension, type Client } from '../../client/index.js';
import type { ClientSettings } from './settings.js';
import { TaskBoard, TERMINAL, type InspectedTask } from './tasks.js';

/** Most tasks followed at once (polled until they end). */
const MAX_FOLLOWED = 50;
/** Bounds of the poll interval of a legacy task, whatever the server suggests (ms). */
const POLL_MS = { min: 200, max: 5000, fallback: 1000 };
/** Longest wait for a legacy task's `tasks/result` (ms). */
const TASK_RESULT_TIMEOUT_MS = 30 * 60_000;
/** Pages of `tasks/list` fetched at most. */
const MAX_TASK_PAGES = 10;
/** Where a legacy server names the task a request belongs to (2025-11-25 basic/utilities/tasks). */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** The tasks of the inspector's connection. */
export class TaskRunner {
  /** Every task this connection created or learnt about. */
  readonly board: TaskBoard;
  readonly #client: () => Client;
  readonly #settings: () => ClientSettings;
  /** The tasks followed to their end, by task id. */
  readonly #followed = new Map<string, AbortController>();
  /** The task whose input requests a handler is answering (modern task handles). */
  readonly #scope = new AsyncLocalStorage<string>();

  /** `emit` gets each changed task; `client` is the live client (throws when not connected). */
  constructor(setup: {
    emit: (task: InspectedTask) => void;
    client: () => Client;
    settings: () => ClientSettings;
  }) {
    this.board = new TaskBoard(setup.emit);
    this.#client = setup.client;
    this.#settings = setup.settings;
  }

  /** The task a server request (elicitation, sampling) belongs to, when it belongs to one. */
  taskOf(params: unknown): string | undefined {
    return this.#scope.getStore() ?? relatedTask(params);
  }

  /** Stops following every task (the connection is closing). */
  stop(): void {
    for (const controller of this.#followed.values()) controller.abort();
    this.#followed.clear();
  }

  /**
   * `tools/call` that allows a task. Modern: the call declares the Tasks extension (when
   * advertised, see {@link ClientSettings}) and a task answer is followed through its handle
   * (SEP-2663). Legacy: the call carries the `task` field (2025-11-25 basic/utilities/tasks
   * "Creating Tasks") and the task is followed with `tasks/get` and `tasks/result`.
   * Resolves with `{ task: { taskId } }`, or the tool result when the server ran it at once.
   */
  async call(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onprogress: (update: object) => void },
  ): Promise<unknown> {
    const client = this.#client();
    if (client.era === 'legacy') {
      const created = await client.request(
        'tools/call',
        { name, arguments: args, task: {} } as never,
        options,
      );
      const task = (created as { task?: { taskId?: unknown } }).task;
      if (typeof task?.taskId !== 'string') return created;
      this.#followLegacy(client, task.taskId);
      return { task: { taskId: task.taskId } };
    }
    if (!this.#settings().extensions.includes(tasksExtension.id)) return client.callTool(name, args, options);
    const outcome = await client.callTool(name, args, { ...options, task: 'allow' });
    if (!(outcome instanceof TaskHandle)) return outcome;
    this.#followModern(outcome);
    return { task: { taskId: outcome.taskId } };
  }

  /**
   * Follows a modern task to its end through its handle, which polls `tasks/get` and
   * answers input requests through the handlers (the scope tags them with the task).
   */
  #followModern(handle: TaskHandle): void {
    const signal = this.#follow(handle.taskId);
    if (!signal) return;
    void this.#scope
      .run(handle.taskId, () => handle.result({ signal }))
      .catch(() => undefined)
      .finally(() => this.#followed.delete(handle.taskId));
  }

  /** Starts following `taskId`: the signal that stops it, or undefined when too many are followed. */
  #follow(taskId: string): AbortSignal | undefined {
    if (this.#followed.size >= MAX_FOLLOWED || this.#followed.has(taskId)) return undefined;
    const controller = new AbortController();
    this.#followed.set(taskId, controller);
    return controller.signal;
  }

  /**
   * Follows a legacy task: `tasks/result` at once (the server sends the requests the task
   * needs on it, and it answers when the task ends) and `tasks/get` at the poll interval
   * for its status over time, until it ends.
   */
  #followLegacy(client: Client, taskId: string): void {
    const signal = this.#follow(taskId);
    if (!signal) return;
    const stop = () => this.#followed.get(taskId)?.abort();
    void client
      .request('tasks/result' as never, { taskId } as never, {
        signal,
        timeoutMs: TASK_RESULT_TIMEOUT_MS,
      })
      .catch(() => undefined);
    void (async () => {
      while (!signal.aborted) {
        const task = await client.request('tasks/get' as never, { taskId } as never, { signal });
        const { status, pollInterval } = task as { status?: unknown; pollInterval?: unknown };
        if (typeof status === 'string' && TERMINAL.has(status)) break;
        const wanted = typeof pollInterval === 'number' ? pollInterval : POLL_MS.fallback;
        const wait = Math.min(POLL_MS.max, Math.max(POLL_MS.min, wanted));
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    })()
      .catch(() => undefined)
      // tasks/result may still be on its way back: let it land before forgetting the task.
      .finally(() => setTimeout(() => (stop(), this.#followed.delete(taskId)), 5000).unref());
  }

  /**
   * `tasks/list` (legacy servers that declare `tasks.list`; every page up to
   * {@link MAX_TASK_PAGES}): the tasks appear on the board.
   * @throws Error on a modern server: the Tasks extension has no `tasks/list` (SEP-2663).
   */
  async list(): Promise<InspectedTask[]> {
    const client = this.#client();
    if (client.era !== 'legacy')
      throw new Error('the Tasks extension has no tasks/list (SEP-2663): look a task up by its id instead');
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TASK_PAGES; page++) {
      const params = cursor === undefined ? {} : { cursor };
      const result = (await client.request('tasks/list' as never, params as never)) as {
        nextCursor?: unknown;
      };
      if (typeof result.nextCursor !== 'string') break;
      cursor = result.nextCursor;
    }
    return this.board.list();
  }

  /**
   * Reads a task by id (`tasks/get`): a task of another client or of another instance of a
   * fleet appears on the board this way.
   * @throws the server's error for an unknown task.
   */
  async lookUp(taskId: string): Promise<InspectedTask | undefined> {
    const client = this.#client();
    if (client.era === 'legacy') {
      await client.request('tasks/get' as never, { taskId } as never);
    } else {
      const handle = client.resumeTask({ taskId, toolName: this.board.get(taskId)?.toolName ?? '' });
      const task = await handle.status();
      // A task still running is followed from here on, as one this client created.
      if (!TERMINAL.has(task.status)) this.#followModern(handle);
    }
    return this.board.get(taskId);
  }

  /** Asks the server to cancel a task (`tasks/cancel`), then reads its status once. */
  async cancel(taskId: string): Promise<InspectedTask | undefined> {
    const client = this.#client();
    if (client.era === 'legacy') {
      await client.request('tasks/cancel' as never, { taskId } as never);
    } else {
      const handle = client.resumeTask({ taskId, toolName: this.board.get(taskId)?.toolName ?? '' });
      await handle.cancel();
      await handle.status();
    }
    return this.board.get(taskId);
  }
}

/** The task a legacy server request belongs to, from its related-task `_meta`. */
function relatedTask(params: unknown): string | undefined {
  const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const related = meta?.[RELATED_TASK] as { taskId?: unknown } | undefined;
  return typeof related?.taskId === 'string' ? related.taskId.slice(0, 200) : undefined;
}
