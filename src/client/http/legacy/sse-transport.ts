/**
 * The client side of the deprecated HTTP+SSE transport (2024-11-05): a GET opens an SSE
 * stream whose first event, `endpoint`, names the URI to POST messages to; the server's
 * messages arrive as `message` events on that stream, and each POST is answered 202.
 * Streamable HTTP falls back to it when a legacy `initialize` is refused with 400, 404 or
 * 405; {@link sseTransport} pins it. Uses only web `fetch`.
 * Source: 2024-11-05 basic/transports "HTTP with SSE"; 2025-11-25 basic/transports
 * "Backwards Compatibility".
 */
import { createParser } from 'eventsource-parser';
import {
  LocalError,
  type JsonRpcMessage,
  type RequestId,
  type Transport,
  type TransportSink,
} from '../../../core/index.js';
import { failureFrame, isResponseObject, mediaTypeOf, parseObject, statusFrame } from '../frames.js';
import { sendRetrying, type RetryOptions } from '../retry.js';
import { unreachable } from '../fetch-failure.js';
import { DEFAULT_MAX_MESSAGE_BYTES, readBoundedText } from '../sse.js';
import { withDeadline } from '../../../core/runtime.js';
import type { HeaderSource } from '../options.js';

/** Options of {@link sseTransport}. */
export interface SseTransportOptions {
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Headers added to every request (the GET and every POST). */
  headers?: HeaderSource;
  /** Told about things worth logging: refused notifications and responses. */
  onWarning?: (message: string) => void;
  /**
   * How a 429 to the GET or a POST is answered: sent again after `Retry-After`, as Streamable
   * HTTP does (default 2 retries, waits up to 10 s; the POSTs after it wait, keeping order).
   */
  retry?: RetryOptions;
}

/** Longest wait, in milliseconds, for the GET's answer and its `endpoint` event together. */
const ENDPOINT_TIMEOUT_MS = 10_000;
/** Longest wait, in milliseconds, for the server to accept one POST: headers and body. */
const POST_TIMEOUT_MS = 10_000;

const errorOf = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/** The ids of the requests in a message or batch: the ones that need an answer if a POST fails. */
function requestIds(message: JsonRpcMessage | JsonRpcMessage[]): RequestId[] {
  const ids: RequestId[] = [];
  for (const m of Array.isArray(message) ? message : [message]) {
    if ('method' in m && 'id' in m) ids.push(m.id as RequestId);
  }
  return ids;
}

/** An HTTP+SSE connection: one GET stream in, one POST per message out. */
export class SseTransport implements Transport {
  readonly binding = 'sse';
  readonly #url: URL;
  readonly #options: SseTransportOptions;
  readonly #fetch: typeof fetch;
  readonly #stream = new AbortController();
  readonly #posts = new AbortController();
  #sink: TransportSink | undefined;
  #endpoint: Promise<URL> | undefined;
  /** POSTs go out one after another, so the server reads messages in the order sent. */
  #queue: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(url: URL, options: SseTransportOptions) {
    this.#url = url;
    this.#options = options;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  start(sink: TransportSink): void {
    this.#sink = sink;
    this.connect().catch((error: unknown) => this.#fail(errorOf(error)));
  }

  /**
   * Opens the GET stream (once) and resolves with the endpoint URI from its first
   * `endpoint` event, resolved against the transport's URL. `signal` aborts the stream.
   * @throws Error when the GET is refused or is no SSE stream, when the stream ends or
   * {@link ENDPOINT_TIMEOUT_MS} pass without an `endpoint` event, or when the endpoint is
   * on another origin.
   */
  connect(signal?: AbortSignal): Promise<URL> {
    if (signal) signal.addEventListener('abort', () => this.#stream.abort(), { once: true });
    this.#endpoint ??= this.#open();
    return this.#endpoint;
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.#closed) return;
    const body = JSON.stringify(message);
    this.#queue = this.#queue.then(() => this.#post(message, body));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stream.abort();
    this.#posts.abort();
    this.#sink?.closed();
  }

  /**
   * The GET and its `endpoint` event, within {@link ENDPOINT_TIMEOUT_MS} together (a server
   * that never answers the GET is given up on too); the stream is aborted on failure.
   */
  async #open(): Promise<URL> {
    const bound = { url: this.#url, ms: ENDPOINT_TIMEOUT_MS };
    return withDeadline(bound, () => this.#get()).catch((error: unknown) => {
      this.#stream.abort();
      throw error;
    });
  }

  async #get(): Promise<URL> {
    const headers = await this.#headers();
    headers.set('Accept', 'text/event-stream');
    const signal = this.#stream.signal;
    const response = await this.#retrying(
      () => this.#fetch(this.#url, { method: 'GET', headers, signal }),
      signal,
    ).catch((error: unknown) => {
      throw error instanceof TypeError ? unreachable(this.#url, error) : error;
    });
    if (!response.ok || mediaTypeOf(response) !== 'text/event-stream' || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      throw Object.assign(
        new LocalError('CONNECTION_CLOSED', `the HTTP+SSE stream was refused: HTTP ${response.status}`),
        {
          httpStatus: response.status,
        },
      );
    }
    return this.#read(response.body);
  }

  /** Reads the stream in the background; resolves with the endpoint once it arrives. */
  #read(body: ReadableStream<Uint8Array>): Promise<URL> {
    return new Promise((resolve, reject) => {
      let endpoint: URL | undefined;
      const parser = createParser({
        onEvent: (event) => {
          if (event.event === 'endpoint' && endpoint === undefined) {
            try {
              endpoint = this.#resolve(event.data);
              resolve(endpoint);
            } catch (error) {
              reject(errorOf(error));
              this.#stream.abort();
            }
          } else if ((event.event ?? 'message') === 'message' && event.data !== '' && endpoint) {
            if (!this.#closed) this.#sink?.frame(event.data);
          }
        },
      });
      void this.#pump(body, (text) => parser.feed(text)).then((error) => {
        const reason = error ? `: ${error.message}` : '';
        if (!endpoint)
          reject(
            new LocalError(
              'CONNECTION_CLOSED',
              `the HTTP+SSE stream ended before the endpoint event${reason}`,
            ),
          );
        else
          this.#fail(
            new LocalError('CONNECTION_CLOSED', `the HTTP+SSE stream ended${reason}`, { cause: error }),
          );
      });
    });
  }

  /** Feeds the body to `feed` until it ends; resolves with the read error, if any. */
  async #pump(body: ReadableStream<Uint8Array>, feed: (text: string) => void): Promise<Error | undefined> {
    const decoder = new TextDecoder();
    const reader = body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return undefined;
        feed(decoder.decode(value, { stream: true }));
      }
    } catch (error) {
      return errorOf(error);
    } finally {
      reader.cancel().catch(() => undefined);
    }
  }

  /** The endpoint URI, resolved against the URL; another origin is refused (a POST would leak headers). */
  #resolve(data: string): URL {
    const endpoint = new URL(data.trim(), this.#url);
    if (endpoint.origin !== this.#url.origin) {
      throw new LocalError('CONNECTION_CLOSED', `refused an endpoint on another origin: ${endpoint.origin}`);
    }
    return endpoint;
  }

  async #post(message: JsonRpcMessage | JsonRpcMessage[], body: string): Promise<void> {
    try {
      const endpoint = await this.connect();
      const headers = await this.#headers();
      headers.set('Content-Type', 'application/json');
      const bound = { url: endpoint, ms: POST_TIMEOUT_MS, signal: this.#posts.signal };
      const { response, text } = await withDeadline(bound, async (signal) => {
        const attempt = () => this.#fetch(endpoint, { method: 'POST', headers, body, signal });
        const response = await this.#retrying(attempt, signal);
        return { response, text: await readBoundedText(response, DEFAULT_MAX_MESSAGE_BYTES).catch(() => '') };
      });
      if (!response.ok) this.#refused(message, response, text);
    } catch (error) {
      if (this.#closed) return;
      const failure = error instanceof TypeError ? unreachable(this.#url, error) : errorOf(error);
      const reason = `HTTP request failed: ${failure.message}`;
      for (const id of requestIds(message)) this.#sink?.frame(failureFrame(id, reason));
      if (requestIds(message).length === 0) this.#warn(reason);
    }
  }

  /** A refused POST: its JSON-RPC error body if it has one, else an error made from the status. */
  #refused(message: JsonRpcMessage | JsonRpcMessage[], response: Response, text: string): void {
    if (this.#closed) return;
    const ids = requestIds(message);
    if (ids.length === 0) this.#warn(`the server answered HTTP ${response.status} to a POSTed message`);
    const answer = parseObject(text);
    for (const id of ids) {
      if (isResponseObject(answer) && ids.length === 1) this.#sink?.frame(JSON.stringify({ ...answer, id }));
      else this.#sink?.frame(statusFrame(id, response, text));
    }
  }

  #retrying(send: () => Promise<Response>, signal: AbortSignal): Promise<Response> {
    return sendRetrying(send, this.#options.retry ?? {}, signal);
  }

  async #headers(): Promise<Headers> {
    const source = this.#options.headers;
    return new Headers(typeof source === 'function' ? await source() : source);
  }

  #fail(error: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stream.abort();
    this.#posts.abort();
    this.#sink?.closed(error);
  }

  #warn(message: string): void {
    this.#options.onWarning?.(message);
  }
}

/**
 * A client transport for a server that speaks only the deprecated HTTP+SSE transport:
 * `url` is its SSE endpoint. Starting it opens the GET stream; messages are POSTed once the
 * `endpoint` event has arrived. A refused GET, a missing endpoint or a broken stream closes
 * the transport with that error; a refused POST answers the requests in it with an error.
 * Source: 2024-11-05 basic/transports "HTTP with SSE".
 * @throws TypeError for a malformed `url`.
 */
export function sseTransport(url: string | URL, options: SseTransportOptions = {}): Transport {
  return new SseTransport(new URL(url), options);
}

/**
 * The fallback for a legacy `initialize` that Streamable HTTP answered with a bare 400, 404
 * or 405 (unless `options.legacySseFallback` is false): opens the HTTP+SSE stream at `url`. Gives the transport once the `endpoint` event
 * arrived, or the refused response's body (already read) when the body is JSON-RPC or the
 * server offers no HTTP+SSE stream either.
 * Source: 2025-11-25 basic/transports "Backwards Compatibility".
 */
export async function legacySseFallback(
  target: { url: URL; options: SseTransportOptions & { legacySseFallback?: boolean } },
  refused: Response,
  signal: AbortSignal,
): Promise<{ transport: SseTransport } | { body: string }> {
  const { url, options } = target;
  const body = await readBoundedText(refused, DEFAULT_MAX_MESSAGE_BYTES).catch(() => '');
  if (options.legacySseFallback === false || ![400, 404, 405].includes(refused.status)) return { body };
  if (isResponseObject(parseObject(body))) return { body };
  const transport = new SseTransport(url, options);
  try {
    await transport.connect(signal);
    return { transport };
  } catch (error) {
    await transport.close();
    // Nothing at the URL for a GET either is the common case (a wrong path): not worth a warning.
    const status = (error as { httpStatus?: unknown }).httpStatus;
    if (status !== 404 && status !== 405) {
      options.onWarning?.(`no deprecated HTTP+SSE fallback: ${errorOf(error).message}`);
    }
    return { body };
  }
}
