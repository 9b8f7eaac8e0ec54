/**
 * Request correlation over a {@link Transport}: outgoing requests with ids, timeouts that
 * reset on progress, cancellation by AbortSignal (sending `notifications/cancelled`), and
 * incoming requests dispatched with their own AbortSignal. Used by the client and by
 * the server on stream transports.
 * Source: 2026-07-28 basic/index "Messages", patterns/cancellation, patterns/progress.
 */
import { WireError, LocalError, ERROR_TABLE } from './errors.js';
import {
  checkEnvelope,
  decodeFrame,
  errorResponse,
  isErrorResponse,
  resultResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcErrorResponse,
  type Decoded,
  type Params,
  type RequestId,
} from './jsonrpc.js';
import type { SendOptions, Transport } from './transport.js';
import { DEFAULT_MAX_JSON_DEPTH } from './json-limits.js';
import { IncomingRequest } from './incoming.js';
import { FrameQueue } from './frame-queue.js';

export type { IncomingContext } from './incoming.js';
import { createOutgoing, type Outgoing, type ProgressUpdate, type RequestOptions } from './outgoing.js';

export type { ProgressUpdate, RequestOptions } from './outgoing.js';

import type { PeerHandlers, PeerOptions } from './peer-types.js';

export type { PeerHandlers, PeerOptions } from './peer-types.js';

/** One end of a JSON-RPC conversation over a transport. */
export class Peer {
  readonly #transport: Transport;
  readonly #handlers: PeerHandlers;
  readonly #timeoutMs: number;
  readonly #timeoutOption: string;
  readonly #drain: boolean;
  readonly #maxJsonDepth: number;
  readonly #maxConcurrent: number;
  readonly #idle = new Set<() => void>();
  readonly #outgoing = new Map<RequestId, Outgoing>();
  readonly #incoming = new Map<RequestId, IncomingRequest>();
  #nextId = 0;
  readonly #idPrefix: string | undefined;
  readonly #notifyFn = (method: string, params?: Params): void => this.notify(method, params);
  readonly #sendFn = (response: JsonRpcResponse): void => this.#send(response);
  readonly #frames = new FrameQueue(
    (text, related) => this.#onFrame(text, related),
    (error) => this.#handlers.internalError?.(error, undefined),
  );
  #closed: Error | undefined;

  constructor(transport: Transport, handlers: PeerHandlers, options: PeerOptions = {}) {
    this.#transport = transport;
    this.#handlers = handlers;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#timeoutOption = options.timeoutOption ?? 'timeoutMs';
    this.#drain = options.drainOnInputEnd ?? false;
    this.#maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
    this.#maxConcurrent = options.maxConcurrentRequests ?? 256;
    this.#idPrefix = options.requestIdPrefix;
  }

  /** Starts the transport; frames flow from here on. */
  async start(): Promise<void> {
    await this.#transport.start({
      frame: (text, related) => this.#frames.push(text, related),
      closed: (e) => this.#onClosed(e),
      failed: (id, e) => this.#onFailed(id, e),
      ...(this.#drain ? { inputEnded: () => void this.#onInputEnded() } : {}),
    });
  }

  /** True once the transport has ended. */
  get isClosed(): boolean {
    return this.#closed !== undefined;
  }

  /**
   * Sends a request and resolves with its raw `result` object; `options` reach the
   * transport as its {@link SendOptions} too (`headers`, `modernVersion`).
   * @throws WireError for an error response; LocalError `TIMEOUT`, `ABORTED` or
   *   `CONNECTION_CLOSED` for local failures.
   */
  request(
    method: string,
    params: Params | undefined,
    options: RequestOptions & SendOptions = {},
  ): Promise<Params> {
    if (this.#closed) return Promise.reject(closedError(this.#closed));
    const id: RequestId =
      this.#idPrefix === undefined ? this.#nextId++ : `${this.#idPrefix}${this.#nextId++}`;
    const out = createOutgoing({
      id,
      method,
      timeoutMs: options.timeoutMs ?? this.#timeoutMs,
      timeoutOption:
        options.timeoutOption ?? (options.timeoutMs === undefined ? this.#timeoutOption : 'timeoutMs'),
      options,
      cancel: (reason) => this.#cancelOutgoing(id, method, reason),
    });
    this.#outgoing.set(id, out);
    const withToken = options.onprogress ? withProgressToken(params, id) : params;
    options.onRequestId?.(id);
    const message: JsonRpcRequest =
      withToken === undefined
        ? { jsonrpc: '2.0', id, method }
        : { jsonrpc: '2.0', id, method, params: withToken };
    if (this.#closed) return out.promise;
    if (options.headers === undefined && options.modernVersion === undefined) this.#transport.send(message);
    else this.#transport.send(message, options);
    return out.promise;
  }

  /** Sends a notification. */
  notify(method: string, params?: Params): void {
    this.#send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Closes the transport; pending requests fail with `CONNECTION_CLOSED`. */
  async close(): Promise<void> {
    await this.#transport.close();
    this.#onClosed();
  }

  #send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (!this.#closed) this.#transport.send(message);
  }

  #cancelOutgoing(id: RequestId, method: string, reason: string): void {
    this.#outgoing.delete(id);
    // initialize must never be cancelled (2025-11-25 basic/utilities/cancellation).
    if (method !== 'initialize') this.notify('notifications/cancelled', { requestId: id, reason });
  }

  // Nothing a peer sends may throw past this point: a failure here is reported, never rethrown.
  // Returns a promise only while a request is being answered (see FrameQueue).
  #onFrame(text: string, related?: RequestId): Promise<void> | undefined {
    const decoded = decodeFrame(text, this.#maxJsonDepth);
    if (decoded.kind === 'malformed') {
      this.#onMalformed(text, decoded);
      return undefined;
    }
    return decoded.kind === 'single'
      ? this.#onValue(decoded.value, this.#sendFn, related)
      : this.#onBatch(decoded.values);
  }

  #onMalformed(text: string, decoded: Extract<Decoded, { kind: 'malformed' }>): void {
    const out = decoded.responseTo === undefined ? undefined : this.#outgoing.get(decoded.responseTo);
    if (out && decoded.responseTo !== undefined) {
      this.#outgoing.delete(decoded.responseTo);
      return out.reject(
        new LocalError('LIMIT_EXCEEDED', `The peer's response ${decoded.error.error.message}`),
      );
    }
    if (this.#handlers.malformed) this.#handlers.malformed(text);
    else this.#send(decoded.error);
  }

  async #onBatch(values: unknown[]): Promise<void> {
    if (!this.#handlers.allowBatch?.() || values.length === 0) {
      const message =
        values.length === 0 ? 'empty batch' : 'batches are not supported by this protocol revision';
      return this.#send(errorResponse(undefined, { code: ERROR_TABLE.InvalidRequest.code, message }));
    }
    const replies: JsonRpcResponse[] = [];
    const push = (r: JsonRpcResponse): void => void replies.push(r);
    await Promise.all(values.map((v) => this.#onValue(v, push)));
    if (replies.length > 0) this.#send(replies);
  }

  #onValue(
    value: unknown,
    reply: (r: JsonRpcResponse) => void,
    related?: RequestId,
  ): Promise<void> | undefined {
    const checked = checkEnvelope(value);
    if (checked.kind === 'request') return this.#onRequest(checked.message, reply);
    if (checked.kind === 'response') this.#onResponse(checked.message);
    else if (checked.kind === 'notification') this.#onNotification(checked.message, related);
    else if (checked.responseTo !== undefined && this.#outgoing.has(checked.responseTo))
      this.#onFailed(
        checked.responseTo,
        new LocalError(
          'INVALID_RESULT',
          `The peer's answer to request ${checked.responseTo} is not a valid response (${checked.error.error.message})`,
        ),
      );
    else if (!checked.notification) reply(checked.error);
    return undefined;
  }

  #onFailed(id: RequestId, error: Error): void {
    const out = this.#outgoing.get(id);
    if (!out) return;
    this.#outgoing.delete(id);
    out.reject(error);
  }

  #onResponse(message: JsonRpcResponse): void {
    const out = message.id === undefined ? undefined : this.#outgoing.get(message.id);
    if (!out || message.id === undefined) return;
    this.#outgoing.delete(message.id);
    if (isErrorResponse(message)) out.reject(WireError.fromObject(message.error));
    else out.resolve(message.result);
  }

  #onNotification(message: JsonRpcNotification, related: RequestId | undefined): void {
    const params = message.params ?? {};
    if (message.method === 'notifications/cancelled') {
      const id = params.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.#incoming.get(id)?.abort(params.reason);
      return;
    }
    if (message.method === 'notifications/progress') {
      const token = params.progressToken;
      if (typeof token === 'string' || typeof token === 'number')
        this.#outgoing.get(token)?.progress(params as unknown as ProgressUpdate);
    }
    try {
      this.#handlers.notification?.(message, related);
    } catch (error) {
      this.#handlers.internalError?.(error, undefined);
    }
  }

  async #onRequest(request: JsonRpcRequest, reply: (r: JsonRpcResponse) => void): Promise<void> {
    if (this.#incoming.has(request.id)) return reply(invalidRequest(request.id, 'id already in flight'));
    if (this.#incoming.size >= this.#maxConcurrent) {
      const why = `too many concurrent requests, the limit is ${this.#maxConcurrent} (maxConcurrentRequests)`;
      return reply(invalidRequest(request.id, why));
    }
    const incoming = new IncomingRequest(request.method, this.#notifyFn);
    this.#incoming.set(request.id, incoming);
    let response: JsonRpcResponse;
    try {
      // `?? {}`: a server middleware may answer a request without a result object.
      response = resultResponse(request.id, (await this.#handlers.request(request, incoming)) ?? {});
    } catch (error) {
      response = this.#failed(request, error);
    }
    incoming.finish();
    this.#incoming.delete(request.id);
    if (this.#idle.size > 0) for (const wake of this.#idle) wake();
    this.#idle.clear();
    if (!incoming.aborted) this.#replySafely(reply, response);
  }

  // A result that cannot be sent (e.g. a value JSON.stringify refuses) becomes -32603.
  #replySafely(reply: (r: JsonRpcResponse) => void, response: JsonRpcResponse): void {
    try {
      reply(response);
    } catch (error) {
      this.#handlers.internalError?.(error, undefined);
      const message = 'Internal error: the result could not be serialized';
      reply(errorResponse(response.id, { code: ERROR_TABLE.InternalError.code, message }));
    }
  }

  // What a handler's failure becomes on the wire (one async step less than a separate answer function).
  #failed(request: JsonRpcRequest, error: unknown): JsonRpcResponse {
    if (error instanceof WireError) return errorResponse(request.id, error.toJSON());
    this.#handlers.internalError?.(error, request);
    return errorResponse(request.id, { code: ERROR_TABLE.InternalError.code, message: 'Internal error' });
  }

  // Open-ended requests (subscriptions/listen) are not waited for; others get up to 30 s.
  async #onInputEnded(): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (this.#busy() && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        this.#idle.add(resolve);
        setTimeout(resolve, 250);
      });
    }
    await this.close();
  }

  #busy(): boolean {
    if (this.#frames.pending > 0) return true;
    for (const incoming of this.#incoming.values())
      if (incoming.method !== 'subscriptions/listen') return true;
    return false;
  }

  #onClosed(error?: Error): void {
    if (this.#closed) return;
    this.#closed = error ?? new LocalError('CONNECTION_CLOSED', 'connection closed');
    this.#frames.clear();
    for (const incoming of this.#incoming.values()) incoming.abort(this.#closed);
    for (const out of this.#outgoing.values()) out.reject(closedError(this.#closed));
    this.#incoming.clear();
    this.#outgoing.clear();
    this.#handlers.closed?.(error);
  }
}

function invalidRequest(id: RequestId, why: string): JsonRpcErrorResponse {
  return errorResponse(id, { code: ERROR_TABLE.InvalidRequest.code, message: `Invalid request: ${why}` });
}

function closedError(cause: Error): LocalError {
  return new LocalError('CONNECTION_CLOSED', `Connection closed: ${cause.message}`, { cause });
}

function withProgressToken(params: Params | undefined, token: RequestId): Params {
  const meta = (params?._meta ?? {}) as Params;
  return { ...params, _meta: { ...meta, progressToken: token } };
}
