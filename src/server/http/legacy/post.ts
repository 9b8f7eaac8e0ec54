/**
 * The legacy (2025-11-25 and earlier) face of the endpoint: `initialize` mints an
 * `Mcp-Session-Id`; later POSTs, the GET stream and DELETE name it; server-initiated
 * messages travel on the stream of the request they relate to, else on the GET stream.
 * Source: 2025-11-25 basic/transports "Streamable HTTP" (Sending Messages, Listening,
 * Resumability and Redelivery, Session Management, Protocol Version Header).
 */
import { allowsBatch, checkEnvelope, thenOrNow, type Checked, type Decoded } from '../../../core/runtime.js';
import {
  type JsonRpcRequest,
  type JsonRpcErrorResponse,
  type Params,
  isLegacyRevision,
  isModernRevision,
} from '../../../core/index.js';
import type { SessionInit, AuthInfo, LegacySession, McpServer } from '../../index.js';
import { RequestScope, type HeaderReader, type ScopeBinding, type ScopeLine } from '../../runtime.js';
import { accepts } from '../accept.js';
import { PostReply, answer, legacyStatus, plainStream } from '../reply.js';
import { HTTP_ACCEPTED, HTTP_OK, emptyResponse, errorReply, rpcError, sseResponse } from '../responses.js';
import type { HttpRequest, HttpResponse } from '../exchange.js';
import { parseEventId, type ResumableStream } from './resumable.js';
import { HttpSession, type HttpSessionOptions } from './session.js';
import { principalOf } from '../auth-guard.js';
import type { SessionTable } from './sessions.js';
import type { FleetSessions } from './fleet-sessions.js';

/** What the legacy path needs from the handler. */
export interface LegacyContext {
  server: McpServer;
  sessions: SessionTable;
  session: HttpSessionOptions;
  /** Sessions shared by a fleet through a session store; absent: this handler's memory only. */
  fleet?: FleetSessions | undefined;
}

/** 503 for a request the session store could not serve (unreachable, or a limit here). */
function storeFailure(error: unknown, id?: JsonRpcRequest['id']): HttpResponse {
  const why = error instanceof Error ? error.message : String(error);
  return rpcError('ServiceUnavailable', `Service Unavailable: the session store failed: ${why}`, { id });
}

/** 400 for an `MCP-Protocol-Version` header naming no revision we speak (2025-11-25 rule). */
function versionProblem(request: HttpRequest): HttpResponse | undefined {
  const version = request.headers.get('mcp-protocol-version')?.trim();
  if (version === undefined || isLegacyRevision(version) || isModernRevision(version)) return undefined;
  return rpcError('InvalidRequest', `Bad Request: unsupported MCP-Protocol-Version ${version}`);
}

/**
 * The session a request names: 400 without `Mcp-Session-Id`, 404 for an unknown or ended
 * one, and 404 too when another principal opened it (a session is its opener's).
 */
function findSession(
  ctx: LegacyContext,
  request: HttpRequest,
): Promise<HttpSession | HttpResponse> | HttpSession | HttpResponse {
  const id = request.headers.get('mcp-session-id')?.trim();
  if (id === undefined || id === '')
    return rpcError('InvalidRequest', 'Bad Request: Mcp-Session-Id header is required');
  // Held here: found without a promise (the usual case, and a per-call cost otherwise).
  if (!ctx.fleet) return ownedBy(ctx.sessions.get(id), request);
  try {
    return ctx.fleet.find(id).then((session) => ownedBy(session, request), storeFailure);
  } catch (error) {
    return storeFailure(error);
  }
}

function ownedBy(session: HttpSession | undefined, request: HttpRequest): HttpSession | HttpResponse {
  if (!session || session.owner !== principalOf(request.auth))
    return rpcError('SessionNotFound', 'Session not found');
  return session;
}

/** Answers a legacy POST (one message, or a batch in a 2025-03-26 session). */
export function legacyPost(
  ctx: LegacyContext,
  request: HttpRequest,
  decoded: Decoded,
): Promise<HttpResponse> | HttpResponse {
  const problem = versionProblem(request);
  if (problem) return problem;
  const checked = decoded.kind === 'single' ? checkEnvelope(decoded.value) : undefined;
  if (checked?.kind === 'invalid') return errorReply(checked.error);
  const isInit = checked?.kind === 'request' && checked.message.method === 'initialize';
  if (isInit && request.headers.get('mcp-session-id') === null)
    return initialize(ctx, checked.message, request);
  const found = findSession(ctx, request);
  return thenOrNow(found, postTo, { checked, decoded, request });
}

/** Delivers a POST's message(s) to the session it names (or answers the lookup's refusal). */
function postTo(
  session: HttpSession | HttpResponse,
  post: {
    checked: Exclude<Checked, { kind: 'invalid' }> | undefined;
    decoded: Decoded;
    request: HttpRequest;
  },
): Promise<HttpResponse> | HttpResponse {
  if (!(session instanceof HttpSession)) return session;
  const { checked, decoded, request } = post;
  if (checked) return deliverOne(session, checked, request);
  if (decoded.kind !== 'batch' || decoded.values.length === 0 || !allowsBatch(session.legacy.protocolVersion))
    return rpcError('InvalidRequest', 'Invalid request: batches are not supported by this protocol revision');
  return deliver(session, decoded.values, request);
}

/** Hands one notification or response to the session, or runs one request on its own reply. */
function deliverOne(
  session: HttpSession,
  checked: Exclude<Checked, { kind: 'invalid' }>,
  request: HttpRequest,
): Promise<HttpResponse> | HttpResponse {
  if (checked.kind !== 'request') {
    const pending = session.receive(checked.message, request.headers);
    return pending
      ? pending.then(
          () => emptyResponse(HTTP_ACCEPTED),
          (e: unknown) => storeFailure(e),
        )
      : emptyResponse(HTTP_ACCEPTED);
  }
  const reply = new PostReply(session);
  void session
    .run(checked.message, reply, request)
    .then((outcome) => reply.finish(outcome?.response, legacyStatus(outcome)));
  return reply.response;
}

/** Hands a batch's notifications and responses to the session and runs its requests on one reply. */
function deliver(
  session: HttpSession,
  values: unknown[],
  request: HttpRequest,
): Promise<HttpResponse> | HttpResponse {
  const requests: JsonRpcRequest[] = [];
  const invalid: JsonRpcErrorResponse[] = [];
  const relayed: Promise<void>[] = [];
  for (const value of values) {
    const checked = checkEnvelope(value);
    if (checked.kind === 'request') requests.push(checked.message);
    else if (checked.kind === 'invalid') invalid.push(checked.error);
    else {
      const pending = session.receive(checked.message, request.headers);
      if (pending) relayed.push(pending);
    }
  }
  if (requests.length === 0) {
    const done = invalid.length === 0 ? emptyResponse(HTTP_ACCEPTED) : errorReply(invalid);
    return relayed.length === 0
      ? done
      : Promise.all(relayed).then(
          () => done,
          (e: unknown) => storeFailure(e),
        );
  }
  const reply = new PostReply(session);
  void Promise.all(requests.map((r) => session.run(r, reply, request))).then((outcomes) => {
    const responses = [...outcomes.flatMap((o) => (o ? [o.response] : [])), ...invalid];
    reply.finish(responses.length > 0 ? responses : undefined, HTTP_OK);
  });
  return reply.response;
}

/** Runs `initialize` without a session; on success registers the session it opened. */
async function initialize(
  ctx: LegacyContext,
  message: JsonRpcRequest,
  request: HttpRequest,
): Promise<HttpResponse> {
  const refusal = ctx.sessions.refusal(request.principal);
  if (refusal === 'maxSessions') {
    return rpcError('ServiceUnavailable', 'Service Unavailable: too many open sessions; try again later', {
      id: message.id,
    });
  }
  if (refusal) return sessionQuota(message);
  const reply = new PostReply(
    plainStream(ctx.session.keepAliveMs, () => undefined, ctx.session.maxBufferedBytes),
  );
  const channel = new Opening(ctx, request, reply);
  const outcome = await answer(ctx.server, new RequestScope(message, channel, channel));
  const created = channel.created;
  if (created && 'result' in outcome.response) {
    const failed = await register(ctx, created, message.id);
    if (failed) {
      created.end();
      return failed;
    }
    reply.setHeader('mcp-session-id', created.id);
  } else created?.end();
  reply.finish(outcome.response, HTTP_OK);
  return reply.response;
}

/** The line and binding of an `initialize`: it may open the session; its signal is made on first use. */
class Opening implements ScopeLine, ScopeBinding {
  readonly authInfo: AuthInfo | undefined;
  readonly headers: HeaderReader;
  /** The session the `initialize` opened, if it did. */
  created: HttpSession | undefined;
  readonly #ctx: LegacyContext;
  readonly #request: HttpRequest;
  readonly #reply: PostReply;
  #controller: AbortController | undefined;

  constructor(ctx: LegacyContext, request: HttpRequest, reply: PostReply) {
    this.#ctx = ctx;
    this.#request = request;
    this.#reply = reply;
    this.authInfo = request.auth;
    this.headers = request.headers;
  }

  get signal(): AbortSignal {
    return (this.#controller ??= new AbortController()).signal;
  }

  notify(method: string, params: Params): void {
    this.#reply.send({ jsonrpc: '2.0', method, params });
  }

  openSession(init: SessionInit): LegacySession {
    const settings = this.#ctx.fleet?.settings ?? this.#ctx.session;
    const owner = principalOf(this.#request.auth);
    this.created = new HttpSession(this.#ctx.server, init, {
      settings,
      owner,
      principal: this.#request.principal,
    });
    return this.created.legacy;
  }
}

/** Starts serving a new session: here, or stored for the fleet (503 when the store fails). */
async function register(
  ctx: LegacyContext,
  session: HttpSession,
  id: JsonRpcRequest['id'],
): Promise<HttpResponse | undefined> {
  if (!ctx.fleet) return void ctx.sessions.add(session);
  try {
    await ctx.fleet.open(session);
    return undefined;
  } catch (error) {
    return storeFailure(error, id);
  }
}

/** 429 for an `initialize` beyond the caller's own session bound. */
function sessionQuota(message: JsonRpcRequest): HttpResponse {
  const why = 'this client holds too many open sessions (principals.maxSessions); end one with DELETE';
  return rpcError('TooManyRequests', `Too Many Requests: ${why}`, {
    id: message.id,
    headers: { 'retry-after': '60' },
  });
}

/**
 * Answers a legacy GET: opens the session's standalone SSE stream (409 if one is already
 * open), or with `Last-Event-ID` resumes the stream that id belongs to.
 */
export async function legacyGet(ctx: LegacyContext, request: HttpRequest): Promise<HttpResponse> {
  const problem = versionProblem(request);
  if (problem) return problem;
  if (!accepts(request.headers.get('accept'), 'text/event-stream'))
    return rpcError('NotAcceptable', 'Not Acceptable: GET must accept text/event-stream');
  const session = await findSession(ctx, request);
  if (!(session instanceof HttpSession)) return session;
  session.lastActive = Date.now();
  const cursor = parseEventId(request.headers.get('last-event-id')?.trim() ?? '');
  const stream = cursor && (session.streams.get(cursor.streamId) ?? session.storedStream(cursor.streamId));
  try {
    request.longLived = stream === session.streams.standalone;
    if (cursor && stream)
      return sseResponse(await resume(session, stream, { seq: cursor.seq, untilMs: expiryOf(request) }));
    if (session.streams.standalone.connected)
      return rpcError('Conflict', 'Conflict: this session already has a GET stream');
    if (session.replica) await takeStandalone(session);
  } catch (error) {
    return storeFailure(error);
  }
  request.longLived = true; // one per session: principals.maxSessions bounds them
  return sseResponse(session.streams.standalone.connect(expiryOf(request)));
}

/** When the access token of `request` expires, in epoch milliseconds (its `exp`); undefined without one. */
function expiryOf(request: HttpRequest): number | undefined {
  const exp = request.auth?.expiresAt;
  return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
}

/**
 * Resumes a stream after `after.seq` (dropped at `after.untilMs`, the token's expiry). In a fleet, resuming the GET stream takes it over from the
 * instance that held it; a POST stream held by another instance replays what was stored.
 */
async function resume(
  session: HttpSession,
  stream: ResumableStream,
  after: { seq: number; untilMs: number | undefined },
): Promise<ReadableStream<Uint8Array>> {
  if (stream === session.streams.standalone && session.replica) await takeStandalone(session);
  return stream.resume(after.seq, after.untilMs);
}

/** Continues the GET stream's numbering from the store, then tells the fleet it is held here. */
async function takeStandalone(session: HttpSession): Promise<void> {
  await session.streams.standalone.catchUp();
  await session.replica?.takeStandalone();
}

/** Answers a legacy DELETE: ends the session (its id then gets 404). */
export async function legacyDelete(ctx: LegacyContext, request: HttpRequest): Promise<HttpResponse> {
  const problem = versionProblem(request);
  if (problem) return problem;
  const session = await findSession(ctx, request);
  if (!(session instanceof HttpSession)) return session;
  if (!ctx.fleet) ctx.sessions.delete(session.id);
  else
    try {
      await ctx.fleet.end(session);
    } catch (error) {
      return storeFailure(error);
    }
  return emptyResponse(HTTP_OK);
}
