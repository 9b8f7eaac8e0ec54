/**
 * Serves a server definition over one stream transport (stdio, the in-memory pair): one
 * connection, at most one legacy session, any number of modern requests.
 * Source: 2026-07-28 basic/transports/stdio; 2025-11-25 basic/lifecycle.
 */
import { runtimeOf, startServing, type McpServer } from './server.js';
import { DEFAULT_MAX_JSON_DEPTH, Peer, allowsBatch } from '../core/runtime.js';
import type { Transport } from '../core/index.js';
import { RequestScope, type SessionInit } from './scope.js';
import { reportInternalError } from './internal-error.js';
import { LegacySession, forwardEvent } from './legacy/session.js';

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
  // One binding per connection: every request's scope reads the session from it.
  const binding: { session: LegacySession | undefined; openSession(init: SessionInit): LegacySession } = {
    session: undefined,
    openSession: (init) => openSession(init),
  };
  const runtime = runtimeOf(server);
  startServing(server);
  let unwatch: (() => void) | undefined;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const openSession = (init: SessionInit): LegacySession => {
    const session = (binding.session = new LegacySession({
      ...init,
      link: { request: (m, p, o) => peer.request(m, p, o), notify: (m, p) => peer.notify(m, p) },
    }));
    unwatch = watchEvents(server, session);
    return session;
  };
  const peer: Peer = new Peer(
    transport,
    {
      request: (request, incoming) => runtime.serve(new RequestScope(request, incoming, binding)),
      notification: (n) => runtime.handleNotification(n, binding.session),
      allowBatch: () => allowsBatch(binding.session?.protocolVersion),
      internalError: (error, request) => reportInternalError(server.options, error, request),
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
      return binding.session;
    },
    closed,
    close: () => peer.close(),
  };
}

/**
 * Forwards server events to a legacy session as notifications, while `delivers()` says so
 * (a fleet's replica of a session delivers only where its GET stream is held). Returns the
 * function to
 * call when the session ends: it stops forwarding and releases the session's resource
 * subscriptions (`server.sessionEnded`).
 */
export function watchEvents(server: McpServer, session: LegacySession, delivers?: () => boolean): () => void {
  const unsubscribe = runtimeOf(server).eventBus.subscribe((event) => {
    if (!delivers || delivers()) forwardEvent(event, session);
  });
  return () => {
    unsubscribe();
    runtimeOf(server).sessionEnded(session);
  };
}
