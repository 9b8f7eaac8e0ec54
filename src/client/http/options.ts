/**
 * The option types of the Streamable HTTP client transport (`streamableHttp`, in
 * client/http/transport.ts): headers, authorization, SSE reconnection, limits.
 * Source: 2026-07-28 basic/transports/streamable-http; 2025-11-25 basic/transports.
 */
import type { RetryOptions } from './retry.js';

/** Extra headers for every HTTP request (e.g. `Authorization`), or a function giving them. */
export type HeaderSource =
  Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

/** How broken legacy SSE streams are reconnected. */
export interface ReconnectOptions {
  /** Milliseconds to wait before reconnecting when the server sent no `retry` (default 1 000). */
  delayMs?: number;
  /** Reconnects in a row that bring no new event before giving up on a stream (default 3). */
  maxAttempts?: number;
}

/**
 * Authorization for an HTTP transport: it wraps the transport's fetch for the MCP endpoint
 * (adding credentials, answering 401/403 challenges). `oauthClient()` of mcpkit/auth is one.
 */
export interface FetchWrapper {
  wrapFetch(fetcher: typeof globalThis.fetch, endpoint: URL): typeof globalThis.fetch;
}

/** Options of `streamableHttp`. */
export interface StreamableHttpOptions {
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Authorization, e.g. `oauthClient()` from mcpkit/auth: wraps `fetch` for this endpoint. */
  auth?: FetchWrapper;
  /** Headers added to every request; the protocol's own headers win on conflict. */
  headers?: HeaderSource;
  /** Told about things worth logging: refused streams, failed notification POSTs. */
  onWarning?: (message: string) => void;
  reconnect?: ReconnectOptions;
  /** Whether a legacy `initialize` refused with a bare 400/404/405 tries HTTP+SSE (default true). */
  legacySseFallback?: boolean;
  /**
   * Largest JSON response body or single SSE event accepted, in bytes (default 16 MiB);
   * larger fails the request with LocalError `LIMIT_EXCEEDED`.
   */
  maxMessageBytes?: number;
  /**
   * How 429 Too Many Requests is handled: sent again after `Retry-After`, at most
   * `maxRetries` times (default 2) and only for waits up to `maxDelayMs` (default 10 s);
   * then the request fails with the server's JSON-RPC error (or one naming HTTP 429).
   */
  retry?: RetryOptions;
}
