/**
 * Where a fleet keeps its legacy sessions, so that any instance can serve any request of a
 * session: the session's state (what `initialize` negotiated, the log level, resource
 * subscriptions), and a channel per session between the instances (messages for the GET
 * stream held elsewhere, the client's answers to server-initiated requests, cancellations,
 * state changes, the session's end). Without a store, sessions live in one handler's memory.
 * Source: 2025-11-25 basic/transports "Session Management", "Listening for Messages from
 * the Server", "Resumability and Redelivery".
 */
import type {
  JsonRpcMessage,
  JsonRpcResponse,
  RequestId,
  LegacyRevision,
  ClientCapabilities,
  Implementation,
  LoggingLevel,
} from '../../../core/index.js';

/** The state of one legacy session as the fleet shares it. */
export interface SessionRecord {
  /** The `Mcp-Session-Id`. */
  id: string;
  /** The principal that opened the session ('' when anonymous). */
  owner: string;
  protocolVersion: LegacyRevision;
  clientInfo?: Implementation | undefined;
  clientCapabilities: ClientCapabilities;
  logLevel: LoggingLevel;
  /** Whether `notifications/initialized` arrived. */
  initialized: boolean;
  /** URIs subscribed with `resources/subscribe`. */
  subscriptions: string[];
  /** The id of the session's standalone (GET) SSE stream, the same on every instance. */
  standaloneStreamId: string;
}

/** One change of a session's state, made by a request on some instance. */
export type SessionChange =
  { logLevel: LoggingLevel } | { initialized: true } | { subscribe: string } | { unsubscribe: string };

/** A message between the instances serving one session. */
export type SessionMessage =
  /** For the session's GET stream, from an instance that does not hold it. */
  | { type: 'send'; message: JsonRpcMessage }
  /** The client's answer to a server-initiated request, received by another instance. */
  | { type: 'response'; message: JsonRpcResponse }
  /** The client cancelled a request that may run on another instance. */
  | { type: 'cancelled'; requestId: RequestId; reason?: string }
  /** The state changed (written to the store before this is sent). */
  | { type: 'changed'; change: SessionChange }
  /** Instance `by` now holds the GET stream; others let go of theirs. */
  | { type: 'takeover'; by: string }
  /** The session ended (DELETE). */
  | { type: 'ended' };

/**
 * A fleet-wide store of legacy sessions (`createRedisSessionStore` in mcpkit/redis). Every
 * method may reject when the store cannot be reached; the endpoint then answers 503.
 */
export interface SessionStore {
  /** Milliseconds a session lives without use; each `load` starts this time again. */
  readonly ttlMs: number;
  /** Stores a new session. */
  create(record: SessionRecord): Promise<void>;
  /** The session with this id, refreshing its TTL; undefined when unknown, ended or expired. */
  load(id: string): Promise<SessionRecord | undefined>;
  /** Applies a change to a stored session and tells its instances (`changed`). */
  change(id: string, change: SessionChange): Promise<void>;
  /** Ends a session everywhere (its instances hear `ended`); false when it was unknown. */
  delete(id: string): Promise<boolean>;
  /**
   * Sends a message to the instances serving session `id` (this one included). A store
   * whose delivery can miss a listener (pub/sub while a connection is down) keeps each
   * `response` until {@link SessionStore.answered} and delivers it again on resubscribing.
   */
  publish(id: string, message: SessionMessage): Promise<void>;
  /** Hears the messages of session `id`; resolves once subscribed, with the unsubscribe function. */
  subscribe(id: string, listener: (message: SessionMessage) => void): Promise<() => void>;
  /** Optional: the `response` to `requestId` reached its request; a kept copy can go. */
  answered?(id: string, requestId: string | number): Promise<void>;
}
