/**
 * The status, reconnection-policy and setup types of a host's server link (host/link.ts).
 * Source: 2026-07-28 basic/patterns/subscriptions (listen), basic/versioning.
 */
import type { ClientHandlers, EraCache } from '../client/index.js';
import type { Era, JsonRpcNotification, LoggingLevel, RequestId } from '../core/index.js';
import type { ResolvedServer } from './config.js';
import type { HealthPolicy } from './health.js';
import type { ListKind } from './lists.js';

/** Where a server's connection stands. */
export type ServerState = 'connecting' | 'ready' | 'failed' | 'reconnecting' | 'closed';

/** One server's status as the host reports it. */
export interface ServerStatus {
  readonly name: string;
  readonly state: ServerState;
  /** Why the last attempt failed or the connection dropped. */
  readonly reason?: string;
  /** Connection attempts since the last time it was ready. */
  readonly attempts: number;
  readonly era?: Era;
  /** The child's process id (stdio servers, while running). */
  readonly pid?: number;
  /** Problems with what the server offers (names that collide, invalid names). */
  readonly issues: readonly string[];
}

/** Backoff between reconnection attempts: `baseMs · 2^(n-1)` capped at `maxMs`, times a jitter in [0.5, 1). */
export interface ReconnectPolicy {
  /** Default 250 ms. */
  baseMs?: number;
  /** Default 30 000 ms. */
  maxMs?: number;
  /** Attempts after a drop before the server is `failed`; default 8 (0 disables reconnecting). */
  maxAttempts?: number;
  /**
   * Attempts at the first connection (and after `host.reconnect()` of a server that was never
   * ready) before the server is `failed`, with the same backoff; default 4 (1: no retry).
   * Meanwhile the server is `reconnecting` with the last failure as its `reason`.
   */
  firstConnectAttempts?: number;
}

/** What a link needs from its host. */
export interface LinkSetup {
  server: ResolvedServer;
  handlers: ClientHandlers;
  /** Milliseconds the connection (and first listing) may take; default 30 000. */
  timeoutMs: number;
  requestTimeoutMs: number | undefined;
  /** The log level asked of every server (modern: per request; legacy: `logging/setLevel`). */
  logLevel: LoggingLevel | undefined;
  reconnect: ReconnectPolicy;
  health: HealthPolicy;
  eraCache: EraCache;
  onStatus(status: ServerStatus): void;
  onLists(kinds: readonly ListKind[]): void;
  /** `related`: the id of the host's request whose stream carried it (Streamable HTTP), if known. */
  onNotification(notification: JsonRpcNotification, related: RequestId | undefined): void;
  /** The backend client's advice (`ClientOptions.onWarning`). */
  onWarning(message: string): void;
}
