/**
 * Reading an SSE response body into JSON-RPC frames, keeping the cursor a legacy client
 * needs to resume: the last event id and the server's `retry` interval.
 * Source: HTML Living Standard "Server-sent events"; 2025-11-25 basic/transports
 * "Resumability and Redelivery"; 2026-07-28 basic/transports/streamable-http
 * "Receiving Messages".
 */
import { createParser } from 'eventsource-parser';
import { LocalError } from '../../core/index.js';

/** Where a stream stands: what to send as `Last-Event-ID` and how long to wait before that. */
export interface SseCursor {
  lastEventId: string | undefined;
  /** Milliseconds, from the last `retry` field; undefined when the server sent none. */
  retryMs: number | undefined;
}

/** Creates a cursor at the start of a stream. */
export function newCursor(): SseCursor {
  return { lastEventId: undefined, retryMs: undefined };
}

/** Largest SSE event the client buffers, in UTF-16 code units (default of `maxMessageBytes`). */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Options of {@link readSse}. */
export interface ReadSseOptions {
  /** Called with the data of each `message` event that has any. */
  onData: (data: string) => void;
  /** Checked after each event; true stops reading (default: never). */
  stop?: () => boolean;
  /** Most characters received without completing an event (default 16 MiB). */
  maxEventBytes?: number;
}

/**
 * Reads `body` to its end, calling `options.onData` with the data of every `message` event that
 * has any (multi-line data arrives joined with `\n`; comments, empty priming events and
 * other event types are skipped), and updating `cursor`. Stops early, cancelling the body,
 * once `stop()` returns true after an event.
 * @throws the body's read error (a network failure, or an abort of the fetch); LocalError
 *   `LIMIT_EXCEEDED` when an event grows beyond `maxEventBytes` (the body is cancelled).
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  cursor: SseCursor,
  options: ReadSseOptions,
): Promise<void> {
  const { onData, stop = () => false, maxEventBytes = DEFAULT_MAX_MESSAGE_BYTES } = options;
  let pending = 0;
  const parser = createParser({
    onEvent: (event) => {
      pending = 0;
      if (event.id !== undefined) cursor.lastEventId = event.id;
      if ((event.event ?? 'message') === 'message' && event.data !== '') onData(event.data);
    },
    onRetry: (ms) => {
      cursor.retryMs = ms;
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    while (!stop()) {
      const { value, done } = await reader.read();
      if (done) return;
      const text = decoder.decode(value, { stream: true });
      pending += text.length;
      parser.feed(text);
      if (pending > maxEventBytes) throw tooLarge(maxEventBytes);
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

function tooLarge(max: number): LocalError {
  return new LocalError(
    'LIMIT_EXCEEDED',
    `the server sent an SSE event larger than ${max} bytes (maxMessageBytes)`,
  );
}

/**
 * Reads a JSON response body as text, at most `maxBytes` bytes.
 * @throws LocalError `LIMIT_EXCEEDED` when the body is larger (the body is cancelled).
 */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw bodyTooLarge(maxBytes);
  }
  if (!response.body) return '';
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw bodyTooLarge(maxBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
}

function bodyTooLarge(max: number): LocalError {
  return new LocalError(
    'LIMIT_EXCEEDED',
    `the server sent a response body larger than ${max} bytes (maxMessageBytes)`,
  );
}
