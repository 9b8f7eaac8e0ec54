/**
 * Answering one POST: a single JSON object when the handler finishes without sending
 * anything first, an SSE stream as soon as it sends a related message (progress, log,
 * a server-initiated request), with the final response as the last event.
 * Source: 2026-07-28 basic/transports/streamable-http "Sending Messages" item 6,
 * "Receiving Messages"; 2025-11-25 basic/transports "Sending Messages to the Server".
 */
import { reportInternalError, requestOf, runtimeOf, type RequestScope } from '../runtime.js';
import {
  ERROR_TABLE,
  WireError,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Params,
} from '../../core/index.js';
import { errorResponse, resultResponse } from '../../core/runtime.js';
import type { McpServer } from '../index.js';
import { HTTP_OK, jsonResponse, sseResponse, type HeaderMap } from './responses.js';
import type { HttpResponse } from './exchange.js';
import { SseWriter, type SseWriterOptions } from './sse.js';

/** Where messages related to a request go. */
export interface MessageSink {
  send(message: JsonRpcMessage): void;
}

/** An open SSE stream as a reply sees it. */
export interface StreamSink extends MessageSink {
  /** Ends the stream after what was sent. */
  end(): void;
}

/** Opens the SSE stream a reply switches to: the body for the `Response`, and its sink. */
export interface StreamOpener {
  openStream(): { body: ReadableStream<Uint8Array>; sink: StreamSink };
}

/** The reply to one POST; `response` settles on the first message or on `finish`. */
export class PostReply implements MessageSink {
  readonly response: Promise<HttpResponse>;
  readonly #open: StreamOpener;
  #headers: HeaderMap | undefined; // made by the first setHeader: most replies add none
  #resolve!: (response: HttpResponse) => void;
  #stream: StreamSink | undefined;
  #done = false;

  constructor(open: StreamOpener) {
    this.#open = open;
    this.response = new Promise((resolve) => (this.#resolve = resolve));
  }

  /** Adds a header to the response (before it settles; e.g. `Mcp-Session-Id`). */
  setHeader(name: string, value: string): void {
    (this.#headers ??= {})[name] = value;
  }

  /** Sends a message related to the request, switching to SSE if not done yet. */
  send(message: JsonRpcMessage): void {
    if (!this.#done) this.#streamSink().send(message);
  }

  /**
   * Sends the final response(s) and ends the reply. `body` undefined (a cancelled
   * request) ends an SSE stream with no response. `status` applies only to a JSON reply.
   */
  finish(body: JsonRpcResponse | JsonRpcResponse[] | undefined, status: number): void {
    if (this.#done) return;
    if (this.#stream || body === undefined) {
      const sink = this.#streamSink();
      for (const message of body === undefined ? [] : [body].flat()) sink.send(message);
      this.#done = true;
      return sink.end();
    }
    this.#done = true;
    this.#resolve(this.#headers ? jsonResponse(body, status, this.#headers) : jsonResponse(body, status));
  }

  #streamSink(): StreamSink {
    if (this.#stream) return this.#stream;
    const { body, sink } = this.#open.openStream();
    this.#stream = sink;
    this.#resolve(sseResponse(body, this.#headers ?? {}));
    return sink;
  }
}

/** A final response and the HTTP status it would have as a JSON reply. */
export interface Outcome {
  response: JsonRpcResponse;
  status: number;
}

/**
 * Runs one request through the server. An {@link WireError} becomes an error response
 * with its `httpStatus`; anything else becomes -32603 "Internal error" (status 200) and
 * is reported to `ServerOptions.onError`, else logged as one line on stderr.
 */
export function answer(server: McpServer, scope: RequestScope): Promise<Outcome> {
  const request = requestOf(scope) as JsonRpcRequest;
  // `then`, not an async frame: one promise and frame fewer on every call.
  let handled: Promise<Params>;
  try {
    handled = runtimeOf(server).serve(scope);
  } catch (error) {
    return Promise.resolve(failure(server, request, error));
  }
  return handled.then(
    // `?? {}`: a middleware may answer a request without a result object.
    (result) => ({ response: resultResponse(request.id, result ?? {}), status: HTTP_OK }),
    (error: unknown) => failure(server, request, error),
  );
}

/**
 * The `Retry-After` of a 429 outcome, in whole seconds: its error's `data.retryAfterS` (set
 * by the per-principal quota middleware), else 1. Source: RFC 9110 §10.2.3.
 */
export function retryAfterOf(outcome: Outcome): string {
  const data = 'error' in outcome.response ? outcome.response.error.data : undefined;
  const s = (data as { retryAfterS?: unknown } | undefined)?.retryAfterS;
  return typeof s === 'number' && s >= 0 && s <= Number.MAX_SAFE_INTEGER ? String(Math.ceil(s)) : '1';
}

/**
 * The HTTP status of a legacy reply: 200 whatever its error (2025-11-25 answers JSON-RPC
 * errors in the body), except a scope refusal, which keeps its 403 so the endpoint answers
 * it with the auth guard's challenge.
 */
export function legacyStatus(outcome: Outcome | undefined): number {
  return outcome?.status === ERROR_TABLE.InsufficientScope.httpStatus ? outcome.status : HTTP_OK;
}

function failure(server: McpServer, request: JsonRpcRequest, error: unknown): Outcome {
  if (error instanceof WireError) {
    return { response: errorResponse(request.id, error.toJSON()), status: error.httpStatus };
  }
  reportInternalError(server.options, error, request);
  const internal = { code: ERROR_TABLE.InternalError.code, message: 'Internal error' };
  return { response: errorResponse(request.id, internal), status: HTTP_OK };
}

/**
 * A {@link StreamOpener} for a stream that cannot be resumed (modern requests, a legacy
 * `initialize`): events carry no ids; `onCancel` runs when the client closes it.
 */
export function plainStream(
  keepAliveMs: number,
  onCancel: () => void,
  maxBufferedBytes?: number,
): StreamOpener {
  return new PlainStreamOpener(
    maxBufferedBytes === undefined ? { keepAliveMs, onCancel } : { keepAliveMs, onCancel, maxBufferedBytes },
  );
}

class PlainStreamOpener implements StreamOpener {
  readonly #options: SseWriterOptions;

  constructor(options: SseWriterOptions) {
    this.#options = options;
  }

  openStream(): { body: ReadableStream<Uint8Array>; sink: StreamSink } {
    const writer = new SseWriter(this.#options);
    const sink: StreamSink = {
      send: (message) => void writer.send({ data: JSON.stringify(message) }),
      end: () => writer.close(),
    };
    return { body: writer.body, sink };
  }
}
