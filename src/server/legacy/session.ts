/**
 * A legacy session: what an `initialize` establishes and the later requests of that
 * client rely on (negotiated revision, client capabilities, log level, subscriptions),
 * plus the way back to the client for server-initiated requests and notifications.
 * Source: 2025-11-25 basic/lifecycle, server/utilities/logging, server/resources.
 */
import type {
  AuthInfo,
  Params,
  RequestOptions,
  LegacyRevision,
  ClientCapabilities,
  Implementation,
  LoggingLevel,
  ServerCapabilities,
  ServerEvent,
} from '../../core/index.js';
import { EVENT_METHOD, declares, serverCapabilityNeeded } from '../../core/runtime.js';
import { SubscribedUris } from '../resource-uri.js';

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
  /**
   * The capabilities the server's `initialize` result advertised to this client; its
   * notifications follow them (no list_changed for a list not advertised with `listChanged`).
   * Undefined for a session restored without them: then nothing is held back.
   */
  serverCapabilities: ServerCapabilities | undefined;
  /** Who opened the session (the `initialize` request's caller), for per-caller catalogues. */
  auth: AuthInfo | undefined;
  /** Tells whether a list change concerns this client's view (per-caller catalogues); absent: every one does. */
  concerns: ((event: ServerEvent) => boolean) | undefined;
  #subscriptions: SubscribedUris | undefined;

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

  /**
   * URIs the client subscribed to with `resources/subscribe`, one per resource whatever the
   * spelling (made on first use).
   */
  get subscriptions(): SubscribedUris {
    return (this.#subscriptions ??= new SubscribedUris());
  }
}

/**
 * Sends a server event to an initialized legacy session as its notification (a resource
 * update only when the session subscribed to that URI), if the capabilities advertised to
 * the session allow it (2025-11-25 server/tools, server/prompts, server/resources).
 */
export function forwardEvent(event: ServerEvent, session: LegacySession): void {
  if (!session.initialized) return;
  const method = EVENT_METHOD[event.type];
  const advertised = session.serverCapabilities;
  if (advertised && !declares(advertised, serverCapabilityNeeded(method))) return;
  if (session.concerns && !session.concerns(event)) return;
  if (event.type !== 'resourceUpdated') session.link.notify(method);
  else {
    // Any spelling of the resource the session subscribed to (told with its own spelling).
    const uri = session.subscriptions.spellingOf(event.uri);
    if (uri !== undefined) session.link.notify(method, { uri });
  }
}
