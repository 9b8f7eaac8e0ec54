/**
 * `createHttpHandler`: the Streamable HTTP endpoint as one web-standard function from
 * `Request` to `Response`, serving the modern and the legacy wire on the same URL.
 * Source: 2026-07-28 basic/transports/streamable-http; 2025-11-25 basic/transports.
 */
import { runtimeOf, refusedScopes, principalShare, startServing } from '../runtime.js';
import { decodeFrame, eraOf, type EraMessage } from '../../core/runtime.js';
import { DEFAULT_MAX_BUFFERED_BYTES } from './sse.js';
import type { McpServer } from '../index.js';
import { accepts } from './accept.js';
import { DEFAULT_MAX_BODY_BYTES, readBody, type BodyResult } from './body.js';
import { createMemoryEventStore, type EventStore } from './legacy/event-store.js';
import { legacyDelete, legacyGet, legacyPost, type LegacyContext } from './legacy/post.js';
import { modernPost, type ModernContext } from './modern.js';
import { paramHeaderCheck } from './param-headers.js';
import { errorReply, methodNotAllowed, rpcError } from './responses.js';
import { toWebResponse, type HttpRequest, type HttpResponse } from './exchange.js';
import { rebindingViolation, type OriginPolicy } from './security.js';
import { hostPolicy, type HostPolicyOptions } from './host-policy.js';
import { SessionTable } from './legacy/sessions.js';
import { FleetSessions } from './legacy/fleet-sessions.js';
import type { SessionStore } from './legacy/session-store.js';
import { pathOf, type AuthOutcome, type HttpAuthGuard } from './auth-guard.js';
import { ERROR_TABLE } from '../../core/index.js';
import { Admission, releasedWith, type AdmissionOutcome, type PrincipalLimits } from './admission.js';
import { OpenRequests, streamLifetimes } from './shutdown.js';
import { corsPolicy, type Cors, type CorsOptions } from './cors.js';
import { cardRoute, type CardRoute, type ServerCardHosting } from './server-card.js';

/** SSE keep-alive period: under Bun's 10 s default `idleTimeout`, so a quiet stream stays open. */
const DEFAULT_KEEP_ALIVE_MS = 8_000;

/** Options of {@link createHttpHandler}. */
export interface HttpHandlerOptions extends HostPolicyOptions, ServerCardHosting {
  /** Largest POST body accepted, in bytes (default 4 MiB); larger → 413. */
  maxBodyBytes?: number;
  /**
   * Milliseconds between SSE keep-alive comments (default 8 000, below the shortest idle
   * timeout of the runtimes mcpkit runs on: Bun closes a connection idle for 10 s; 0 turns
   * them off).
   */
  keepAliveMs?: number;
  /**
   * Most bytes queued on one SSE stream for a client that does not read (default 4 MiB);
   * beyond it the stream ends and its request is cancelled.
   */
  maxStreamBufferBytes?: number;
  /** A legacy session idle this many milliseconds (no request, no open stream) ends (default 30 min). */
  sessionIdleMs?: number;
  /** Most legacy sessions open at once (default 10 000); `initialize` beyond it gets 503. */
  maxSessions?: number;
  /** Where legacy SSE events are kept for `Last-Event-ID` (default: in memory, bounded). */
  eventStore?: EventStore;
  /**
   * Where legacy sessions live, for a fleet (mcpkit/redis `createRedisSessionStore`; pass
   * the fleet's shared `eventStore` too): any instance then serves any request of any
   * session. Default: in this handler's memory. `maxSessions` then bounds the sessions held
   * here at once, and the store's TTL replaces `sessionIdleMs` for ending a session.
   */
  sessionStore?: SessionStore;
  /**
   * Authorization (e.g. mcpkit/auth `protectedResource()`): every request must carry valid
   * credentials; the principal reaches handlers as `ctx.auth`, owns its legacy sessions, binds `requestState`.
   */
  auth?: HttpAuthGuard;
  /**
   * Per-principal bounds: requests per second (off), requests in progress (100, then up to
   * 1 000 queued for 30 s; streams not counted), legacy sessions (1 000), and how a principal
   * is named (the verified identity, else the peer's address). Over one → 429, `Retry-After`.
   */
  principals?: PrincipalLimits;
  /**
   * Milliseconds after which a listen ends gracefully (completion result, then close) and the
   * client listens again, for serverless limits; default no bound; RangeError unless > 0.
   */
  maxListenMs?: number;
  /**
   * Most milliseconds `close()` lets modern requests in progress finish (default 5 000);
   * then they are cancelled and answered -32603. Listens end at once, gracefully.
   */
  closeTimeoutMs?: number;
  /**
   * CORS for browser-based hosts on other origins (off by default): the preflight is
   * answered before `auth` and without reaching the server (403 for an origin not listed),
   * and the origins listed also pass the `Origin` check (see cors.ts).
   */
  cors?: CorsOptions;
}

/** What a web handler cannot read from a `Request` itself. */
export interface RequestInfo {
  /** The peer's IP address (keys per-principal limits of anonymous callers). */
  remoteAddress?: string | undefined;
}

/** The endpoint: answers any request to the MCP URL; `close()` ends every stream it owns. */
export interface HttpHandler {
  (request: Request, info?: RequestInfo): Promise<Response>;
  /**
   * Shuts down once every stream it owns ended: each listen gets its completion result
   * (2026-07-28 basic/patterns/subscriptions "Graceful Closure"); other modern requests get
   * `closeTimeoutMs`, then -32603; legacy sessions end. Later requests: 503. Idempotent.
   */
  close(): Promise<void>;
}

/** The same endpoint over the {@link HttpRequest}/{@link HttpResponse} shapes, for adapters that fill them more cheaply (node:http). */
export interface HttpEndpoint {
  handle(request: HttpRequest): Promise<HttpResponse>;
  /** As {@link HttpHandler.close}. */
  close(): Promise<void>;
}

interface Context extends LegacyContext {
  auth: HttpAuthGuard | undefined;
  admission: Admission;
  maxBodyBytes: number;
  policy: OriginPolicy;
  cors: Cors | undefined;
  card: CardRoute | undefined;
  modern: ModernContext;
  open: OpenRequests;
}

/**
 * Builds the HTTP handler of `server`, once. Checks `Host`/`Origin` first (403 with a
 * JSON-RPC error; loopback names only unless `bindAddress`, `allowedHosts` or
 * `allowedOrigins` say otherwise), then routes: POST by era (modern when the `MCP-Protocol-Version` header or
 * the body's `_meta` names a modern revision, legacy otherwise), GET and DELETE to the
 * legacy session (405 on the modern wire), anything else 405. Never throws: an
 * unexpected failure becomes 500 with a -32603 body.
 */
export function createHttpHandler(server: McpServer, options: HttpHandlerOptions = {}): HttpHandler {
  const endpoint = createHttpEndpoint(server, options);
  const handler = async (request: Request, info?: RequestInfo): Promise<Response> =>
    toWebResponse(await endpoint.handle(fromWebRequest(request, info?.remoteAddress)));
  return Object.assign(handler, { close: () => endpoint.close() });
}

/** Reads a web `Request` through the {@link HttpRequest} shape. */
function fromWebRequest(request: Request, remoteAddress: string | undefined): HttpRequest {
  return {
    remoteAddress,
    method: request.method,
    url: request.url,
    headers: request.headers,
    signal: request.signal,
    body: (maxBytes) => readBody(request, maxBytes),
  };
}

/** Builds the endpoint of `server` once, over the {@link HttpRequest}/{@link HttpResponse} shapes. */
export function createHttpEndpoint(server: McpServer, options: HttpHandlerOptions = {}): HttpEndpoint {
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  const maxBufferedBytes = options.maxStreamBufferBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  startServing(server);
  const sessions = sessionTable(server, options);
  const params = paramHeaderCheck(server);
  const session = { store: options.eventStore ?? createMemoryEventStore(), keepAliveMs, maxBufferedBytes };
  const store = options.sessionStore;
  const fleet = store && new FleetSessions({ store, server, table: sessions, options: session });
  const open = new OpenRequests();
  const { maxListenMs, closeTimeoutMs } = streamLifetimes(options);
  const catalogue = runtimeOf(server).catalogue;
  options.auth?.featureScopes?.(() => catalogue.featureScopes);
  const ctx: Context = {
    server,
    sessions,
    session,
    fleet,
    auth: options.auth,
    admission: new Admission(options.principals),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    policy: hostPolicy(options),
    cors: options.cors && corsPolicy(options.cors),
    card: cardRoute(server, { ...options, policy: hostPolicy(options) }),
    modern: {
      server,
      keepAliveMs,
      maxBufferedBytes,
      paramHeaders: params.check,
      open,
      maxListenMs,
    },
    open,
  };
  const routed = (request: HttpRequest): Promise<HttpResponse> => {
    try {
      const response = route(ctx, request);
      return response instanceof Promise ? response.catch(internalError) : Promise.resolve(response);
    } catch {
      return Promise.resolve(internalError());
    }
  };
  const cors = ctx.cors;
  const handle = cors
    ? (request: HttpRequest) => routed(request).then((response) => cors.decorate(request, response))
    : routed;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      fleet?.close();
      sessions.clear();
      params.close();
      await open.close(closeTimeoutMs);
    })());
  return { handle, close };
}

/** The legacy sessions' table: every session's bound, and each principal's share of it. */
function sessionTable(server: McpServer, options: HttpHandlerOptions): SessionTable {
  const maxSessions = options.maxSessions ?? 10_000;
  return new SessionTable({
    idleMs: options.sessionIdleMs ?? 30 * 60_000,
    maxSessions,
    maxPerPrincipal: options.principals?.maxSessions ?? principalShare(maxSessions),
    events: runtimeOf(server).eventBus,
  });
}

const internalError = (): HttpResponse => rpcError('ServerError', 'Internal error');

/** A request on the modern wire: by its header, or because the server serves no legacy sessions. */
function modernOnly(ctx: Context, request: HttpRequest): boolean {
  return !runtimeOf(ctx.server).servesLegacy || eraOf(undefined, request) === 'modern';
}

// route, admitted and post return a promise only once one is needed (the body read): no async frame per call.
function route(ctx: Context, request: HttpRequest): Promise<HttpResponse> | HttpResponse {
  if (ctx.open.closed) return rpcError('ServiceUnavailable', 'Service Unavailable: the server is closing');
  const card = ctx.card?.(request, ctx.admission);
  if (card) return card;
  const preflight = ctx.cors?.preflight(request);
  if (preflight) return preflight;
  const violation = rebindingViolation(request, ctx.policy, ctx.cors?.allows);
  if (violation) return rpcError('Forbidden', `Forbidden: ${violation}`);
  if (ctx.auth) return authenticated(ctx, ctx.auth, request);
  return admitted(ctx, request);
}

async function authenticated(
  ctx: Context,
  guard: HttpAuthGuard,
  request: HttpRequest,
): Promise<HttpResponse> {
  if (guard.paths.includes(pathOf(request))) return servedByGuard(guard, request);
  const outcome = await authenticate(ctx, guard, request);
  if ('response' in outcome) return outcome.response;
  request.auth = outcome.auth;
  const response = await admitted(ctx, request);
  return response.status === SCOPE_REFUSED ? scopeChallenge(guard, response) : response;
}

/** A guard's own path (metadata; an authorization server's endpoints): its answer, or 405. */
async function servedByGuard(guard: HttpAuthGuard, request: HttpRequest): Promise<HttpResponse> {
  return (await guard.serve(request)) ?? methodNotAllowed('GET');
}

const SCOPE_REFUSED = ERROR_TABLE.InsufficientScope.httpStatus;

/** The guard's 403 `insufficient_scope` challenge for the scope check's refusal (RFC 6750 §3.1). */
function scopeChallenge(guard: HttpAuthGuard, response: HttpResponse): HttpResponse {
  if (typeof response.body !== 'string') return response;
  const { error } = JSON.parse(response.body) as { error?: unknown };
  const required = refusedScopes(error);
  return required ? guard.insufficientScope(required) : response;
}

/**
 * Admits the request for its principal and answers it; the admission ends with the response,
 * or as soon as it starts for a long-lived stream (which its own bound holds instead).
 */
function admitted(ctx: Context, request: HttpRequest): Promise<HttpResponse> | HttpResponse {
  const principal = (request.principal = ctx.admission.quotaKeyOf(request));
  const admission = ctx.admission.admit(principal, request);
  if (admission instanceof Promise) return admission.then((queued) => answerAdmitted(ctx, request, queued));
  return answerAdmitted(ctx, request, admission);
}

function answerAdmitted(
  ctx: Context,
  request: HttpRequest,
  admission: AdmissionOutcome,
): Promise<HttpResponse> | HttpResponse {
  if ('response' in admission) return admission.response;
  const { release } = admission;
  const releasing = (answered: HttpResponse): HttpResponse => {
    if (!request.longLived) return releasedWith(answered, release);
    release();
    return answered;
  };
  let response: Promise<HttpResponse> | HttpResponse;
  try {
    response = byMethod(ctx, request);
  } catch (error) {
    release();
    throw error;
  }
  if (!(response instanceof Promise)) return releasing(response);
  return response.then(releasing, (error: unknown) => {
    release();
    throw error;
  });
}

/**
 * Verifies the credentials; a failure is charged to the caller's principal without them
 * (its address, by default), and a caller whose failures spent its rate gets 429 at once.
 */
async function authenticate(ctx: Context, guard: HttpAuthGuard, request: HttpRequest): Promise<AuthOutcome> {
  const anonymous = ctx.admission.quotaKeyOf(request);
  const spent = ctx.admission.spent(anonymous);
  if (spent) return { response: spent };
  const outcome = await guard.authenticate(request);
  if (!('response' in outcome)) return outcome;
  return { response: ctx.admission.charge(anonymous) ?? outcome.response };
}

function byMethod(ctx: Context, request: HttpRequest): Promise<HttpResponse> | HttpResponse {
  switch (request.method) {
    case 'POST':
      return post(ctx, request);
    case 'GET':
      return modernOnly(ctx, request) ? methodNotAllowed('POST') : legacyGet(ctx, request);
    case 'DELETE':
      return modernOnly(ctx, request) ? methodNotAllowed('POST') : legacyDelete(ctx, request);
    default:
      return methodNotAllowed('GET, POST, DELETE');
  }
}

function isJsonContent(contentType: string | null): boolean {
  if (contentType === 'application/json') return true; // what clients send, without parameters
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

function post(ctx: Context, request: HttpRequest): Promise<HttpResponse> | HttpResponse {
  const accept = request.headers.get('accept');
  if (!accepts(accept, 'application/json') || !accepts(accept, 'text/event-stream'))
    return rpcError(
      'NotAcceptable',
      'Not Acceptable: Accept must list application/json and text/event-stream',
    );
  if (!isJsonContent(request.headers.get('content-type')))
    return rpcError('UnsupportedMediaType', 'Unsupported Media Type: Content-Type must be application/json');
  return request.body(ctx.maxBodyBytes).then((body) => withBody(ctx, request, body));
}

function withBody(
  ctx: Context,
  request: HttpRequest,
  body: BodyResult,
): Promise<HttpResponse> | HttpResponse {
  if (body.kind === 'too-large')
    return rpcError('PayloadTooLarge', `Payload Too Large: the limit is ${ctx.maxBodyBytes} bytes`);
  const decoded = decodeFrame(body.text, ctx.server.options.limits?.maxJsonDepth);
  if (decoded.kind === 'malformed') return errorReply(decoded.error);
  const single = decoded.kind === 'single' ? (decoded.value as EraMessage | null) : undefined;
  if (!runtimeOf(ctx.server).servesLegacy || eraOf(single, request) === 'modern')
    return modernPost(ctx.modern, request, decoded);
  return legacyPost(ctx, request, decoded);
}
