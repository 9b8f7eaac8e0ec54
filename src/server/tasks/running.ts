/**
 * One task running on this instance: the handler's context (its `ctx.elicit`, `ctx.sample`
 * and `ctx.listRoots` become `inputRequests` of the task and wait for `tasks/update`),
 * its cancellation signal, and its progress (shown as the task's `statusMessage`).
 * Source: SEP-2663 "Task Status" (input_required), "Task Update Requests",
 * "Task Cancellation"; notifications/progress are not sent for tasks.
 */
import {
  WireError,
  type Params,
  type RequestId,
  isTerminalStatus,
  type TaskInputRequest,
  type TaskState,
  type TaskStore,
  type ClientCapabilities,
  type Implementation,
} from '../../core/index.js';
import { addInputRequest, setOwn } from '../../core/runtime.js';
import type { AuthInfo } from '../context.js';
import {
  RequestScope,
  askThrough,
  enterModern,
  setServed,
  type InputAsker,
  type ScopeLine,
} from '../scope.js';
import type { ServedBy } from '../user-state.js';
import type { InputMethod } from '../mrtr.js';
import { checkInputAnswer } from '../answers.js';

/** What a running task needs from its runner. */
export interface RunningTaskInit {
  store: TaskStore;
  task: TaskState;
  requestId: RequestId;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  authInfo: AuthInfo | undefined;
  /** The server's per-request settings (`limits.schema` bounds elicitation `requestedSchema`s). */
  served?: ServedBy | undefined;
  /** Tells every instance the task changed (for `notifications/tasks`). */
  changed(task: TaskState): void;
}

const PREFIX: Record<InputMethod, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** The live side of a task on the instance that runs its handler. */
export class RunningTask implements ScopeLine, InputAsker {
  readonly id: string;
  readonly controller = new AbortController();
  readonly #init: RunningTaskInit;
  readonly #answers: Record<string, unknown>;
  readonly #waiters = new Map<string, { resolve: (v: Params) => void; reject: (e: unknown) => void }>();
  /** Input requests asked this turn, added by one store change (see #added). */
  readonly #batch: { key: string; request: TaskInputRequest }[] = [];
  #flush: Promise<{ next: TaskState | undefined; now: Date }> | undefined;
  readonly #counts = new Map<string, number>();

  constructor(init: RunningTaskInit) {
    this.#init = init;
    this.id = init.task.taskId;
    this.#answers = { ...init.task.internal.answers };
    this.controller.signal.addEventListener('abort', () => this.#rejectAll(), { once: true });
  }

  /** The scope the handler runs in: modern, its input requests and progress go to the task. */
  scope(): RequestScope {
    const init = this.#init;
    const meta = init.task.internal.call?.meta ?? {};
    const call = { id: init.requestId, method: 'tools/call', params: { _meta: meta } };
    const scope = new RequestScope(call, this, { authInfo: init.authInfo });
    setServed(scope, init.served);
    enterModern(scope, {
      meta,
      protocolVersion: init.protocolVersion,
      clientCapabilities: init.clientCapabilities,
      clientInfo: init.clientInfo,
      logLevel: undefined,
    });
    askThrough(scope, this);
    return scope;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The answers known so far (`tasks/update`). */
  get known(): Readonly<Record<string, unknown>> {
    return this.#answers;
  }

  /**
   * Asks the client through the task; resolves once `tasks/update` answers the key. An
   * answer recorded before (the `prepare` phase, an earlier run) is checked against the
   * question as asked now; one that does not fit it is forgotten and asked again.
   */
  async ask(method: InputMethod, params: Params, key?: string): Promise<Params> {
    const k = key ?? this.#autoKey(method);
    const question = { method, params, limits: this.#init.served?.schema };
    if (Object.hasOwn(this.#answers, k)) {
      const fits = await checkInputAnswer(question, this.#answers[k], k).then(
        () => true,
        () => false,
      );
      if (fits) return this.#answers[k] as Params;
      Reflect.deleteProperty(this.#answers, k);
    }
    const answer = new Promise<Params>((resolve, reject) => this.#waiters.set(k, { resolve, reject }));
    const { next, now } = await this.#added(k, { method, params });
    if (!next) this.#waiters.get(k)?.reject(gone(this.id));
    else if (Object.hasOwn(next.internal.answers, k)) this.#resolve(k, next.internal.answers[k]);
    else if (next.lastUpdatedAt === now.toISOString()) this.#init.changed(next);
    return answer;
  }

  /**
   * Adds the input requests asked in the same turn (`Promise.all` of several `ctx.elicit`)
   * in one store change, so a client polling `tasks/get` sees them all at once, however slow
   * the store is.
   */
  #added(key: string, request: TaskInputRequest): Promise<{ next: TaskState | undefined; now: Date }> {
    this.#batch.push({ key, request });
    return (this.#flush ??= new Promise((turn) => setTimeout(turn, 0)).then(async () => {
      const batch = this.#batch.splice(0);
      this.#flush = undefined;
      const now = new Date();
      const next = await this.#init.store.update(this.id, (t) => {
        let changed: TaskState | undefined;
        for (const asked of batch) {
          const base = changed ?? t;
          const stale =
            Object.hasOwn(base.internal.answers, asked.key) && !Object.hasOwn(this.#answers, asked.key);
          changed = addInputRequest(stale ? forget(base, asked.key) : base, asked, now) ?? changed;
        }
        return changed;
      });
      return { next, now };
    }));
  }

  /** Hands over answers that arrived through `tasks/update` (on any instance). */
  deliver(answers: Record<string, unknown>): void {
    for (const key of [...this.#waiters.keys()])
      if (Object.hasOwn(answers, key)) this.#resolve(key, answers[key]);
  }

  #resolve(key: string, answer: unknown): void {
    setOwn(this.#answers, key, answer);
    this.#waiters.get(key)?.resolve(answer as Params);
    this.#waiters.delete(key);
  }

  #rejectAll(): void {
    for (const waiter of this.#waiters.values())
      waiter.reject(WireError.of('InternalError', 'Task was cancelled'));
    this.#waiters.clear();
  }

  /** Progress becomes the task's statusMessage; logs are not sent for tasks. */
  notify(method: string, params: Params): void {
    if (method !== 'notifications/progress') return;
    const { progress, total, message } = params as { progress?: number; total?: number; message?: string };
    const text = message ?? (total === undefined ? `progress ${progress}` : `progress ${progress}/${total}`);
    const now = new Date().toISOString();
    void this.#init.store
      .update(this.id, (t) =>
        isTerminalStatus(t.status) ? undefined : { ...t, statusMessage: text, lastUpdatedAt: now },
      )
      .then((t) => t && t.lastUpdatedAt === now && this.#init.changed(t))
      .catch(() => undefined);
  }

  #autoKey(method: InputMethod): string {
    const n = (this.#counts.get(method) ?? 0) + 1;
    this.#counts.set(method, n);
    return `${PREFIX[method]}-${n}`;
  }
}

/** The task without the recorded answer under `key` (it no longer fits the question asked). */
function forget(task: TaskState, key: string): TaskState {
  const answers = { ...task.internal.answers };
  Reflect.deleteProperty(answers, key);
  return { ...task, internal: { ...task.internal, answers } };
}

function gone(taskId: string): WireError {
  return WireError.of('InternalError', `Task ${taskId} no longer exists (expired or removed)`);
}
