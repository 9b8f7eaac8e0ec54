/**
 * A legacy session: what an `initialize` establishes and the later requests of that
 * client rely on (negotiated revision, client capabilities, log level, subscriptions),
 * plus the way back to the client for server-initiated requests and notifications.
 * Source: 2025-11-25 basic/lifecycle, server/utilities/logging, server/resources.
 */
import type { Params, RequestId } from '../../core/jsonrpc.js';
import { checkInputAnswer, type AskedMethod } from '../answers.js';
import type { SchemaLimits } from '../../validation/index.js';
import type { RequestChannel } from '../channel.js';
import type { AuthInfo, ContextChannel } from '../context.js';
import type { RequestOptions } from '../../core/peer.js';
import type { LegacyRevision } from '../../core/revisions.js';
import type { ClientCapabilities, Implementation, LoggingLevel } from '../../core/types/index.js';

/** How a session reaches its client; supplied by the transport. */
export interface SessionLink {
  /** Sends a server-initiated request and resolves with its result. */
  request(method: string, params: Params, options?: RequestOptions): Promise<Params>;
  /** Sends a notification not tied to any request (list changes, resource updates). */
  notify(method: string, params?: Params): void;
}

/** The state of one legacy session. */
export class LegacySession {
  /** `Mcp-Session-Id` on HTTP; undefined on stdio. */
  readonly id: string | undefined;
  readonly protocolVersion: LegacyRevision;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities;
  /**
   * The way back to the client. The server replaces it, when it has middleware, with one
   * that passes each message through its outgoing chain.
   */
  link: SessionLink;
  /** The client's log threshold; `debug` (everything) until `logging/setLevel`. */
  logLevel: LoggingLevel = 'debug';
  /** Set once `notifications/initialized` arrives. */
  initialized = false;
  #subscriptions: Set<string> | undefined;

  constructor(init: {
    id?: string;
    protocolVersion: LegacyRevision;
    clientInfo: Implementation | undefined;
    clientCapabilities: ClientCapabilities;
    link: SessionLink;
  }) {
    this.id = init.id;
    this.protocolVersion = init.protocolVersion;
    this.clientInfo = init.clientInfo;
    this.clientCapabilities = init.clientCapabilities;
    this.link = init.link;
  }

  /** URIs the client subscribed to with `resources/subscribe` (the set is made on first use). */
  get subscriptions(): Set<string> {
    return (this.#subscriptions ??= new Set());
  }
}

/**
 * The context channel of a request in a legacy session: input requests go to the client
 * as server-initiated requests; the log level is read when a message is logged, so a
 * `logging/setLevel` during a call applies to it.
 */
export class LegacyChannel implements ContextChannel {
  readonly era = 'legacy' as const;
  readonly requestId: RequestId;
  readonly meta: Readonly<Record<string, unknown>>;
  readonly schemaLimits: SchemaLimits | undefined;
  readonly #channel: RequestChannel;
  readonly #session: LegacySession;

  /** `request.meta` is the request's `_meta`; `schemaLimits` the server's `limits.schema`. */
  constructor(
    request: { id: RequestId; meta: Record<string, unknown>; schemaLimits: SchemaLimits | undefined },
    channel: RequestChannel,
    session: LegacySession,
  ) {
    this.requestId = request.id;
    this.meta = request.meta;
    this.schemaLimits = request.schemaLimits;
    this.#channel = channel;
    this.#session = session;
  }

  get signal(): AbortSignal {
    return this.#channel.signal;
  }
  get protocolVersion(): string {
    return this.#session.protocolVersion;
  }
  get clientCapabilities(): ClientCapabilities {
    return this.#session.clientCapabilities;
  }
  get clientInfo(): Implementation | undefined {
    return this.#session.clientInfo;
  }
  get authInfo(): AuthInfo | undefined {
    return this.#channel.authInfo;
  }
  get logLevel(): LoggingLevel {
    return this.#session.logLevel;
  }

  notify(method: string, params: Params): void {
    this.#channel.notify(method, params);
  }

  /** Sends the request on the session; the answer is checked as a modern one would be. */
  async ask(method: AskedMethod, params: Params): Promise<Params> {
    const answer = await this.#session.link.request(method, params, { signal: this.#channel.signal });
    return checkInputAnswer({ method, params, limits: this.schemaLimits }, answer, `${method} answer`);
  }
}
