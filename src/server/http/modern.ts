/**
 * The modern (2026-07-28) face of the endpoint: stateless POSTs, each answered with
 * JSON or an SSE stream scoped to the request; closing the stream cancels the request.
 * Source: 2026-07-28 basic/transports/streamable-http "Sending Messages", "Receiving
 * Messages", "Cancellation", "Request Metadata", "Backward Compatibility".
 */
import type { McpError } from '../../core/errors.js';
import { checkEnvelope, errorResponse, type Decoded, type JsonRpcRequest } from '../../core/jsonrpc.js';
import { META, isModernRevision } from '../../core/revisions.js';
import type { RequestChannel } from '../channel.js';
import type { McpServer } from '../server.js';
import { checkStandardHeaders } from './headers.js';
import { PostReply, answer, plainStream } from './reply.js';
import { emptyResponse, jsonResponse, rpcError } from './responses.js';
import type { HeaderReader, HttpRequest, HttpResponse } from './exchange.js';

/** What the modern path needs from the handler. */
export interface ModernContext {
  server: McpServer;
  keepAliveMs: number;
  /** Most bytes queued on a stream for a client that does not read. */
  maxBufferedBytes: number;
  /** Checks `Mcp-Param-*` headers of a `tools/call` (see param-headers.ts). */
  paramHeaders: (headers: HeaderReader, request: JsonRpcRequest) => Promise<McpError | undefined>;
}

/**
 * True when a POST belongs to the modern wire: its `MCP-Protocol-Version` header names a
 * modern revision, or its body's `_meta` carries a protocol version (of any value, so an
 * unknown version is answered with -32022 rather than treated as legacy).
 */
export function isModernPost(headers: HeaderReader, decoded: Decoded): boolean {
  if (isModernRevision(headers.get('mcp-protocol-version')?.trim())) return true;
  if (decoded.kind !== 'single') return false;
  const params = (decoded.value as { params?: unknown } | null)?.params;
  const meta = (params as { _meta?: unknown } | null | undefined)?._meta;
  return typeof meta === 'object' && meta !== null && META.protocolVersion in meta;
}

/**
 * Answers a modern POST. Batches and responses → 400 -32600; a notification → 202; a
 * request with missing or mismatching headers → 400 -32020; otherwise the server's
 * answer with the status of its error (400 for -32602 on `_meta`, -32021, -32022; 404
 * for -32601; 200 for the rest).
 */
export function modernPost(
  ctx: ModernContext,
  request: HttpRequest,
  decoded: Decoded,
): Promise<HttpResponse> | HttpResponse {
  if (decoded.kind !== 'single')
    return rpcError('InvalidRequest', 'Invalid request: batches are not supported');
  const checked = checkEnvelope(decoded.value);
  switch (checked.kind) {
    case 'invalid':
      return jsonResponse(checked.error, 400);
    case 'response':
      return rpcError('InvalidRequest', 'Invalid request: clients do not send responses on this revision');
    case 'notification':
      ctx.server.handleNotification(checked.message, undefined, request.headers);
      return emptyResponse(202);
    case 'request': {
      const mismatch = checkStandardHeaders(request.headers, checked.message);
      if (mismatch)
        return jsonResponse(errorResponse(checked.message.id, mismatch.toJSON()), mismatch.httpStatus);
      return checkThenRun(ctx, request, checked.message);
    }
  }
}

async function checkThenRun(
  ctx: ModernContext,
  request: HttpRequest,
  message: JsonRpcRequest,
): Promise<HttpResponse> {
  const mismatch = await ctx.paramHeaders(request.headers, message);
  if (mismatch) return jsonResponse(errorResponse(message.id, mismatch.toJSON()), mismatch.httpStatus);
  return runModern(ctx, request, message);
}

function runModern(ctx: ModernContext, request: HttpRequest, message: JsonRpcRequest): Promise<HttpResponse> {
  // The AbortController and the listener on the client's signal are made only when the
  // handler asks for its signal: most calls never do, and both cost a measurable share of
  // a small call. The SSE stream, once open, reports a closed client itself (`cancel`).
  let controller: AbortController | undefined;
  let cancelled = false;
  const cancel = (): void => {
    if (cancelled) return;
    cancelled = true;
    controller?.abort(request.signal.reason);
    reply.finish(undefined, 200);
  };
  const reply = new PostReply(plainStream(ctx.keepAliveMs, cancel, ctx.maxBufferedBytes));
  const channel: RequestChannel = {
    get signal(): AbortSignal {
      if (controller) return controller.signal;
      controller = new AbortController();
      if (cancelled || request.signal.aborted) controller.abort(request.signal.reason);
      else request.signal.addEventListener('abort', cancel, { once: true });
      return controller.signal;
    },
    era: 'modern',
    authInfo: request.auth,
    principal: request.principal,
    headers: request.headers,
    notify: (method, params) => {
      if (!cancelled) reply.send({ jsonrpc: '2.0', method, params });
    },
  };
  void answer(ctx.server, message, channel).then((outcome) => {
    if (controller) request.signal.removeEventListener('abort', cancel);
    if (outcome.status === 429) reply.setHeader('retry-after', '1');
    if (!cancelled) reply.finish(outcome.response, outcome.status);
  });
  return reply.response;
}
