/**
 * Reading the HTTP response to a POSTed request: a JSON body or an SSE stream, handed to
 * the client frame by frame until the request's own response has come; an HTTP error
 * becomes its JSON-RPC body or a synthesized error response; a legacy stream that breaks
 * before the response is resumed. The client parses each frame once more itself: reading
 * it here is how the transport knows the exchange is over.
 * Source: 2026-07-28 basic/transports/streamable-http "Sending Messages to the Server";
 * 2025-11-25 basic/transports "Resumability and Redelivery".
 */
import type { RequestId, TransportSink } from '../../core/index.js';
import {
  disconnectedFrame,
  failureFrame,
  isResponseObject,
  mediaTypeOf,
  parseObject,
  resultOf,
  statusFrame,
} from './frames.js';
import type { Exchange, LegacySession } from './legacy/http-session.js';
import type { RelatedRequests } from './related-requests.js';
import { newCursor, readBoundedText, readSse, type SseCursor } from './sse.js';

/** What the reader needs from its transport. */
export interface ResponseHost {
  /** The client's sink; undefined once the transport is closed (frames are then dropped). */
  sink(): TransportSink | undefined;
  readonly session: LegacySession;
  /** Largest JSON body or SSE event accepted, in bytes. */
  readonly maxMessageBytes: number;
  /** Where a server request read from a POST's stream is recorded against that POST's request. */
  readonly related: RelatedRequests;
}

/** Hands responses to the client, exchange by exchange. */
export class ResponseReader {
  readonly #host: ResponseHost;

  constructor(host: ResponseHost) {
    this.#host = host;
  }

  /** Reads `response` to the request of `exchange` (see the module comment). */
  async consume(response: Response, exchange: Exchange): Promise<void> {
    if (!response.ok) return this.refused(response, exchange);
    if (mediaTypeOf(response) === 'text/event-stream' && response.body) {
      return this.#stream(response.body, exchange);
    }
    const text = await readBoundedText(response, this.#host.maxMessageBytes);
    if (text.trim() !== '') this.deliver(text, exchange);
    if (!exchange.answered) {
      this.deliver(failureFrame(exchange.id, `HTTP ${response.status} without a response to the request`));
    }
  }

  /** An HTTP error: its JSON-RPC body if it has one, else a synthesized error response. */
  async refused(response: Response, exchange: Exchange, body?: string): Promise<void> {
    const text = body ?? (await readBoundedText(response, this.#host.maxMessageBytes).catch(() => ''));
    if (isResponseObject(parseObject(text))) this.deliver(text, exchange);
    if (!exchange.answered) this.deliver(statusFrame(exchange.id, response, text), exchange);
  }

  /**
   * Hands a frame to the client. A response to `exchange` marks it answered; an error
   * without an id gets the exchange's id; a legacy `initialize` result is read on the way
   * (the negotiated version decides the `MCP-Protocol-Version` header of later requests).
   */
  deliver(text: string, exchange?: Exchange): void {
    const sink = this.#host.sink();
    if (!sink) return;
    const value = exchange ? parseObject(text) : undefined;
    if (exchange && value && isRequestObject(value)) this.#host.related.record(value.id, exchange.id);
    if (!exchange || !value || !isResponseObject(value)) return sink.frame(text, exchange?.id);
    let out = value;
    if ('error' in value && (value.id === undefined || value.id === null))
      out = { ...value, id: exchange.id };
    if (out.id === exchange.id) {
      exchange.answered = true;
      if (exchange.method === 'initialize' && !exchange.modern) this.#readVersion(out);
    }
    sink.frame(out === value ? text : JSON.stringify(out));
  }

  /** Reads an SSE response; a stream that ends before the response fails (modern) or resumes (legacy). */
  async #stream(body: ReadableStream<Uint8Array>, exchange: Exchange): Promise<void> {
    const cursor: SseCursor = newCursor();
    try {
      await readSse(body, cursor, {
        onData: (data) => this.deliver(data, exchange),
        stop: () => exchange.answered,
        maxEventBytes: this.#host.maxMessageBytes,
      });
    } catch (error) {
      if (exchange.controller.signal.aborted) return;
      if (exchange.modern || cursor.lastEventId === undefined) throw error;
    }
    if (exchange.answered || exchange.controller.signal.aborted) return;
    if (!exchange.modern && cursor.lastEventId !== undefined) {
      await this.#host.session.resume(exchange, cursor);
      if (exchange.answered || exchange.controller.signal.aborted) return;
    }
    this.deliver(disconnectedFrame(exchange.id, 'the response stream ended before the response'));
  }

  #readVersion(response: { [key: string]: unknown }): void {
    const version = resultOf(response)?.protocolVersion;
    this.#host.session.version = typeof version === 'string' ? version : undefined;
  }
}

function isRequestObject(value: { [key: string]: unknown }): value is { id: RequestId; method: string } {
  return typeof value.method === 'string' && (typeof value.id === 'string' || typeof value.id === 'number');
}
