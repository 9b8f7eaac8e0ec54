/**
 * The Tasks extension through the gateway, as middleware on the gateway's server. For a
 * modern client:
 * - `server/discover` declares `io.modelcontextprotocol/tasks` while a ready backend does;
 * - a `tools/call` relayed to a backend that answers with a task (`resultType: "task"`)
 *   reaches the client as that task under a gateway task id (gateway.ts; see task-ids.ts);
 * - `tasks/get`, `tasks/update` and `tasks/cancel` go to the backend the id names, with the
 *   backend's id, and come back under the gateway's id (input request keys pass as they are);
 * - `taskIds` in `subscriptions/listen` are followed on the backends (see task-listen.ts).
 * A client that did not declare the extension gets -32021 for the task methods, as from a
 * server of its own; an id that is malformed, foreign or another principal's gets -32602.
 * Source: SEP-2663 "Capability Negotiation", "Task Creation", "Task Polling", "Task Update
 * Requests", "Task Cancellation", "Error Handling".
 */
import {
  WireError,
  META,
  TASKS_EXTENSION,
  type Middleware,
  type MiddlewareContext,
  type McpMessage,
  type Params,
} from '../../core/index.js';
import { TASK_METHODS, missingCapabilityError, principalOf } from '../../core/runtime.js';
import { relayRequest } from '../../client/runtime.js';
import type { Host } from '../host.js';
import { TaskListens } from './task-listen.js';
import { declaresTasks, type TaskIds } from './task-ids.js';

/** True when some ready server of `host` offers the Tasks extension. */
function hostOffersTasks(host: Host): boolean {
  return host.servers.some((name) => offersTasks(host, name));
}

function offersTasks(host: Host, server: string): boolean {
  const client = host.clientOf(server);
  return client?.era === 'modern' && client.serverCapabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/** The gateway's Tasks middleware; see the module comment. */
export function tasksMiddleware(host: Host, ids: TaskIds): Middleware {
  const listens = new TaskListens(host, ids);
  return (next) => async (message, ctx) => {
    if (ctx.direction === 'outgoing') return listens.outgoing(message, ctx, next);
    if (message.kind !== 'request' || ctx.era !== 'modern') return next(message, ctx);
    if (message.method === 'server/discover') return advertise(host, await next(message, ctx));
    // Without a backend that offers tasks, `taskIds` are left to the server (which ignores them).
    if (message.method === 'subscriptions/listen' && hostOffersTasks(host))
      return listens.incoming(message, ctx, next);
    if (!TASK_METHODS.has(message.method) || !hostOffersTasks(host)) return next(message, ctx);
    return taskMethod({ host, ids }, message, ctx);
  };
}

function advertise(host: Host, result: Params | undefined): Params | undefined {
  if (!result || !hostOffersTasks(host)) return result;
  const capabilities = (result.capabilities ?? {}) as { extensions?: Record<string, unknown> };
  const extensions = { ...capabilities.extensions, [TASKS_EXTENSION]: {} };
  return { ...result, capabilities: { ...capabilities, extensions } };
}

/** `tasks/get`, `tasks/update` or `tasks/cancel`, sent to the backend that holds the task. */
async function taskMethod(
  gateway: { host: Host; ids: TaskIds },
  message: McpMessage,
  ctx: MiddlewareContext,
): Promise<Params> {
  const { host, ids } = gateway;
  const params = message.params ?? {};
  if (!declaresTasks(params)) throw missingCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } });
  const route = ids.unwrap(params.taskId, principalOf(ctx.auth));
  if (!route) throw WireError.of('InvalidParams', `unknown task: ${JSON.stringify(params.taskId)}`);
  const client = host.clientOf(route.server);
  if (!client || !offersTasks(host, route.server))
    throw WireError.of('InternalError', `server '${route.server}' holding the task is not ready`);
  const { _meta, ...rest } = params;
  const meta = _meta as Params;
  const result = await relayRequest(
    client,
    { method: message.method, params: { ...rest, taskId: route.taskId } },
    {
      signal: ctx.signal,
      relayInputRequired: true,
      clientCapabilities: (meta[META.clientCapabilities] ?? {}) as never,
    },
  );
  return typeof result.taskId === 'string' ? { ...result, taskId: params.taskId } : result;
}
