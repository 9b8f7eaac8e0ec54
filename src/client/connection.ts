/**
 * One live connection of a client: the core Peer, the settled era, and the request
 * pipeline: the caller's middleware, then modern `_meta` with the -32022 retry,
 * `x-mcp-header`, the Peer (see middleware.ts), and on the way back `resultType` and the
 * MRTR loop.
 * Source: 2026-07-28 basic/versioning "Protocol Version Negotiation", basic/index "_meta"
 * and "Result type", basic/patterns/mrtr; 2025-11-25 server/utilities/logging; SEP-2663.
 */
import { DEFAULT_MAX_JSON_DEPTH, neverAborted, Peer } from '../core/runtime.js';
import {
  LocalError,
  type JsonRpcNotification,
  type Params,
  composeMiddleware,
  type MessageHandler,
  type McpMessage,
  type MiddlewareContext,
  type RequestId,
  type RequestOptions,
  LATEST_LEGACY_REVISION,
  LATEST_REVISION,
  type Era,
  type Transport,
  type DiscoverResult,
  type Implementation,
} from '../core/index.js';
import { requestCapabilities, withModernMeta, type DeclaredCapabilities } from './capabilities.js';
import {
  describeDiscover,
  establishEra,
  pickVersion,
  type EraContext,
  type ServerDescription,
} from './era.js';
import { explainJunk, guardFirstFrame } from './junk-guard.js';
import { notificationOf, once, peerOptions, requestOf, retryVersion, ToolHeaders } from './middleware.js';
import { PASSAGE, type CallOptions, type Passage } from './middleware.js';
import { answerInputRequests, retryAfterInput, type InputLoop } from './mrtr.js';
import type { ClientOptions } from './options.js';
import { resultKind } from './results.js';
import { serverRequestHandler, type InputAnswering } from './server-requests.js';

/** What a connection needs from its client. */
export interface ConnectionSetup {
  options: ClientOptions;
  capabilities: DeclaredCapabilities;
  clientInfo: Implementation;
  /** `related`: the id of our request whose stream carried it, when the transport tells. */
  onNotification(notification: JsonRpcNotification, related?: RequestId): void;
}

const NO_OPTIONS: CallOptions = {};

/** A started transport with its era settled. Create with {@link Connection.open}. */
export class Connection {
  readonly #peer: Peer;
  readonly #setup: ConnectionSetup;
  readonly #answering: InputAnswering;
  readonly #toolHeaders: ToolHeaders;
  readonly #closed = new AbortController();
  readonly #in: MessageHandler;
  readonly #out: MessageHandler;
  #junk: string | undefined;
  #server: ServerDescription | undefined;

  private constructor(transport: Transport, setup: ConnectionSetup) {
    const { timeoutMs, handlers = {}, fillElicitationDefaults = true, middleware = [] } = setup.options;
    this.#setup = setup;
    this.#answering = { handlers, fillElicitationDefaults, declared: setup.capabilities.modern };
    this.#toolHeaders = new ToolHeaders((message) => setup.options.onWarning?.(message));
    this.#in = composeMiddleware(middleware, this.#incoming(transport));
    this.#out = composeMiddleware(
      middleware,
      once((message, ctx, call) => this.#wire(message, ctx, call)),
    );
    this.#peer = new Peer(
      guardFirstFrame(transport),
      {
        request: (request, incoming) => {
          const passage = { options: NO_OPTIONS, reached: false };
          const { method, params, id } = request;
          const message = { kind: 'request', method, params, id, [PASSAGE]: passage } as const;
          return this.#in(message, this.#ctx('incoming', incoming.signal, passage)) as Promise<Params>;
        },
        notification: (n, related) =>
          void this.#in(
            { kind: 'notification', method: n.method, params: n.params },
            { ...this.#ctx('incoming', neverAborted()), relatedRequestId: related },
          ).catch(() => undefined),
        closed: (error) => this.#closed.abort(error),
        malformed: (text) => (this.#junk ??= text.slice(0, 200)),
      },
      {
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(setup.options.timeoutOption === undefined ? {} : { timeoutOption: setup.options.timeoutOption }),
        maxJsonDepth: setup.options.limits?.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
        maxConcurrentRequests: setup.options.limits?.maxConcurrentRequests ?? 16,
      },
    );
  }

  /**
   * Starts `transport`, settles the era and, on a legacy server that declares `logging`,
   * applies the `logLevel` option. Closes the transport again on failure.
   * @throws as `establishEra`; WireError from `logging/setLevel`.
   */
  static async open(transport: Transport, setup: ConnectionSetup): Promise<Connection> {
    const connection = new Connection(transport, setup);
    await connection.#peer.start();
    try {
      await connection.#establish(transport.binding);
    } catch (error) {
      await connection.close();
      throw explainJunk(error, connection.#junk ?? transport.nonProtocolLines?.().at(-1));
    }
    return connection;
  }

  /** What is known of the server. */
  get server(): ServerDescription {
    return this.#server as ServerDescription;
  }

  /** The era, or undefined while it is being settled. */
  get era(): Era | undefined {
    return this.#server?.era;
  }

  /** True once the transport has ended. */
  get isClosed(): boolean {
    return this.#peer.isClosed;
  }

  /** Aborted (with the transport's error, if any) once the transport has ended. */
  get closedSignal(): AbortSignal {
    return this.#closed.signal;
  }

  /**
   * Why there is no live connection: `last` never opened, or closed (with the transport's
   * error when it was not a clean close).
   */
  static notLive(last: Connection | undefined): LocalError {
    const reason: unknown = last?.closedSignal.reason;
    // A clean close aborts without a reason of its own (an AbortError).
    if (!(reason instanceof Error) || reason.name === 'AbortError') {
      return new LocalError('CONNECTION_CLOSED', 'client is not connected');
    }
    const message = `the connection to the server is closed: ${reason.message}`;
    return new LocalError('CONNECTION_CLOSED', message, { cause: reason });
  }

  /** Sends a notification through the outgoing chain. */
  notify(method: string, params?: Params): void {
    const passage = { options: NO_OPTIONS, reached: false };
    const message = { kind: 'notification', method, params, [PASSAGE]: passage } as const;
    void this.#out(message, this.#ctx('outgoing', neverAborted(), passage)).catch(() => undefined);
  }

  /**
   * `server/discover` (modern only): refreshes what is known of the server, moving to the
   * best version it offers.
   * @throws LocalError `UNSUPPORTED_ERA` on a legacy server.
   */
  async discover(options?: RequestOptions): Promise<DiscoverResult> {
    if (this.server.era === 'legacy') {
      throw new LocalError('UNSUPPORTED_ERA', 'server/discover is modern-only and this server is legacy');
    }
    const result = await this.roundTrip('server/discover', undefined, options);
    const offered = Array.isArray(result.supportedVersions) ? (result.supportedVersions as unknown[]) : [];
    const current = this.server.protocolVersion;
    this.#server = describeDiscover(result, pickVersion(current, offered) ?? current);
    return result as DiscoverResult;
  }

  /** Closes the transport; pending requests reject with LocalError `CONNECTION_CLOSED`. */
  close(): Promise<void> {
    return this.#peer.close();
  }

  /**
   * The one place a request goes out and its result is read. On modern, an
   * `input_required` result on tools/call, resources/read or prompts/get is answered with
   * the handlers and the request retried until it completes (basic/patterns/mrtr).
   * @throws LocalError `INVALID_RESULT` for an unknown `resultType`, `input_required` on
   *   legacy or on another method, a missing handler, or too many rounds; WireError for a
   *   wire error; Peer's local errors.
   */
  async roundTrip(
    method: string,
    params: Params | undefined,
    options: CallOptions = NO_OPTIONS,
  ): Promise<Params> {
    const result = await this.#request(method, params, options);
    if (options.acceptTask && result.resultType === 'task') return result;
    if (resultKind(result, method) === 'complete' || options.relayInputRequired) return result;
    if (this.era !== 'modern') {
      throw new LocalError('INVALID_RESULT', `${method}: input_required from a legacy server`);
    }
    const loop: InputLoop = {
      answering: this.#answering,
      maxRounds: this.#setup.options.maxInputRounds ?? 10,
      maxRequests: this.#setup.options.limits?.maxInputRequests ?? 16,
      signal: options.signal,
      closed: this.#closed.signal,
    };
    let answer = result;
    for (let round = 1; resultKind(answer, method) === 'input_required'; round++) {
      const retry = await retryAfterInput({ method, params, round }, answer, loop);
      answer = await this.#request(method, retry, options);
    }
    return answer;
  }

  /** Answers a task's input requests with the same handlers as MRTR (see mrtr.ts). */
  answerInputs(
    label: string,
    inputRequests: unknown,
    signal: AbortSignal | undefined,
  ): Promise<Params | undefined> {
    return answerInputRequests(label, inputRequests, {
      answering: this.#answering,
      signal,
      closed: this.#closed.signal,
      maxRequests: this.#setup.options.limits?.maxInputRequests ?? 16,
    });
  }

  /** Sends one request through the outgoing chain, its options carried to the terminal. */
  #request(method: string, params: Params | undefined, options: CallOptions): Promise<Params> {
    const passage = { options, reached: false };
    const ctx = this.#ctx('outgoing', options.signal ?? neverAborted(), passage);
    const message = { kind: 'request', method, params, [PASSAGE]: passage } as const;
    return this.#out(message, ctx).then((result) => result ?? {});
  }

  #ctx(direction: 'incoming' | 'outgoing', signal: AbortSignal, passage?: Passage): MiddlewareContext {
    const server = this.#server;
    return {
      side: 'client',
      direction,
      era: server?.era,
      protocolVersion: server?.protocolVersion,
      signal,
      headers: passage?.options.headers,
      [PASSAGE]: passage,
    } as MiddlewareContext;
  }

  /** The terminal: a notification as is; a request with the modern steps when modern, then a -32022 retry. */
  async #wire(message: McpMessage, ctx: MiddlewareContext, call: CallOptions): Promise<Params | undefined> {
    if (message.kind === 'notification') return void this.#peer.notify(message.method, message.params);
    const version = ctx.era === 'modern' ? ctx.protocolVersion : undefined;
    if (version === undefined) {
      return this.#peer.request(message.method, message.params, peerOptions(ctx, call, call.modernVersion));
    }
    return this.#modern(message, ctx, call).catch((error: unknown) => {
      const retry = retryVersion(error, version);
      if (retry === undefined) throw error;
      this.server.protocolVersion = retry;
      return this.#modern(message, { ...ctx, protocolVersion: retry }, call);
    });
  }

  /** A modern request: its `_meta`, its `Mcp-Param-*` headers, and the screening of a tool list. */
  #modern(message: McpMessage, ctx: MiddlewareContext, call: CallOptions): Promise<Params> {
    const version = ctx.protocolVersion as string;
    const options = peerOptions(ctx, call, version);
    if (message.method === 'tools/call') {
      const headers = this.#toolHeaders.headersFor(options.headers, message.params);
      if (headers !== undefined) options.headers = headers;
    }
    const sent = this.#peer.request(
      message.method,
      this.#modernParams(version, message.params, call),
      options,
    );
    return message.method === 'tools/list' ? sent.then((result) => this.#toolHeaders.screen(result)) : sent;
  }

  /** `_meta` of a modern request: the call's `clientCapabilities` replace the declared ones; its `extensions` are added. */
  #modernParams(version: string, params: Params | undefined, call: CallOptions = NO_OPTIONS): Params {
    const declared = call.clientCapabilities ?? this.#setup.capabilities.modern;
    return withModernMeta(params, {
      protocolVersion: version,
      capabilities: requestCapabilities(declared, call.extensions),
      clientInfo: this.#setup.clientInfo,
      logLevel: this.#setup.options.logLevel,
    });
  }

  /** The terminal of the incoming chain: notifications to the client, requests to its handlers. */
  #incoming(transport: Transport): MessageHandler {
    const answer = serverRequestHandler(
      this.#answering,
      () => this.era,
      (id) => transport.relatedRequest?.(id),
    );
    const request = once((message, ctx) =>
      answer(requestOf(message), { signal: ctx.signal, notify: () => undefined }),
    );
    return (message, ctx) => {
      if (message.kind === 'request') return request(message, ctx);
      this.#setup.onNotification(notificationOf(message), ctx.relatedRequestId);
      return Promise.resolve(undefined);
    };
  }

  async #establish(binding: string | undefined): Promise<void> {
    const { eraCache, cacheKey, era = 'auto', logLevel } = this.#setup.options;
    const cached = cacheKey === undefined ? undefined : eraCache?.get(cacheKey);
    const server = await establishEra({ ...this.#eraContext(), binding }, era, cached);
    this.#server = server;
    if (era === 'auto' && cacheKey !== undefined) eraCache?.set(cacheKey, server.era);
    if (logLevel !== undefined && server.era === 'legacy' && server.serverCapabilities?.logging) {
      await this.#request('logging/setLevel', { level: logLevel }, NO_OPTIONS);
    }
  }

  #eraContext(): Omit<EraContext, 'binding'> {
    const { options, capabilities, clientInfo } = this.#setup;
    return {
      request: (method, params, requestOptions = NO_OPTIONS) => this.#request(method, params, requestOptions),
      notify: (method, params) => this.notify(method, params),
      withModernMeta: (version, params) => this.#modernParams(version, params),
      preferredVersion: options.protocolVersion ?? LATEST_REVISION,
      legacyVersion: options.legacyProtocolVersion ?? LATEST_LEGACY_REVISION,
      legacyCapabilities: capabilities.legacy,
      clientInfo,
      probeTimeoutMs: options.probeTimeoutMs ?? 5000,
    };
  }
}
