/**
 * The shapes the endpoint works on: the few parts of an HTTP request it reads and the
 * response it answers with. A web `Request`/`Response` pair converts to and from them in
 * a line each (see handler.ts); the node:http adapter converts directly, building no web
 * objects per call. Internal: only runtime.ts (for mcpkit/node) exposes them.
 * Source: 2026-07-28 basic/transports/streamable-http.
 */
import type { HeaderReader } from '../runtime.js';
import type { AuthInfo } from '../index.js';
import type { BodyResult } from './body.js';

export type { HeaderReader } from '../runtime.js';

/** An HTTP request as the endpoint reads it. */
export interface HttpRequest {
  readonly method: string;
  /** The absolute request URL (used only when there is no `Host` header). */
  readonly url: string;
  readonly headers: HeaderReader;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /** Reads the whole body as text, refusing more than `maxBytes`. */
  body(maxBytes: number): Promise<BodyResult>;
  /** Who is calling, once an auth guard verified the request (set by the endpoint). */
  auth?: AuthInfo | undefined;
  /** The peer's IP address, when the adapter knows it (keys per-principal limits). */
  readonly remoteAddress?: string | undefined;
  /** The principal key per-principal limits count against ('' when unidentified; set by the endpoint). */
  principal?: string;
  /**
   * Set by the endpoint when the response is a long-lived stream held under its own bound
   * (a `subscriptions/listen`, a legacy session's GET stream): it stops counting as a
   * request in progress once the response has started.
   */
  longLived?: boolean;
}

/** Response headers, lowercase names. */
export type HeaderMap = Record<string, string>;

/** An HTTP response: a whole text body, a stream (SSE), or none. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: HeaderMap;
  readonly body: string | ReadableStream<Uint8Array> | null;
}

/** Converts an endpoint response to a web `Response`. */
export function toWebResponse(response: HttpResponse): Response {
  return new Response(response.body, { status: response.status, headers: response.headers });
}
