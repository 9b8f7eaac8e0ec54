/**
 * The Tasks extension on the modern wire: which `tools/call` becomes a task, the
 * `tasks/get`, `tasks/update` and `tasks/cancel` methods, the -32021 gate for clients
 * that did not negotiate the extension, and `taskIds` on `subscriptions/listen`.
 * Source: SEP-2663 "Capability Negotiation", "Task Polling", "Task Update Requests",
 * "Task Cancellation", "Task Status Notifications", "Error Handling".
 */
import {
  WireError,
  type Params,
  createMemoryTaskStore,
  TASKS_EXTENSION,
  applyResponses,
  detailedTask,
  type TaskState,
} from '../../core/index.js';
import {
  missingCapabilityError,
  principalOf,
  isObject,
  type RequestStateSealer,
  settle,
  principalKey,
} from '../../core/runtime.js';
import { checkInputAnswer, isAskedMethod } from '../answers.js';
import type { RequestContext } from '../context.js';
import type { ListenContribution, ServerExtension } from '../extension.js';
import { bindingOf, modernOf, requestOf, scopeOf, type RequestScope } from '../scope.js';
import type { ServedBy } from '../user-state.js';
import type { ModernMeta } from '../modern.js';
import { openInputRound, settleRound } from '../mrtr.js';
import type { ServedTools } from '../catalogue/served.js';
import { TaskRunner, type CallTool, type TaskOptions } from './runner.js';

/** Most task ids one listen stream may follow. */
const MAX_LISTEN_TASKS = 1000;

/** The Tasks extension of one server. */
export class ServerTasks {
  readonly runner: TaskRunner;
  readonly #configured: boolean;
  readonly #tools: ServedTools;
  readonly #sealer: RequestStateSealer;

  constructor(init: {
    options: TaskOptions | undefined;
    /** Most tasks one principal has running on this instance. */
    maxPerPrincipal?: number | undefined;
    /** The server's per-request settings (`limits.schema`, which also bound elicitation `requestedSchema`s; user state). */
    served?: ServedBy | undefined;
    tools: ServedTools;
    sealer: RequestStateSealer;
    callTool: CallTool;
  }) {
    this.#configured = init.options !== undefined;
    this.#tools = init.tools;
    this.#sealer = init.sealer;
    const store = init.options?.store ?? createMemoryTaskStore();
    this.runner = new TaskRunner({
      store,
      options: init.options ?? {},
      callTool: init.callTool,
      maxPerPrincipal: init.maxPerPrincipal,
    });
    this.runner.served = init.served;
  }

  /** True when the server offers the extension (task options given, or a tool may run as a task). */
  get enabled(): boolean {
    return this.#configured || this.#tools.hasTaskTools;
  }

  /**
   * The extension as the server serves it (server/extension.ts): declared while
   * {@link enabled}, modern only; its task methods, a `tools/call` that runs as a task
   * (intercepted), and `taskIds` on a listen stream. A client that did not negotiate it
   * gets -32021 for a task method or a `required` tool (SEP-2663 "Error Handling").
   */
  extension(): ServerExtension {
    const method =
      (name: string) =>
      (params: Params, ctx: RequestContext): Promise<Params> =>
        this.#taskMethod(name, params, principalOf(ctx.auth));
    return {
      id: TASKS_EXTENSION,
      stage: 'beta',
      settings: () => (this.enabled ? {} : undefined),
      eras: ['modern'],
      methods: {
        'tasks/get': method('tasks/get'),
        'tasks/update': method('tasks/update'),
        'tasks/cancel': method('tasks/cancel'),
      },
      notNegotiated: () => tasksRequired(),
      intercept: (request, ctx) => {
        // Most servers have no task tool: a plain call then costs one flag read here.
        if (request.method !== 'tools/call' || !this.#tools.hasTaskTools) return undefined;
        const scope = scopeOf(ctx);
        return scope && this.#route(scope);
      },
      listen: (filter, ctx) => this.#listen(filter, ctx),
    };
  }

  /** A `tools/call` of a task tool, as a task; undefined when it runs as a plain call. */
  #route(scope: RequestScope): Promise<Params> | undefined {
    const meta = modernOf(scope);
    const policy = this.#tools.taskPolicy(requestOf(scope).params?.name, scope);
    if (!policy || !meta) return undefined;
    if (!negotiated(meta)) {
      if (policy.support === 'required') throw tasksRequired();
      return undefined;
    }
    return this.#startCall(scope, meta, principalOf(scope.auth));
  }

  /**
   * The task ids a listen request asks to follow (bounded), as a listen contribution.
   * @throws WireError -32021 when it asks without negotiating the extension; -32602 when malformed.
   */
  #listen(filter: Params, ctx: RequestContext): ListenContribution | undefined {
    const ids = filter.taskIds;
    if (ids === undefined) return undefined;
    if (!isObject(extensionSettingsOf(ctx))) throw tasksRequired();
    if (!Array.isArray(ids) || ids.length > MAX_LISTEN_TASKS || ids.some((id) => typeof id !== 'string'))
      throw WireError.of('InvalidParams', `taskIds must be an array of at most ${MAX_LISTEN_TASKS} task ids`);
    const taskIds = [...(ids as string[])];
    const principal = principalOf(ctx.auth);
    return {
      key: 'taskIds',
      value: taskIds,
      watch: (notify) => this.watch(taskIds, (task) => notify('notifications/tasks', task), principal),
    };
  }

  /**
   * Follows the tasks `ids` that belong to `principal` (the listener's; another's task stays
   * silent, as tasks/get would not find it): `emit` gets each new DetailedTask, in order.
   * Returns the unsubscribe function.
   */
  watch(ids: readonly string[], emit: (task: Params) => void, principal = ''): () => void {
    this.runner.listen();
    const owned = new Map<string, Promise<boolean>>(ids.map((id) => [id, this.#owns(id, principal)]));
    return this.runner.store.subscribe((s) => {
      const ok = owned.get(s.taskId);
      if (s.kind === 'changed' && s.task && ok) void ok.then((yes) => yes && emit(s.task!));
    });
  }

  #owns(taskId: string, principal: string): Promise<boolean> {
    return this.runner.find(taskId, principal).then(
      () => true,
      () => false,
    );
  }

  async #taskMethod(method: string, params: Params, principal: string): Promise<Params> {
    const task = await this.runner.find(params.taskId, principal);
    if (method === 'tasks/get') return detailedTask(task);
    if (method === 'tasks/update') return this.#update(task, params.inputResponses);
    const now = new Date();
    const next = await this.runner.store.update(task.taskId, (t) =>
      settle(t, { status: 'cancelled', statusMessage: 'Cancelled by the client' }, now),
    );
    await this.runner.store.signal({ taskId: task.taskId, kind: 'cancelled' });
    if (next && next.lastUpdatedAt === now.toISOString()) this.runner.changed(next);
    return {};
  }

  /**
   * Records answers to outstanding input requests. Each answer to a key still outstanding is
   * checked as an MRTR answer would be (elicitation content against `requestedSchema`, …);
   * one invalid answer refuses the whole update with -32602 and records nothing. Keys not
   * outstanding are ignored (SEP-2663 "Task Update Requests").
   */
  async #update(task: TaskState, responses: unknown): Promise<Params> {
    if (!isObject(responses))
      throw WireError.of(
        'InvalidParams',
        'inputResponses must be an object mapping input request keys to results',
      );
    const taskId = task.taskId;
    for (const [key, question] of Object.entries(task.inputRequests ?? {}))
      if (Object.hasOwn(responses, key) && isAskedMethod(question.method))
        await checkInputAnswer(
          { method: question.method, params: question.params, limits: this.runner.served?.schema },
          responses[key],
          `inputResponses.${key}`,
        );
    const now = new Date();
    const next = await this.runner.store.update(taskId, (t) => applyResponses(t, responses, now));
    if (next && next.lastUpdatedAt === now.toISOString()) {
      await this.runner.store.signal({ taskId, kind: 'responses' });
      this.runner.changed(next);
    }
    return {};
  }

  async #startCall(scope: RequestScope, meta: ModernMeta, principal: string): Promise<Params> {
    const request = requestOf(scope);
    const params = request.params ?? {};
    const name = params.name as string;
    const args = isObject(params.arguments) ? params.arguments : {};
    const policy = this.#tools.taskPolicy(name)!;
    let answers: Record<string, unknown> = {};
    const checked = policy.prepare ? await this.#tools.checkArgs(name, args) : undefined;
    if (policy.prepare && checked) {
      const prepare = policy.prepare;
      const round = await openInputRound(scope, this.#sealer);
      const prepared = (async () => {
        await prepare(checked.value as never, scope);
        answers = { ...scope.inputResponses };
        return {};
      })();
      const outcome = await settleRound(round, prepared);
      if (outcome.resultType === 'input_required') return outcome;
    }
    return this.runner.start({
      requestId: request.id,
      name,
      arguments: args,
      meta,
      principal,
      quotaKey: principalKey(scope.auth, bindingOf(scope).principal),
      authInfo: scope.auth,
      retrySafe: policy.retrySafe === true,
      answers,
    });
  }
}

function extensionSettingsOf(ctx: RequestContext): unknown {
  const extensions = ctx.clientCapabilities.extensions;
  return isObject(extensions) ? extensions[TASKS_EXTENSION] : undefined;
}

function negotiated(meta: ModernMeta): boolean {
  const extensions = meta.clientCapabilities.extensions;
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
}

function tasksRequired(): WireError {
  return missingCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } });
}
