/**
 * Server-Sent Events over a web `ReadableStream`: event encoding, keep-alive comments,
 * and notice when the client goes away.
 * Source: WHATWG HTML "Server-sent events" (event stream format); 2026-07-28
 * basic/transports/streamable-http "Receiving Messages" (keep-alive comments).
 */

import { LocalError } from '../../core/index.js';
import { timerDelay } from '../../core/runtime.js';

/** One SSE event: `data` is sent as one `data:` line per line of text. */
export interface SseEvent {
  id?: string;
  data: string;
  /** Reconnection delay for the client, in milliseconds. */
  retry?: number;
}

/** Encodes one event, ending with the blank line that dispatches it. */
export function encodeSseEvent(event: SseEvent): string {
  let text = '';
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.retry !== undefined) text += `retry: ${Math.max(0, Math.floor(event.retry))}\n`;
  for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** Options of {@link SseWriter}. */
export interface SseWriterOptions {
  /** Milliseconds between keep-alive comments; 0 turns them off. */
  keepAliveMs: number;
  /** Called once when the client cancels the stream (disconnect), or reads too slowly. */
  onCancel?: () => void;
  /**
   * Most bytes queued for a client that does not read (default 4 MiB). Beyond it the
   * stream is ended with an error and `onCancel` runs: a slow reader cannot make the
   * server buffer without bound.
   */
  maxBufferedBytes?: number;
}

/** Default of {@link SseWriterOptions.maxBufferedBytes}. */
export const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

const encoder = new TextEncoder();

/** Unreferences a timer where the platform supports it, so it never keeps a process alive. */
function unrefTimer(timer: unknown): void {
  (timer as { unref?: () => void } | undefined)?.unref?.();
}

/** Writes SSE events into `body`, a stream handed to a `Response`. */
export class SseWriter {
  readonly body: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #closed = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  readonly #maxBuffered: number;
  readonly #onCancel: (() => void) | undefined;

  constructor(options: SseWriterOptions) {
    this.#maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.#onCancel = options.onCancel;
    // Queue size in bytes, so desiredSize tells how much the client has not read yet.
    const strategy = { highWaterMark: 0, size: (chunk: Uint8Array) => chunk.byteLength };
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        cancel: () => {
          if (this.#finish()) options.onCancel?.();
        },
      },
      strategy,
    );
    if (options.keepAliveMs > 0) {
      this.#timer = setInterval(() => this.#write(':\n\n'), timerDelay(options.keepAliveMs));
      unrefTimer(this.#timer);
    }
  }

  /** True once closed by either side. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Sends one event; returns false when the stream is already closed. */
  send(event: SseEvent): boolean {
    return this.#write(encodeSseEvent(event));
  }

  /** Ends the stream (the client sees end of body). */
  close(): void {
    if (this.#finish()) this.#controller.close();
  }

  #write(text: string): boolean {
    if (this.#closed) return false;
    this.#controller.enqueue(encoder.encode(text));
    if (-(this.#controller.desiredSize ?? 0) > this.#maxBuffered) {
      this.#finish();
      this.#controller.error(
        new LocalError(
          'LIMIT_EXCEEDED',
          `the client read too slowly: over ${this.#maxBuffered} bytes queued`,
        ),
      );
      this.#onCancel?.();
      return false;
    }
    return true;
  }

  #finish(): boolean {
    if (this.#closed) return false;
    this.#closed = true;
    clearInterval(this.#timer);
    return true;
  }
}
