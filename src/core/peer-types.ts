/**
 * The option and handler types of `Peer` (core/peer.ts): how a peer answers what
 * arrives, and its limits and timeouts.
 * Source: 2026-07-28 basic/index "Messages", patterns/cancellation, patterns/progress.
 */
import type { JsonRpcNotification, JsonRpcRequest, Params, RequestId } from './jsonrpc.js';
import type { IncomingContext } from './incoming.js';

/** How a `Peer` answers what arrives. */
export interface PeerHandlers {
  /** Answers a request: resolve with the result, throw {@link WireError} for a wire error. */
  request(request: JsonRpcRequest, context: IncomingContext): Promise<Params>;
  /**
   * Receives notifications other than cancellation; `related` is the id of our request whose
   * stream carried it, when the transport tells (see `TransportSink.frame`).
   */
  notification?(notification: JsonRpcNotification, related?: RequestId): void;
  /** Called once when the transport ends. */
  closed?(error?: Error): void;
  /**
   * Receives a frame that is not JSON instead of answering it with -32700 (a client does
   * not write errors back to a server that prints junk; it reports it).
   */
  malformed?(text: string): void;
  /** Whether a batch array is accepted right now (only legacy 2025-03-26 sessions). */
  allowBatch?(): boolean;
  /** Sees errors a handler threw that were answered as -32603 (for logging). */
  internalError?(error: unknown, request: JsonRpcRequest | undefined): void;
}

/** Options of `Peer`. */
export interface PeerOptions {
  /** Default timeout of outgoing requests in milliseconds (default 60 000). */
  timeoutMs?: number;
  /** The option a timeout error names for the default `timeoutMs` (default `'timeoutMs'`). */
  timeoutOption?: string;
  /**
   * When the other side stops sending (stdin ended), answer the requests already in flight
   * before closing (default false: close at once). Servers on stdio set it.
   */
  drainOnInputEnd?: boolean;
  /** Deepest JSON nesting accepted in a frame (default 256); deeper → -32600 / `LIMIT_EXCEEDED`. */
  maxJsonDepth?: number;
  /** Most requests from the other side handled at once (default 256); more → -32600. */
  maxConcurrentRequests?: number;
  /**
   * Makes the ids of outgoing requests strings `<prefix><n>` instead of numbers, so that
   * several peers answering one client (the instances of a fleet sharing a legacy session)
   * never use the same id and each can tell its own responses apart.
   */
  requestIdPrefix?: string;
}
