/**
 * Serves a server definition over one stream transport (stdio, the in-memory pair): one
 * connection, at most one legacy session, any number of modern requests.
 * Source: 2026-07-28 basic/transports/stdio; 2025-11-25 basic/lifecycle.
 */
import { DEFAULT_MAX_JSON_DEPTH } from '../core/json-limits.js';
import { EVENT_METHOD, type ServerEvent } from '../core/event-bus.js';
import { Peer, type IncomingContext } from '../core/peer.js';
import type { Params } from '../core/jsonrpc.js';
import type { Transport } from '../core/transport.js';
import { allowsBatch } from '../core/wire.js';
import type { RequestChannel, SessionInit } from './channel.js';
import type { McpServer } from './server.js';
import { LegacySession } from './legacy/session.js';

/** A live connection of a server to one client. */
export interface ServerConnection {
  /** The legacy session, once the client sent `initialize`. */
  readonly session: LegacySession | undefined;
  /** Resolves when the transport ends (e.g. stdin closed). */
  readonly closed: Promise<void>;
  /** Closes the transport. */
  close(): Promise<void>;
}

/** Starts serving `server` on `transport`. */
export async function connect(server: McpServer, transport: Transport): Promise<ServerConnection> {
  // When the client stops sending (stdin ends), answer what is in flight, then close.
  let session: LegacySession | undefined;
  let unwatch: (() => void) | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const openSession = (init: SessionInit): LegacySession => {
    session = new LegacySession({
      ...init,
      link: { request: (m, p, o) => peer.request(m, p, o), notify: (m, p) => peer.notify(m, p) },
    });
    unwatch = watchEvents(server, session);
    return session;
  };
  const peer: Peer = new Peer(
    transport,
    {
      request: (request, incoming) =>
        server.handle(request, new StreamChannel(incoming, session, openSession)),
      notification: (n) => server.handleNotification(n, session),
      allowBatch: () => allowsBatch(session?.protocolVersion),
      internalError: (error, request) => server.options.onError?.(error, request),
      closed: () => {
        unwatch?.();
        resolveClosed();
      },
    },
    {
      drainOnInputEnd: true,
      maxJsonDepth: server.options.limits?.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
      maxConcurrentRequests: server.options.limits?.maxConcurrentRequests ?? 256,
    },
  );
  await peer.start();
  return {
    get session() {
      return session;
    },
    closed,
    close: () => peer.close(),
  };
}

/** The channel of one request on a stream connection (a class: no per-request closures). */
class StreamChannel implements RequestChannel {
  readonly #incoming: IncomingContext;
  readonly session: LegacySession | undefined;
  readonly openSession: (init: SessionInit) => LegacySession;

  constructor(
    incoming: IncomingContext,
    session: LegacySession | undefined,
    open: (init: SessionInit) => LegacySession,
  ) {
    this.#incoming = incoming;
    this.session = session;
    this.openSession = open;
  }

  /** The request's signal, created on first use. */
  get signal(): AbortSignal {
    return this.#incoming.signal;
  }

  notify(method: string, params: Params): void {
    this.#incoming.notify(method, params);
  }
}

/**
 * Forwards server events to a legacy session as notifications, while `delivers()` says so
 * (a fleet's replica of a session delivers only where its GET stream is held). Returns the
 * function to
 * call when the session ends: it stops forwarding and releases the session's resource
 * subscriptions (`server.sessionEnded`).
 */
export function watchEvents(server: McpServer, session: LegacySession, delivers?: () => boolean): () => void {
  const unsubscribe = server.eventBus.subscribe((event) => {
    if (!delivers || delivers()) forwardEvent(event, session);
  });
  return () => {
    unsubscribe();
    server.sessionEnded(session);
  };
}

/**
 * Sends a server event to an initialized legacy session as its notification (a resource
 * update only when the session subscribed to that URI).
 */
export function forwardEvent(event: ServerEvent, session: LegacySession): void {
  if (!session.initialized) return;
  const method = EVENT_METHOD[event.type];
  if (event.type !== 'resourceUpdated') session.link.notify(method);
  else if (session.subscriptions.has(event.uri)) session.link.notify(method, { uri: event.uri });
}
