/**
 * `taskIds` in a modern client's `subscriptions/listen` through the gateway. The gateway's
 * server knows no tasks of its own, so the middleware takes the task ids out of the filter
 * before the server sees it, adds those that verify for the caller (see task-ids.ts) to the
 * stream's acknowledgment, and then follows them with one listen per backend. Each
 * backend `notifications/tasks` goes on the client's stream under the gateway's task id and
 * the stream's subscription id. The backend listens end with the client's stream.
 * Source: SEP-2663 "Task Status Notifications"; 2026-07-28 basic/patterns/subscriptions.
 */
import {
  WireError,
  TASKS_EXTENSION,
  type MessageHandler,
  type McpMessage,
  type MiddlewareContext,
  type Params,
} from '../../core/index.js';
import { missingCapabilityError, principalOf } from '../../core/runtime.js';
import type { Subscription } from '../../client/index.js';
import type { Host } from '../host.js';
import { declaresTasks, type TaskIds, type TaskRoute } from './task-ids.js';

/** Most task ids one listen request may follow, as on a server of its own. */
const MAX_TASK_IDS = 1000;

/** The tasks one client stream follows, by gateway task id. */
class Followed {
  readonly routes: ReadonlyMap<string, TaskRoute>;
  readonly #subscriptions: Subscription[] = [];
  #closed = false;

  constructor(routes: ReadonlyMap<string, TaskRoute>) {
    this.routes = routes;
  }

  /** Opens one backend listen per server; `emit` gets each task update under the gateway id. */
  start(host: Host, emit: (task: Params) => void): void {
    const byServer = new Map<string, Map<string, string>>();
    for (const [id, route] of this.routes) {
      const ids = byServer.get(route.server) ?? new Map<string, string>();
      ids.set(route.taskId, id);
      byServer.set(route.server, ids);
    }
    for (const [server, ids] of byServer) {
      const client = host.clientOf(server);
      if (!client || this.#closed) continue;
      const subscription = client.listen({ taskIds: [...ids.keys()] });
      this.#subscriptions.push(subscription);
      void pump(subscription, ids, emit);
    }
  }

  close(): void {
    this.#closed = true;
    for (const s of this.#subscriptions) s.close();
  }
}

async function pump(
  subscription: Subscription,
  ids: ReadonlyMap<string, string>,
  emit: (task: Params) => void,
): Promise<void> {
  try {
    for await (const n of subscription) {
      const backendId = n.params?.taskId;
      const id = typeof backendId === 'string' ? ids.get(backendId) : undefined;
      if (n.method !== 'notifications/tasks' || id === undefined) continue;
      const { _meta, ...task } = n.params ?? {};
      emit({ ...task, taskId: id });
    }
  } catch {
    // The backend connection dropped: the client keeps polling tasks/get.
  }
}

/** The task-following part of the gateway's listen streams. */
export class TaskListens {
  readonly #host: Host;
  readonly #ids: TaskIds;
  /** By the signal of the client's listen request (the stream's outgoing messages carry it). */
  readonly #followed = new WeakMap<AbortSignal, Followed>();

  constructor(host: Host, ids: TaskIds) {
    this.#host = host;
    this.#ids = ids;
  }

  /**
   * An incoming listen request: its `taskIds` are taken out and followed here.
   * @throws WireError -32021 when it asks for tasks without declaring the extension; -32602 when malformed.
   */
  async incoming(
    message: McpMessage,
    ctx: MiddlewareContext,
    next: MessageHandler,
  ): Promise<Params | undefined> {
    const notifications = message.params?.notifications as Params | undefined;
    const taskIds = notifications?.taskIds;
    if (taskIds === undefined) return next(message, ctx);
    if (!declaresTasks(message.params))
      throw missingCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } });
    if (
      !Array.isArray(taskIds) ||
      taskIds.length > MAX_TASK_IDS ||
      taskIds.some((id) => typeof id !== 'string')
    )
      throw WireError.of('InvalidParams', `taskIds must be an array of at most ${MAX_TASK_IDS} task ids`);
    const principal = principalOf(ctx.auth);
    const routes = new Map<string, TaskRoute>();
    for (const id of taskIds as string[]) {
      const route = this.#ids.unwrap(id, principal);
      if (route) routes.set(id, route);
    }
    const followed = new Followed(routes);
    this.#followed.set(ctx.signal, followed);
    const { taskIds: _t, ...rest } = notifications as Params;
    try {
      return await next({ ...message, params: { ...message.params, notifications: rest } }, ctx);
    } finally {
      followed.close();
      this.#followed.delete(ctx.signal);
    }
  }

  /** An outgoing message: a followed stream's acknowledgment names its tasks, then they are followed. */
  async outgoing(
    message: McpMessage,
    ctx: MiddlewareContext,
    next: MessageHandler,
  ): Promise<Params | undefined> {
    const followed =
      message.method === 'notifications/subscriptions/acknowledged'
        ? this.#followed.get(ctx.signal)
        : undefined;
    if (!followed) return next(message, ctx);
    const params = message.params ?? {};
    const acknowledged = { ...(params.notifications as Params), taskIds: [...followed.routes.keys()] };
    const result = await next({ ...message, params: { ...params, notifications: acknowledged } }, ctx);
    const tag = params._meta as Params;
    followed.start(this.#host, (task) => {
      if (ctx.signal.aborted) return;
      void next(
        { kind: 'notification', method: 'notifications/tasks', params: { ...task, _meta: tag } },
        ctx,
      );
    });
    return result;
  }
}
