/**
 * Answers the requests a server makes of the client: `sampling/createMessage`,
 * `elicitation/create` and `roots/list`. A legacy server sends them as its own requests
 * (plus `ping`); a modern server must not send requests at all (2026-07-28
 * basic/patterns: "Servers MUST NOT initiate JSON-RPC requests"), so there every request
 * is answered with -32601 and the same handlers answer `inputRequests` instead (see mrtr.ts).
 * Source: 2025-11-25 basic/utilities/ping, client/sampling, client/elicitation, client/roots;
 * 2026-07-28 basic/patterns/mrtr.
 */
import {
  WireError,
  type JsonRpcRequest,
  type Params,
  type RequestId,
  type Era,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type LegacyElicitRequestParams,
  type LegacyRequestParams,
} from '../core/index.js';
import {
  clientCapabilityNeeded,
  missingCapabilities,
  type CapabilityNeed,
  type IncomingContext,
} from '../core/runtime.js';
import { withElicitationDefaults } from './elicitation-defaults.js';
import type { ClientHandlers, HandlerContext } from './options.js';

/** How the client answers a server's requests. */
export interface InputAnswering {
  readonly handlers: ClientHandlers;
  /** Fill omitted fields of accepted form elicitations with the schema's defaults. */
  readonly fillElicitationDefaults: boolean;
  /** What the client declared: a request needing more (sampling with tools, URL elicitation…) is refused. */
  readonly declared: ClientCapabilities;
}

/**
 * The capability a server's request needs that this client did not declare (shaped like
 * `requiredCapabilities`), or undefined. A server must not send such a request
 * (client/sampling "Tools in Sampling", basic/patterns/mrtr "Server Requirements").
 */
export function undeclaredCapability(
  answering: InputAnswering,
  request: { method: string; params: Params },
): CapabilityNeed | undefined {
  const need = clientCapabilityNeeded(request.method, request.params);
  return need && missingCapabilities(answering.declared, need);
}

/** The handler that answers each method a server may ask of the client. */
export const HANDLER_FOR: Readonly<Record<string, keyof ClientHandlers>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/**
 * Builds the core Peer's request handler. `era` is read per request: until detection
 * settles it is undefined, and only `ping` is answered then (2025-11-25 lifecycle).
 * `related` names the client's own request a server request arrived with, when the
 * transport knows (see `Transport.relatedRequest`).
 * @throws WireError -32601 for a method with no handler (or any request on modern).
 */
export function serverRequestHandler(
  answering: InputAnswering,
  era: () => Era | undefined,
  related: (id: RequestId) => RequestId | undefined = () => undefined,
): (request: JsonRpcRequest, context: IncomingContext) => Promise<Params> {
  return async (request, context) => {
    const current = era();
    if (current === 'modern') throw notFound(request.method);
    if (request.method === 'ping') return {};
    if (current === undefined) throw notFound(request.method);
    const asked = { method: request.method, params: request.params ?? {} };
    const handler = HANDLER_FOR[asked.method];
    if (handler === undefined || answering.handlers[handler] === undefined) throw notFound(request.method);
    const missing = undeclaredCapability(answering, asked);
    if (missing) {
      const needs = JSON.stringify(missing);
      throw WireError.of(
        'InvalidParams',
        `${asked.method} needs ${needs}, which this client did not declare`,
        {
          requiredCapabilities: missing,
        },
      );
    }
    const answer = await answerInput(answering, asked, {
      signal: context.signal,
      requestId: request.id,
      relatedRequestId: related(request.id),
    });
    if (answer === undefined) throw notFound(request.method);
    return answer as unknown as Params;
  };
}

/**
 * Runs the handler for the request's `method` and returns its result (accepted form elicitations get
 * their defaults filled when enabled), or undefined when no handler answers `method`.
 * @throws whatever the handler throws.
 */
export async function answerInput(
  answering: InputAnswering,
  request: { method: string; params: Params },
  ctx: HandlerContext,
): Promise<object | undefined> {
  const { handlers } = answering;
  const { method, params } = request;
  switch (method) {
    case 'sampling/createMessage':
      return handlers.sampling?.(params as unknown as CreateMessageRequestParams, ctx);
    case 'elicitation/create': {
      const result = await handlers.elicitation?.(params as unknown as LegacyElicitRequestParams, ctx);
      if (result === undefined || !answering.fillElicitationDefaults) return result;
      return withElicitationDefaults(params, result);
    }
    case 'roots/list':
      return handlers.roots?.(params as LegacyRequestParams, ctx);
    default:
      return undefined;
  }
}

function notFound(method: string): WireError {
  return WireError.of('MethodNotFound', `Method not found: ${method}`);
}
