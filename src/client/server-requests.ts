/**
 * Answers the requests a legacy server sends the client: `ping`, `sampling/createMessage`,
 * `elicitation/create` and `roots/list`. A modern server must not send requests at all
 * (2026-07-28 basic/patterns: "Servers MUST NOT initiate JSON-RPC requests"), so there
 * every request is answered with -32601.
 * Source: 2025-11-25 basic/utilities/ping, client/sampling, client/elicitation, client/roots.
 */
import { McpError } from '../core/errors.js';
import type { JsonRpcRequest, Params } from '../core/jsonrpc.js';
import type { IncomingContext } from '../core/peer.js';
import type { Era } from '../core/revisions.js';
import type {
  CreateMessageRequestParams,
  LegacyElicitRequestParams,
  LegacyRequestParams,
} from '../core/types/index.js';
import type { ClientHandlers } from './options.js';

/**
 * Builds the core Peer's request handler. `era` is read per request: until detection
 * settles it is undefined, and only `ping` is answered then (2025-11-25 lifecycle).
 * @throws McpError -32601 for a method with no handler (or any request on modern).
 */
export function serverRequestHandler(
  handlers: ClientHandlers,
  era: () => Era | undefined,
): (request: JsonRpcRequest, context: IncomingContext) => Promise<Params> {
  return async (request, context) => {
    const current = era();
    if (current === 'modern') throw notFound(request.method);
    const params = request.params ?? {};
    const ctx = { signal: context.signal };
    if (request.method === 'ping') return {};
    if (current === undefined) throw notFound(request.method);
    const answer = await dispatch(handlers, request.method, params, ctx);
    if (answer === undefined) throw notFound(request.method);
    return answer as unknown as Params;
  };
}

async function dispatch(
  handlers: ClientHandlers,
  method: string,
  params: Params,
  ctx: { signal: AbortSignal },
): Promise<object | undefined> {
  switch (method) {
    case 'sampling/createMessage':
      return handlers.sampling?.(params as unknown as CreateMessageRequestParams, ctx);
    case 'elicitation/create':
      return handlers.elicitation?.(params as unknown as LegacyElicitRequestParams, ctx);
    case 'roots/list':
      return handlers.roots?.(params as LegacyRequestParams, ctx);
    default:
      return undefined;
  }
}

function notFound(method: string): McpError {
  return McpError.of('MethodNotFound', `Method not found: ${method}`);
}
