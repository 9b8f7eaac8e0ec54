/**
 * Reading an SSE response body into JSON-RPC frames, keeping the cursor a legacy client
 * needs to resume: the last event id and the server's `retry` interval.
 * Source: HTML Living Standard "Server-sent events"; 2025-11-25 basic/transports
 * "Resumability and Redelivery"; 2026-07-28 basic/transports/streamable-http
 * "Receiving Messages".
 */
import { createParser } from 'eventsource-parser';

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

/**
 * Reads `body` to its end, calling `onData` with the data of every `message` event that
 * has any (multi-line data arrives joined with `\n`; comments, empty priming events and
 * other event types are skipped), and updating `cursor`. Stops early, cancelling the body,
 * once `stop()` returns true after an event.
 * @throws the body's read error (a network failure, or an abort of the fetch).
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  cursor: SseCursor,
  onData: (data: string) => void,
  stop: () => boolean = () => false,
): Promise<void> {
  const parser = createParser({
    onEvent: (event) => {
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
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
