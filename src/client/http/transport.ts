/**
 * The client side of Streamable HTTP as a core {@link Transport}: every message is a POST to
 * the MCP endpoint, and each response (a JSON body or an SSE stream) is handed to the
 * client frame by frame. It speaks both wires, message by message: a request its sender
 * marks modern (`SendOptions.modernVersion`) gets the modern request headers and is
 * cancelled by closing its stream; anything else follows the legacy session rules
 * (session id, GET stream, resumption).
 * Uses only web `fetch`, so it runs in browsers and workers too.
 * Source: 2026-07-28 basic/transports/streamable-http; 2025-11-25 basic/transports.
 */
import { sendRetrying } from './retry.js';
import {
  LocalError,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
  type SendOptions,
  type Transport,
  type TransportSink,
} from '../../core/index.js';
import { disconnectedFrame } from './frames.js';
import { retried, unreachable, within, type PostFailure } from './fetch-failure.js';
import { LegacySession, type Exchange } from './legacy/http-session.js';
import type { StreamableHttpOptions } from './options.js';
import { SessionRenewal } from './session-renewal.js';
import { RelatedRequests } from './related-requests.js';
import { modernHeaders } from './request-headers.js';
import { ResponseReader } from './responses.js';
import { legacySseFallback, type SseTransport } from './legacy/sse-transport.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from './sse.js';
import { withDeadline } from '../../core/runtime.js';

export type { FetchWrapper, HeaderSource, ReconnectOptions, StreamableHttpOptions } from './options.js';
export type { RetryOptions } from './retry.js';

const ACCEPT = 'application/json, text/event-stream';
/** Longest wait for a GET stream to be answered before later requests go ahead anyway. */
const STREAM_WAIT_MS = 1000;

/** Longest wait, in milliseconds, for the server to accept a POSTed notification or response. */
const POST_TIMEOUT_MS = 10_000;

class StreamableHttpTransport implements Transport {
  readonly binding = 'streamable-http';
  readonly #url: URL;
  readonly #fetch: typeof fetch;
  readonly #options: StreamableHttpOptions;
  readonly #maxMessageBytes: number;
  readonly #exchanges = new Map<RequestId, Exchange>();
  readonly #session: LegacySession;
  readonly #renewal: SessionRenewal;
  readonly #responses: ResponseReader;
  readonly #related = new RelatedRequests();
  #sink: TransportSink | undefined;
  #closed = false;
  /** Set once any fetch got an HTTP response: from then on the URL is known to be a server. */
  #answered = false;
  readonly #posts = new AbortController();
  /** Settles once `notifications/initialized` was posted and the GET stream answered. */
  #initialized: Promise<void> | undefined;
  /** Set once the server turned out to speak only the deprecated HTTP+SSE transport. */
  #sse: SseTransport | undefined;

  constructor(url: URL, options: StreamableHttpOptions) {
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.#url = url;
    const base: typeof fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#fetch = options.auth ? options.auth.wrapFetch(base, url) : base;
    this.#options = options.auth ? { ...options, fetch: this.#fetch } : options;
    this.#session = new LegacySession({
      url,
      fetch: (method, headers, signal) =>
        this.#http(headers, signal === undefined ? { method } : { method, signal }),
      deliver: (text, exchange) => this.#responses.deliver(text, exchange),
      warn: (message) => this.#warn(message),
      lost: () => this.#renewal.streamLost(),
      reconnect: {
        delayMs: options.reconnect?.delayMs ?? 1000,
        maxAttempts: options.reconnect?.maxAttempts ?? 3,
      },
    });
    this.#responses = new ResponseReader({
      sink: () => (this.#closed ? undefined : this.#sink),
      session: this.#session,
      maxMessageBytes: this.#maxMessageBytes,
      related: this.#related,
    });
    this.#renewal = new SessionRenewal({
      session: this.#session,
      post: (message, read) =>
        this.#bounded(async (signal) => {
          const init = { method: 'POST', body: JSON.stringify(message), signal };
          return read(await this.#http(this.#postHeaders(), init));
        }),
      openStream: () => within(this.#session.openStream(), STREAM_WAIT_MS),
      warn: (message) => this.#warn(message),
      maxMessageBytes: this.#maxMessageBytes,
    });
  }

  start(sink: TransportSink): void {
    this.#sink = sink;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void {
    if (this.#closed || !this.#sink) return;
    if (this.#sse) return this.#sse.send(message);
    if (Array.isArray(message)) return void this.#post(message, 'response');
    if (!('method' in message)) return void this.#answer(message);
    if ('id' in message) void this.#request(message as JsonRpcRequest, options);
    else this.#notify(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#posts.abort();
    for (const exchange of this.#exchanges.values()) exchange.controller.abort();
    this.#exchanges.clear();
    if (this.#sse) return this.#sse.close();
    await this.#session.terminate();
    this.#sink?.closed();
  }

  /** Modern: closing the request's stream is the cancellation. Legacy: say so, then stop reading. */
  #notify(notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/cancelled') {
      const id = notification.params?.requestId;
      const exchange = typeof id === 'string' || typeof id === 'number' ? this.#exchanges.get(id) : undefined;
      if (exchange?.modern || (!exchange && this.#session.version === undefined)) {
        exchange?.controller.abort();
        return;
      }
      void this.#post(notification, notification.method).then(() => exchange?.controller.abort());
      return;
    }
    if (notification.method !== 'notifications/initialized') {
      void this.#post(notification, notification.method);
      return;
    }
    // Later messages wait until the server has taken this one and answered the GET, so
    // they reach it in order (2025-11-25 basic/lifecycle "Initialization").
    this.#initialized = this.#post(notification, notification.method).then(async (ok) => {
      if (ok && !this.#closed) await within(this.#session.openStream(), STREAM_WAIT_MS);
    });
  }

  async #request(request: JsonRpcRequest, options: SendOptions | undefined): Promise<void> {
    const version = options?.modernVersion;
    const extra = options?.headers;
    const exchange: Exchange = {
      id: request.id,
      method: request.method,
      modern: version !== undefined,
      controller: new AbortController(),
      answered: false,
    };
    this.#exchanges.set(request.id, exchange);
    if (request.method === 'initialize') {
      this.#session.reset();
      this.#initialized = undefined;
    }
    try {
      if (version === undefined) await this.#initialized;
      if (version === undefined) this.#renewal.record(request);
      const headers =
        version === undefined
          ? this.#legacyHeaders(extra)
          : modernHeaders(request, version, new Headers(extra));
      headers.set('Accept', ACCEPT);
      const body = JSON.stringify(request);
      const signal = exchange.controller.signal;
      let response = await this.#http(headers, { method: 'POST', body, signal });
      if (version === undefined && this.#renewal.lost(response, request)) {
        response = await this.#onNewSession(response, headers.get('Mcp-Session-Id'), () =>
          this.#http(this.#postHeaders(extra), { method: 'POST', body, signal }),
        );
      }
      if (version === undefined && response.ok) this.#renewal.succeeded();
      if (request.method === 'initialize' && response.ok) this.#session.adopt(response);
      else if (request.method === 'initialize' && !exchange.modern)
        return await this.#fallBack(request, response, exchange);
      await this.#responses.consume(response, exchange);
    } catch (error) {
      if (exchange.controller.signal.aborted || this.#closed) return;
      // Nothing (or nothing that speaks HTTP) at the URL: a local failure, not a server error.
      if (error instanceof TypeError) return this.#failOne(exchange.id, unreachable(this.#url, error));
      const reason = error instanceof Error ? error.message : String(error);
      this.#responses.deliver(disconnectedFrame(exchange.id, `HTTP request failed: ${reason}`));
    } finally {
      this.#exchanges.delete(request.id);
    }
  }

  /**
   * The server lost the legacy session of a request (HTTP 404): renew the session (unless
   * another request already did) and send the request once more, as it never ran.
   * Returns the new response, or the 404 when no new session could be started.
   */
  async #onNewSession(
    refused: Response,
    sentSession: string | null,
    resend: () => Promise<Response>,
  ): Promise<Response> {
    const current = this.#legacyHeaders().get('Mcp-Session-Id');
    const renewed = (current !== null && current !== sentSession) || (await this.#renewal.renew());
    if (!renewed || this.#closed) return refused;
    await refused.body?.cancel().catch(() => undefined);
    return resend();
  }

  /** A refused legacy `initialize`: on to HTTP+SSE when the server offers it, else the refusal. */
  async #fallBack(request: JsonRpcRequest, response: Response, exchange: Exchange): Promise<void> {
    const target = { url: this.#url, options: this.#options };
    const outcome = await legacySseFallback(target, response, exchange.controller.signal);
    if ('body' in outcome) return this.#responses.refused(response, exchange, outcome.body);
    if (this.#closed || !this.#sink) return void outcome.transport.close();
    this.#sse = outcome.transport;
    this.#sse.start(this.#sink);
    this.#sse.send(request);
  }

  /**
   * POSTs our answer to a server's request, again after a network failure (matched by id, a
   * second copy is harmless). If it still cannot be delivered, the request of ours that the
   * server's request came with fails, instead of waiting for an answer that will never come.
   */
  async #answer(response: JsonRpcMessage & { id?: RequestId | null }): Promise<void> {
    const id = response.id ?? undefined;
    const closed = (): boolean => this.#closed;
    const failure = await retried(() => this.#tryPost(response, 'response'), closed);
    const ours = id === undefined ? undefined : this.#related.forget(id);
    if (failure === undefined || this.#closed) return;
    this.#warn(`response: ${failure.reason}`);
    if (ours === undefined || !this.#exchanges.has(ours)) return;
    const why = `could not deliver the answer to the server's request ${String(id)}: ${failure.reason}`;
    this.#failOne(ours, new LocalError('CONNECTION_CLOSED', why));
    this.#exchanges.get(ours)?.controller.abort();
  }

  /** POSTs a notification or response; true when the server accepted it. */
  async #post(message: JsonRpcMessage | JsonRpcMessage[], label: string): Promise<boolean> {
    const failure = await this.#tryPost(message, label);
    if (failure && !this.#closed) this.#warn(`${label}: ${failure.reason}`);
    return failure === undefined;
  }

  /** POSTs `message`; undefined when accepted, else why and whether sending again may help. */
  async #tryPost(
    message: JsonRpcMessage | JsonRpcMessage[],
    label: string,
  ): Promise<PostFailure | undefined> {
    try {
      if (label !== 'notifications/initialized') await this.#initialized;
      const status = await this.#bounded(async (signal) => {
        const init = { method: 'POST', body: JSON.stringify(message), signal };
        const response = await this.#http(this.#postHeaders(), init);
        await response.body?.cancel().catch(() => undefined);
        return response.status;
      });
      if (status >= 200 && status < 300) return undefined;
      return { reason: `the server answered HTTP ${status}`, retry: status >= 500 };
    } catch (error) {
      if (error instanceof TypeError) return { reason: unreachable(this.#url, error).message, retry: true };
      return { reason: error instanceof Error ? error.message : String(error), retry: false };
    }
  }

  /** Session headers plus `Accept` (and the message's own headers), for a POST. */
  #postHeaders(extra?: Readonly<Record<string, string>>): Headers {
    const headers = this.#legacyHeaders(extra);
    headers.set('Accept', ACCEPT);
    return headers;
  }

  #legacyHeaders(extra?: Readonly<Record<string, string>>): Headers {
    const headers = new Headers(extra);
    this.#session.apply(headers);
    return headers;
  }

  /**
   * Fetches the endpoint with `init` (method, body, signal), the `protocol` headers over the
   * options' own; a 429 is retried as `options.retry` says.
   */
  async #http(protocol: Headers, init: RequestInit): Promise<Response> {
    const source = this.#options.headers;
    const headers = new Headers(typeof source === 'function' ? await source() : source);
    protocol.forEach((value, name) => headers.set(name, value));
    if (init.body !== undefined) headers.set('Content-Type', 'application/json');
    init.headers = headers;
    const response = await sendRetrying(
      () => this.#fetch(this.#url, init),
      this.#options.retry ?? {},
      init.signal ?? undefined,
    );
    this.#answered = true;
    return response;
  }

  /** The request whose POST stream carried the server's request `id` (see RelatedRequests). */
  relatedRequest(id: RequestId): RequestId | undefined {
    return this.#related.take(id);
  }

  /** One POST (`work`) within {@link POST_TIMEOUT_MS}, headers and body; aborted on close. @throws LocalError `TIMEOUT` */
  #bounded<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return withDeadline({ url: this.#url, ms: POST_TIMEOUT_MS, signal: this.#posts.signal }, work);
  }

  /**
   * Before the server ever answered, an unreachable URL ends the connection. Once it has,
   * a failed fetch (an instance of a fleet died, a socket reset) fails only its own request
   * (`CONNECTION_CLOSED`, which a listen re-subscribes after); the next one may get through.
   */
  #failOne(id: RequestId, error: LocalError): void {
    if (!this.#answered) this.#fail(error);
    else if (this.#sink?.failed) this.#sink.failed(id, error);
    else this.#responses.deliver(disconnectedFrame(id, error.message));
  }

  #fail(error: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#posts.abort();
    for (const exchange of this.#exchanges.values()) exchange.controller.abort();
    this.#exchanges.clear();
    this.#session.reset();
    this.#sink?.closed(error);
  }

  #warn(message: string): void {
    this.#options.onWarning?.(message);
  }
}

/**
 * A Streamable HTTP client transport for the MCP endpoint at `url`, to pass to
 * `Client.connect()`. The client's own era detection works unchanged over it: a legacy
 * server's bare 4xx to the modern probe arrives as a non-modern JSON-RPC error, so the
 * client falls back to `initialize` (streamable-http "Backward Compatibility"). When that
 * `initialize` is refused with a bare 400, 404 or 405 too, it moves to the deprecated
 * HTTP+SSE transport if the server offers it (see `legacySseFallback`).
 * Closing it aborts open requests and streams and, on a legacy session, sends DELETE.
 * @throws TypeError for a malformed `url`.
 */
export function streamableHttp(url: string | URL, options: StreamableHttpOptions = {}): Transport {
  return new StreamableHttpTransport(new URL(url), options);
}
