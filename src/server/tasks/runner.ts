/**
 * Runs tool calls as tasks: creates the task durably before answering, runs the handler
 * with a task context, keeps its lease while it runs, settles it (completed with the tool
 * result, failed with a JSON-RPC error), and takes over or fails tasks whose instance
 * died (lease expired).
 * Source: SEP-2663 "Task Creation", "Task Status", "Error Handling"; DESIGN.md decision 11.
 */
import type { ServedBy } from '../user-state.js';
import {
  ERROR_TABLE,
  LocalError,
  WireError,
  type Params,
  type RequestId,
  createTaskResult,
  detailedTask,
  isTerminalStatus,
  type TaskSignal,
  type TaskState,
  type TaskStore,
} from '../../core/index.js';
import { settle, timerDelay } from '../../core/runtime.js';
import type { RequestContext } from '../context.js';
import type { ModernMeta } from '../modern.js';
import { RunningTask } from './running.js';
import { PrincipalQuota } from '../middleware/quotas.js';

/** Task settings of a server (`createServer({ tasks })`). */
export interface TaskOptions {
  /** Where tasks live (default: in memory, this process only). */
  store?: TaskStore;
  /** Milliseconds a task is kept after creation (default 1 hour); null keeps it forever. */
  ttlMs?: number | null;
  /** Suggested milliseconds between `tasks/get` polls (default 1000). */
  pollIntervalMs?: number;
  /** Milliseconds a running task's lease lasts; renewed every third of it (default 30 000). */
  leaseMs?: number;
  /** This instance's name in leases (default: a random id). */
  instanceId?: string;
}

/** One tool call to run as a task. */
export interface TaskCall {
  requestId: RequestId;
  name: string;
  arguments: Params;
  meta: ModernMeta;
  principal: string;
  /** Whom the per-principal task bound counts this task against ('' for nobody). */
  quotaKey?: string;
  authInfo: RequestContext['auth'];
  retrySafe: boolean;
  /** Answers gathered before the task (the tool's `prepare` phase), replayed by key. */
  answers: Record<string, unknown>;
}

/** How the runner calls a tool (validation included); resolves with the tool result. */
export type CallTool = (name: string, args: Params, ctx: RequestContext) => Promise<Params>;

/**
 * The task engine of one server instance. A principal may have at most `maxPerPrincipal`
 * tasks running here at once (default 1 000); one more is refused with -32600 (HTTP 429).
 */
export class TaskRunner {
  readonly store: TaskStore;
  readonly #options: Required<Omit<TaskOptions, 'store' | 'instanceId'>>;
  // Minted on first use: the first `crypto` access loads Node's WebCrypto, slow at startup.
  #instanceId: string | undefined;
  /** The server's per-request settings: `limits.schema` (applied to elicitations a task's handler sends), user state. */
  served: ServedBy | undefined;
  readonly #callTool: CallTool;
  readonly #running = new Map<string, RunningTask>();
  /** Each running handler's whole run here, settling included (see {@link idle}). */
  readonly #runs = new Set<Promise<void>>();
  /** Tasks with a lease store call (renewal, take-over) still pending. */
  readonly #storeBusy = new Set<string>();
  /** Until when the store last confirmed each running task's lease (ms). */
  readonly #confirmed = new Map<string, number>();
  readonly #timers: ReturnType<typeof setInterval>[] = [];
  #listing = false;
  #unsubscribe: (() => void) | undefined;
  readonly #quota: PrincipalQuota;

  constructor(init: {
    store: TaskStore;
    options: TaskOptions;
    callTool: CallTool;
    maxPerPrincipal?: number | undefined;
  }) {
    const { store, options, callTool, maxPerPrincipal = 1000 } = init;
    this.store = store;
    this.#callTool = callTool;
    this.#quota = new PrincipalQuota(maxPerPrincipal, 'running tasks (limits.maxTasksPerPrincipal)');
    this.#options = {
      ttlMs: options.ttlMs === undefined ? 3_600_000 : options.ttlMs,
      pollIntervalMs: options.pollIntervalMs ?? 1000,
      leaseMs: options.leaseMs ?? 30_000,
    };
    this.#instanceId = options.instanceId;
  }

  /** This instance's name in leases (`options.instanceId`, else a random id minted once). */
  #me(): string {
    return (this.#instanceId ??= crypto.randomUUID());
  }

  /** Creates the task (durably), starts its handler, and returns the `CreateTaskResult`. */
  async start(call: TaskCall): Promise<Params> {
    const release = this.#quota.acquire(call.quotaKey ?? '');
    try {
      return await this.#start(call, release);
    } catch (error) {
      release();
      throw error;
    }
  }

  async #start(call: TaskCall, release: () => void): Promise<Params> {
    this.#wake();
    const now = new Date().toISOString();
    const task: TaskState = {
      taskId: crypto.randomUUID(),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.#options.ttlMs,
      pollIntervalMs: this.#options.pollIntervalMs,
      internal: {
        answers: call.answers,
        owner: this.#me(),
        leaseUntil: Date.now() + this.#options.leaseMs,
        call: { name: call.name, arguments: call.arguments, meta: call.meta.meta as Params },
        retrySafe: call.retrySafe,
        principal: call.principal,
        ...(call.quotaKey ? { holder: call.quotaKey } : {}),
      },
    };
    await this.store.create(task);
    this.#run(task, call, release);
    return createTaskResult(task);
  }

  /** The task as its creator may see it. @throws WireError -32602 when unknown to this caller. */
  async find(taskId: unknown, principal: string): Promise<TaskState> {
    if (typeof taskId !== 'string' || taskId.length === 0 || taskId.length > 200)
      throw WireError.of('InvalidParams', 'taskId must be a non-empty string');
    const task = await this.store.get(taskId);
    if (!task || (task.internal.principal ?? '') !== principal)
      throw WireError.of('InvalidParams', 'Failed to retrieve task: Task not found');
    return task;
  }

  /** Publishes a task's new state to every instance (for `notifications/tasks`). */
  changed(task: TaskState): void {
    void this.store
      .signal({ taskId: task.taskId, kind: 'changed', task: detailedTask(task) })
      .catch(() => undefined);
  }

  /** Stops the lease timers and signal listening; aborts the handlers running here. */
  close(): void {
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    for (const running of this.#running.values())
      running.controller.abort(new LocalError('ABORTED', 'server closed'));
  }

  // Subscribes to signals and starts lease keeping on first use.
  #wake(): void {
    if (this.#unsubscribe) return;
    this.#unsubscribe = this.store.subscribe((s) => this.#onSignal(s));
    if (!this.store.expiredLeases) return;
    const every = (ms: number, f: () => Promise<void>): void => {
      const timer = setInterval(() => void f().catch(() => undefined), timerDelay(ms));
      (timer as { unref?: () => void }).unref?.();
      this.#timers.push(timer);
    };
    every(Math.max(50, Math.floor(this.#options.leaseMs / 3)), () => this.#renewLeases());
    every(Math.max(50, Math.floor(this.#options.leaseMs / 2)), () => this.#sweep());
  }

  /** Makes sure this instance hears signals (call before relying on them, e.g. on listen). */
  listen(): void {
    this.#wake();
  }

  #onSignal(signal: TaskSignal): void {
    const running = this.#running.get(signal.taskId);
    if (!running) return;
    if (signal.kind === 'cancelled')
      running.controller.abort(new LocalError('ABORTED', 'cancelled by the client'));
    if (signal.kind === 'responses')
      void this.store.get(signal.taskId).then((t) => t && running.deliver(t.internal.answers));
  }

  /** Runs `task`'s call for the request that made it (`origin`); `release` frees its quota slot. */
  #run(
    task: TaskState,
    origin: Pick<TaskCall, 'requestId' | 'authInfo'>,
    release: () => void = () => undefined,
  ): void {
    const { requestId, authInfo } = origin;
    const meta = task.internal.call?.meta ?? {};
    const running = new RunningTask({
      store: this.store,
      task,
      requestId,
      protocolVersion: String(meta['io.modelcontextprotocol/protocolVersion'] ?? ''),
      clientCapabilities: (meta['io.modelcontextprotocol/clientCapabilities'] ?? {}) as never,
      clientInfo: meta['io.modelcontextprotocol/clientInfo'] as never,
      authInfo,
      served: this.served,
      changed: (t) => this.changed(t),
    });
    this.#running.set(task.taskId, running);
    this.#confirmed.set(task.taskId, task.internal.leaseUntil ?? Infinity);
    const call = task.internal.call!;
    const run = this.#callTool(call.name, call.arguments, running.scope())
      .then(
        (result) => this.#settle(task.taskId, { status: 'completed', result: completeResult(result) }),
        (error: unknown) => this.#settle(task.taskId, failure(error)),
      )
      .finally(() => {
        this.#running.delete(task.taskId);
        this.#confirmed.delete(task.taskId);
        this.#runs.delete(run);
        release();
      });
    this.#runs.add(run);
  }

  /**
   * Resolves once no task handler runs here, counting those started while it waits: what a
   * platform that stops work after the response (Workers' `waitUntil`) must be handed.
   */
  async idle(): Promise<void> {
    while (this.#runs.size > 0) await Promise.allSettled([...this.#runs]);
  }

  async #settle(taskId: string, outcome: Parameters<typeof settle>[1]): Promise<void> {
    const now = new Date();
    const me = this.#me();
    const next = await this.store
      .update(taskId, (t) =>
        t.internal.owner === undefined || t.internal.owner === me ? settle(t, outcome, now) : undefined,
      )
      .catch(() => undefined);
    if (next && next.lastUpdatedAt === now.toISOString() && isTerminalStatus(next.status)) this.changed(next);
  }

  // Each task's renewal runs by itself: a store call that hangs or fails for one task holds
  // up no other's, and is not started again for that task while it is still pending. A task
  // whose lease ended unconfirmed stops here: another instance may be running it by now.
  async #renewLeases(): Promise<void> {
    const now = Date.now();
    for (const running of this.#running.values())
      if ((this.#confirmed.get(running.id) ?? Infinity) <= now)
        running.controller.abort(
          new LocalError('ABORTED', 'lease lost: the task store did not confirm its renewal in time'),
        );
    const until = now + this.#options.leaseMs;
    const idle = [...this.#running.values()].filter((running) => !this.#storeBusy.has(running.id));
    await Promise.all(idle.map((running) => this.#renew(running, until)));
  }

  async #renew(running: RunningTask, until: number): Promise<void> {
    const me = this.#me();
    const renewed = (t: TaskState): TaskState | undefined =>
      t.internal.owner === me && !isTerminalStatus(t.status)
        ? { ...t, internal: { ...t.internal, leaseUntil: until } }
        : undefined;
    const t = await this.#alone(running.id, () => this.store.update(running.id, renewed));
    if (t === 'failed') return; // the store did not answer: try again next time
    if (!t || t.internal.owner !== me) running.controller.abort(new LocalError('ABORTED', 'lease lost'));
    else if (this.#confirmed.has(running.id)) this.#confirmed.set(running.id, until);
  }

  // Tasks whose instance died: run them again here when retry-safe, else fail them. Like
  // renewals, one task's hung or failing store call holds up no other's.
  // A listing the store has not answered yet is not asked again, so a hung store gets one
  // pending call, not one more per period.
  async #sweep(): Promise<void> {
    if (this.#listing) return;
    const now = Date.now();
    this.#listing = true;
    const listed = await this.store.expiredLeases!(now).finally(() => (this.#listing = false));
    const expired = listed.filter((id) => !this.#storeBusy.has(id));
    await Promise.all(expired.map((id) => this.#takeOverExpired(id, now)));
  }

  async #takeOverExpired(id: string, now: number): Promise<void> {
    const next = await this.#alone(id, () => this.store.update(id, (t) => this.#takeOver(t, now)));
    if (next === 'failed') return;
    if (!next || next.internal.leaseUntil === undefined || this.#running.has(id)) {
      if (next && isTerminalStatus(next.status)) this.changed(next);
      return;
    }
    if (next.internal.owner === this.#me() && next.internal.leaseUntil > now) {
      this.changed(next);
      this.#run(next, { requestId: `${id}-retry`, authInfo: undefined });
    }
  }

  /** Runs a lease store call for task `id`, marked busy until it settles; 'failed' if it rejects. */
  async #alone<T>(id: string, work: () => Promise<T>): Promise<T | 'failed'> {
    this.#storeBusy.add(id);
    try {
      return await work();
    } catch {
      return 'failed';
    } finally {
      this.#storeBusy.delete(id);
    }
  }

  #takeOver(task: TaskState, now: number): TaskState | undefined {
    if (isTerminalStatus(task.status) || (task.internal.leaseUntil ?? Infinity) > now) return undefined;
    if (!task.internal.retrySafe || !task.internal.call) {
      const error = {
        code: ERROR_TABLE.InternalError.code,
        message: 'The server instance running this task stopped (its lease expired)',
      };
      return settle(task, { status: 'failed', error, statusMessage: error.message }, new Date(now));
    }
    const internal = {
      ...task.internal,
      owner: this.#me(),
      leaseUntil: now + this.#options.leaseMs,
    };
    const statusMessage = 'Restarted on another server instance after its instance stopped';
    return { ...task, internal, statusMessage, lastUpdatedAt: new Date(now).toISOString() };
  }
}

// The inlined result is what the call would have returned, so it is a complete result.
function completeResult(result: Params): Params {
  return { ...result, resultType: 'complete' };
}

function failure(error: unknown): {
  status: 'failed';
  error: { code: number; message: string; data?: unknown };
} {
  if (error instanceof WireError) return { status: 'failed', error: error.toJSON() };
  // Anything else stays internal, as it would on a plain request.
  return { status: 'failed', error: { code: ERROR_TABLE.InternalError.code, message: 'Internal error' } };
}
