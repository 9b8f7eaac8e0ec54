/**
 * The Streamable HTTP client transport: `streamableHttp(url)` gives a transport for
 * `Client.connect()` that speaks the modern wire (request headers, `x-mcp-header`
 * mirroring, cancellation by closing the stream) and the legacy one (sessions, the GET
 * stream, resumption), with web `fetch` only; `sseTransport(url)` pins the deprecated
 * HTTP+SSE transport that `streamableHttp` falls back to.
 * Source: 2026-07-28 basic/transports/streamable-http; 2025-11-25 basic/transports.
 */
export {
  streamableHttp,
  type FetchWrapper,
  type HeaderSource,
  type ReconnectOptions,
  type RetryOptions,
  type StreamableHttpOptions,
} from './transport.js';
export { sseTransport, type SseTransportOptions } from './legacy/sse-transport.js';
