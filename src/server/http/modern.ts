/**
 * The modern (2026-07-28) face of the endpoint: stateless POSTs, each answered with
 * JSON or an SSE stream scoped to the request; closing the stream cancels the request.
 * Source: 2026-07-28 basic/transports/streamable-http "Sending Messages", "Receiving
 * Messages", "Cancellation", "Request Metadata", "Backward Compatibility".
 */
import { runtimeOf, RequestScope, type ScopeBinding, type ScopeLine } from '../runtime.js';
import { ERROR_TABLE, LocalError, WireError, type JsonRpcRequest, type Params } from '../../core/index.js';
import { checkEnvelope, eraOf, errorResponse, setTimer, type Decoded } from '../../core/runtime.js';
import type { McpServer } from '../index.js';
import { checkStandardHeaders } from './headers.js';
import { PostReply, answer, plainStream, retryAfterOf, type Outcome } from './reply.js';
import { emptyResponse, jsonResponse, rpcError } from './responses.js';
import type { HeaderReader, HttpRequest, HttpResponse } from './exchange.js';
import type { Closable, OpenRequests } from './shutdown.js';

/** What the modern path needs from the handler. */
export interface ModernContext {
  server: McpServer;
  keepAliveMs: number;
  /** Most bytes queued on a stream for a client that does not read. */
  maxBufferedBytes: number;
  /** Checks `Mcp-Param-*` headers of a `tools/call` (see param-headers.ts); a promise only while tools are being listed. */
  paramHeaders: (
    headers: HeaderReader,
    request: JsonRpcRequest,
  ) => WireError | undefined | Promise<WireError | undefined>;
  /** The requests in progress, which the endpoint's `close()` ends. */
  open: OpenRequests;
  /** Milliseconds after which a listen is completed gracefully (the client listens again); none by default. */
  maxListenMs: number | undefined;
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
      runtimeOf(ctx.server).handleNotification(checked.message, undefined, request.headers);
      return emptyResponse(202);
    case 'request': {
      if (checked.message.method === 'initialize' && eraOf(checked.message, request) !== 'modern')
        return legacyRefused(ctx.server, checked.message);
      const mismatch = checkStandardHeaders(request.headers, checked.message);
      if (mismatch) return refused(checked.message, mismatch);
      return checkThenRun(ctx, request, checked.message);
    }
  }
}

function checkThenRun(
  ctx: ModernContext,
  request: HttpRequest,
  message: JsonRpcRequest,
): Promise<HttpResponse> | HttpResponse {
  const checked = ctx.paramHeaders(request.headers, message);
  if (checked instanceof Promise)
    return checked.then((mismatch) =>
      mismatch ? refused(message, mismatch) : runModern(ctx, request, message),
    );
  return checked ? refused(message, checked) : runModern(ctx, request, message);
}

/**
 * A legacy client's `initialize` (no modern header or `_meta`) on the modern wire, which it
 * reaches only when the server serves no legacy sessions: 400 naming the versions spoken, its only diagnostic (2026-07-28
 * basic/versioning.mdx: a modern-only server names them in any error to `initialize`).
 */
function legacyRefused(server: McpServer, message: JsonRpcRequest): HttpResponse {
  const supported = server.supportedVersions;
  const refusal = WireError.of(
    'InvalidRequest',
    `initialize is not supported: this server speaks only ${supported.join(', ')} (no initialize handshake)`,
    { supported },
  );
  return jsonResponse(errorResponse(message.id, refusal.toJSON()), refusal.httpStatus);
}

/** The answer to a request whose headers do not match it (-32020, HTTP 400). */
function refused(message: JsonRpcRequest, mismatch: WireError): HttpResponse {
  return jsonResponse(errorResponse(message.id, mismatch.toJSON()), mismatch.httpStatus);
}

function runModern(ctx: ModernContext, request: HttpRequest, message: JsonRpcRequest): Promise<HttpResponse> {
  if (message.method === 'subscriptions/listen') request.longLived = true; // limits.maxListenStreamsPerPrincipal
  const exchange = new ModernExchange(ctx, request, message);
  ctx.open.add(exchange);
  if (message.method === 'subscriptions/listen') listenLifetime(ctx, request, exchange);
  void answer(ctx.server, new RequestScope(message, exchange, exchange)).then((outcome) =>
    exchange.finish(outcome),
  );
  return exchange.reply.response;
}

/**
 * Ends a listen gracefully (its completion result; the client listens again) after
 * `maxListenMs`, or when the access token that opened it expires (`exp`), whichever comes
 * first: a listen never outlives its token, and the client's next listen presents its
 * current one (an expired token gets the endpoint's 401).
 */
function listenLifetime(ctx: ModernContext, request: HttpRequest, exchange: ModernExchange): void {
  const exp = request.auth?.expiresAt;
  const untilExpiry = typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 - Date.now() : undefined;
  const ms =
    untilExpiry === undefined || (ctx.maxListenMs !== undefined && ctx.maxListenMs < untilExpiry)
      ? ctx.maxListenMs
      : Math.max(0, untilExpiry);
  if (ms !== undefined) exchange.closeAfter(ms);
}

/**
 * One modern request in progress: the line and binding of its scope, and the reply. A
 * class, not a literal with a getter, so no per-call closure stays reachable. The
 * AbortControllers and the listener on the client's signal are made only when asked for.
 * The SSE stream, once open, reports a closed client itself (`cancel`).
 */
class ModernExchange implements ScopeLine, ScopeBinding, Closable {
  readonly era = 'modern' as const;
  readonly authInfo: HttpRequest['auth'];
  readonly principal: string | undefined;
  readonly headers: HeaderReader;
  readonly reply: PostReply;
  openPrev: Closable | undefined = undefined;
  openNext: Closable | undefined = undefined;
  readonly #open: OpenRequests;
  readonly #request: HttpRequest;
  readonly #id: JsonRpcRequest['id'];
  #controller: AbortController | undefined;
  #closing: AbortController | undefined;
  #onAbort: (() => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #cancelled = false;

  constructor(ctx: ModernContext, request: HttpRequest, message: JsonRpcRequest) {
    this.#request = request;
    this.#id = message.id;
    this.authInfo = request.auth;
    this.principal = request.principal;
    this.headers = request.headers;
    this.#open = ctx.open;
    this.reply = new PostReply(plainStream(ctx.keepAliveMs, () => this.#cancel(), ctx.maxBufferedBytes));
  }

  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const controller = (this.#controller = new AbortController());
    const client = this.#request.signal;
    if (this.#cancelled || client.aborted) controller.abort(client.reason);
    else client.addEventListener('abort', (this.#onAbort = () => this.#cancel()), { once: true });
    return controller.signal;
  }

  get closing(): AbortSignal {
    return (this.#closing ??= new AbortController()).signal;
  }

  notify(method: string, params: Params): void {
    if (!this.#cancelled) this.reply.send({ jsonrpc: '2.0', method, params });
  }

  /** Asks the request to end gracefully: a listen answers its completion result. */
  close(): void {
    (this.#closing ??= new AbortController()).abort();
  }

  /** Closes the request gracefully after `ms` (a listen's lifetime bound). */
  closeAfter(ms: number): void {
    this.#timer = setTimer(() => this.close(), ms);
  }

  /** Cancels the handler and answers -32603 (HTTP 503 when still JSON): the server is closing. */
  abandon(): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#controller?.abort(new LocalError('ABORTED', 'the server is closing'));
    const error = {
      code: ERROR_TABLE.ServiceUnavailable.code,
      message: 'Service Unavailable: the server is closing',
    };
    this.#settle(errorResponse(this.#id, error), ERROR_TABLE.ServiceUnavailable.httpStatus);
  }

  /** Answers with the server's outcome (unless the client went away first). */
  finish(outcome: Outcome): void {
    if (this.#onAbort) this.#request.signal.removeEventListener('abort', this.#onAbort);
    if (outcome.status === 429) this.reply.setHeader('retry-after', retryAfterOf(outcome));
    if (!this.#cancelled) this.#settle(outcome.response, outcome.status);
  }

  #cancel(): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    this.#controller?.abort(this.#request.signal.reason);
    this.#settle(undefined, 200);
  }

  #settle(response: Outcome['response'] | undefined, status: number): void {
    clearTimeout(this.#timer);
    this.reply.finish(response, status);
    this.#open.ended(this);
  }
}
