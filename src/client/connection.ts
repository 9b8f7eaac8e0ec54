/**
 * One live connection of a client: the core Peer, the settled era, and the request pipeline
 * (modern `_meta`, version retry, `resultType`).
 * Source: 2026-07-28 basic/versioning "Protocol Version Negotiation", basic/index "_meta"
 * and "Result type", basic/patterns/mrtr; 2025-11-25 server/utilities/logging.
 */
import { DEFAULT_MAX_JSON_DEPTH } from '../core/json-limits.js';
import { McpkitError } from '../core/errors.js';
import type { Params } from '../core/jsonrpc.js';
import type { MessageHandler, McpMessage, MiddlewareContext } from '../core/middleware.js';
import { Peer, type RequestOptions } from '../core/peer.js';
import { LATEST_LEGACY_REVISION, LATEST_REVISION, type Era } from '../core/revisions.js';
import type { Transport } from '../core/transport.js';
import type { ClientCapabilities, DiscoverResult } from '../core/types/index.js';
import { requestCapabilities, withModernMeta } from './capabilities.js';
import {
  describeDiscover,
  establishEra,
  pickVersion,
  type EraContext,
  type ServerDescription,
} from './era.js';
import { explainJunk, guardFirstFrame } from './junk-guard.js';
import { answerInputRequests, continueWithInput } from './mrtr.js';
import { CALL_OPTIONS, clientChain, modernMetaStep, toolHeaderStep, type CallContext } from './middleware.js';
import { resultKind } from './results.js';
import {
  notificationOf,
  peerOptions,
  requestOf,
  type CallOptions,
  type ConnectionSetup,
  type RelayOptions,
} from './connection-types.js';
import { serverRequestHandler, type InputAnswering } from './server-requests.js';

export type { CallOptions, ConnectionSetup, RelayOptions } from './connection-types.js';

const NEVER = new AbortController().signal;

/** A started transport with its era settled. Create with {@link Connection.open}. */
export class Connection {
  readonly #peer: Peer;
  #junk: string | undefined;
  readonly #setup: ConnectionSetup;
  readonly #answering: InputAnswering;
  readonly #closed = new AbortController();
  readonly #out: MessageHandler;
  readonly #in: MessageHandler;
  #server: ServerDescription | undefined;

  private constructor(transport: Transport, setup: ConnectionSetup) {
    const { timeoutMs, handlers = {}, fillElicitationDefaults = true, middleware = [] } = setup.options;
    this.#setup = setup;
    this.#answering = { handlers, fillElicitationDefaults };
    const headers = toolHeaderStep((message) => setup.options.onWarning?.(message));
    const meta = modernMetaStep({
      withMeta: (version, params, ctx) => {
        const call = (ctx as CallContext)[CALL_OPTIONS] as (CallOptions & RelayOptions) | undefined;
        return this.#modernParams(version, params, {
          extensions: call?.extensions,
          capabilities: call?.clientCapabilities,
        });
      },
      setVersion: (version) => (this.server.protocolVersion = version),
    });
    this.#out = clientChain(middleware, [meta, headers.step], (m, c) => this.#wire(m, c));
    const answer = serverRequestHandler(
      this.#answering,
      () => this.era,
      (id) => transport.relatedRequest?.(id),
    );
    this.#in = clientChain(middleware, [], (message, ctx) => {
      if (message.kind === 'notification') {
        setup.onNotification(notificationOf(message));
        return Promise.resolve(undefined);
      }
      return answer(requestOf(message), { signal: ctx.signal, notify: () => undefined });
    });
    this.#peer = new Peer(
      guardFirstFrame(transport),
      {
        request: (request, incoming) =>
          this.#in(
            { kind: 'request', method: request.method, params: request.params, id: request.id },
            this.#ctx('incoming', incoming.signal),
          ) as Promise<Params>,
        notification: (n) =>
          void this.#in(
            { kind: 'notification', method: n.method, params: n.params },
            this.#ctx('incoming', NEVER),
          ).catch(() => undefined),
        closed: (error) => this.#closed.abort(error),
        malformed: (text) => (this.#junk ??= text.slice(0, 200)),
      },
      {
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        maxJsonDepth: setup.options.limits?.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
        maxConcurrentRequests: setup.options.limits?.maxConcurrentRequests ?? 16,
      },
    );
  }

  #ctx(direction: 'incoming' | 'outgoing', signal: AbortSignal, options?: RequestOptions): CallContext {
    return {
      side: 'client',
      direction,
      era: this.#server?.era,
      protocolVersion: this.#server?.protocolVersion,
      signal,
      headers: options?.headers,
      [CALL_OPTIONS]: options,
    };
  }

  /** The terminal of the outgoing chain: the Peer, with the ctx's signal and headers. */
  async #wire(message: McpMessage, ctx: MiddlewareContext): Promise<Params | undefined> {
    if (message.kind === 'notification') return void this.#peer.notify(message.method, message.params);
    const options = peerOptions((ctx as CallContext)[CALL_OPTIONS]);
    if (ctx.signal !== NEVER) options.signal = ctx.signal;
    if (ctx.headers !== undefined) options.headers = ctx.headers;
    return this.#peer.request(message.method, message.params, options);
  }

  /** Sends a request through the outgoing chain as is (no `_meta` added unless the era is modern). */
  #request(method: string, params: Params | undefined, options: RequestOptions = {}): Promise<Params> {
    const ctx = this.#ctx('outgoing', options.signal ?? NEVER, options);
    return this.#out({ kind: 'request', method, params }, ctx).then((result) => result ?? {});
  }

  /**
   * Starts `transport`, settles the era and, on a legacy server that declares `logging`,
   * applies the `logLevel` option. Closes the transport again on failure.
   * @throws as `establishEra`; McpError from `logging/setLevel`.
   */
  static async open(transport: Transport, setup: ConnectionSetup): Promise<Connection> {
    const connection = new Connection(transport, setup);
    await connection.#peer.start();
    try {
      await connection.#establish();
    } catch (error) {
      await connection.close();
      throw explainJunk(error, connection.#junk);
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

  /** Replaces what is known of the server (after `server/discover`). */
  set server(description: ServerDescription) {
    this.#server = description;
  }

  /** True once the transport has ended. */
  get isClosed(): boolean {
    return this.#peer.isClosed;
  }

  /** Aborted (with the transport's error, if any) once the transport has ended. */
  get closedSignal(): AbortSignal {
    return this.#closed.signal;
  }

  /** Sends a notification as is. */
  notify(method: string, params?: Params): void {
    void this.#out({ kind: 'notification', method, params }, this.#ctx('outgoing', NEVER)).catch(
      () => undefined,
    );
  }

  /**
   * `server/discover` (modern only): refreshes what is known of the server, moving to the
   * best version it offers.
   * @throws McpkitError `UNSUPPORTED_ERA` on a legacy server.
   */
  async discover(options?: RequestOptions): Promise<DiscoverResult> {
    if (this.server.era === 'legacy') {
      throw new McpkitError('UNSUPPORTED_ERA', 'server/discover is modern-only and this server is legacy');
    }
    const result = await this.roundTrip('server/discover', undefined, options);
    const offered = Array.isArray(result.supportedVersions) ? (result.supportedVersions as unknown[]) : [];
    const current = this.server.protocolVersion;
    this.#server = describeDiscover(result, pickVersion(current, offered) ?? current);
    return result as DiscoverResult;
  }

  /** Closes the transport; pending requests reject with McpkitError `CONNECTION_CLOSED`. */
  close(): Promise<void> {
    return this.#peer.close();
  }

  /**
   * The one place a request goes out and its result is read. On modern, an
   * `input_required` result on tools/call, resources/read or prompts/get is answered with
   * the handlers and the request retried until it completes (basic/patterns/mrtr).
   * @throws McpkitError `INVALID_RESULT` for an unknown `resultType`, `input_required` on
   *   legacy or on another method, a missing handler, or too many rounds; McpError for a
   *   wire error; Peer's local errors.
   */
  async roundTrip(
    method: string,
    params: Params | undefined,
    options: CallOptions & RelayOptions = {},
  ): Promise<Params> {
    const send = (p: Params | undefined): Promise<Params> => this.#send(method, p, options);
    const result = await send(params);
    if (options.acceptTask && result.resultType === 'task') return result;
    if (resultKind(result, method) === 'complete' || options.relayInputRequired) return result;
    if (this.era !== 'modern') {
      throw new McpkitError('INVALID_RESULT', `${method}: input_required from a legacy server`);
    }
    return continueWithInput(method, params, result, {
      send,
      answering: this.#answering,
      maxRounds: this.#setup.options.maxInputRounds ?? 10,
      maxRequests: this.#setup.options.limits?.maxInputRequests ?? 16,
      signal: options.signal,
      closed: this.#closed.signal,
    });
  }

  /** Sends one request through the chain (modern `_meta` and the -32022 retry are steps of it). */
  #send(method: string, params: Params | undefined, options: CallOptions & RelayOptions): Promise<Params> {
    return this.#request(method, params, options);
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

  /** `_meta` of a modern request: `capabilities` replaces the declared ones; `extensions` are added. */
  #modernParams(
    version: string,
    params: Params | undefined,
    per: {
      extensions?: Record<string, Params> | undefined;
      capabilities?: ClientCapabilities | undefined;
    } = {},
  ): Params {
    return withModernMeta(params, {
      protocolVersion: version,
      capabilities: requestCapabilities(per.capabilities ?? this.#setup.capabilities.modern, per.extensions),
      clientInfo: this.#setup.clientInfo,
      logLevel: this.#setup.options.logLevel,
    });
  }

  async #establish(): Promise<void> {
    const { eraCache, cacheKey, era = 'auto', logLevel } = this.#setup.options;
    const cached = cacheKey === undefined ? undefined : eraCache?.get(cacheKey);
    const server = await establishEra(this.#eraContext(), era, cached);
    this.#server = server;
    if (era === 'auto' && cacheKey !== undefined) eraCache?.set(cacheKey, server.era);
    if (logLevel !== undefined && server.era === 'legacy' && server.serverCapabilities?.logging) {
      await this.#request('logging/setLevel', { level: logLevel });
    }
  }

  #eraContext(): EraContext {
    const { options, capabilities, clientInfo } = this.#setup;
    return {
      request: (method, params, requestOptions) => this.#request(method, params, requestOptions),
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
