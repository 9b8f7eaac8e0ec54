/**
 * The seam between the protocol and a byte channel. A transport moves whole frames
 * (one JSON text each) and reports when the channel ends; it knows nothing of MCP.
 * Source: 2026-07-28 basic/transports (custom transports reuse the stdio framing).
 */
import type { JsonRpcMessage, RequestId } from './jsonrpc.js';

/** What a transport calls as frames arrive and when the channel ends. */
export interface TransportSink {
  /**
   * One frame of text: a single JSON-RPC message (or a batch array on legacy 2025-03-26).
   * `related` is the id of our own request whose stream carried it, when the channel tells
   * (Streamable HTTP: the POST's SSE stream); undefined on stdio and on standalone streams.
   */
  frame(text: string, related?: RequestId): void;
  /**
   * Optional: the peer will send nothing more but still reads (stdin reached its end).
   * A sink that implements it finishes in-flight work and then calls `close()`; without
   * it the transport closes at once.
   */
  inputEnded?(): void;
  /** The channel ended; `error` says why when it was not a clean close. */
  closed(error?: Error): void;
  /**
   * Optional: our request `id` failed below JSON-RPC while the channel stays open (over
   * Streamable HTTP, its POST could not reach the server); the sink fails that request
   * with `error` (a LocalError). Without it the transport delivers an error response.
   */
  failed?(id: RequestId, error: Error): void;
}

/** Per-message options of {@link Transport.send}. */
export interface SendOptions {
  /**
   * Extra HTTP headers for this message (`Mcp-Param-*`, `Authorization`, `traceparent`).
   * Transports without headers ignore them.
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Set on a modern request only: the revision its `_meta` names, so a transport with
   * per-era wire rules (Streamable HTTP) takes the era from its sender instead of parsing
   * `_meta` again (2026-07-28 basic/transports/streamable-http "Request Metadata").
   */
  readonly modernVersion?: string | undefined;
}

/** A bidirectional message channel (stdio pipes, the in-memory pair, an HTTP client session). */
export interface Transport {
  /** Starts delivering frames to `sink`. Called once. */
  start(sink: TransportSink): void | Promise<void>;
  /** Queues one message (or a batch) for the peer. Must not throw for a closed channel. */
  send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions): void;
  /** Closes the channel; resolves when it is closed. Calls `sink.closed()`. */
  close(): Promise<void>;
  /**
   * Optional: the id of our own request in relation to which the peer's request `id`
   * arrived, when the channel tells (Streamable HTTP: the POST whose SSE stream carried
   * it). Answers once per id; undefined when unknown.
   */
  relatedRequest?(id: RequestId): RequestId | undefined;
  /**
   * Optional: the transport binding this channel follows (2026-07-28 basic/transports), for
   * rules that differ per binding; `'stdio'` for a child process's stdin/stdout.
   */
  readonly binding?: 'stdio' | 'streamable-http' | 'sse';
  /**
   * Optional: the latest output of the peer that was not protocol and was skipped (a
   * launcher's notice or a banner on a stdio server's stdout), oldest first, for error
   * messages. The client quotes it when connecting fails.
   */
  nonProtocolLines?(): readonly string[];
}
