/**
 * A transport wrapper that reports every JSON-RPC frame crossing it, in either direction,
 * with the time it crossed, for the inspector's message history. It changes nothing.
 */
import type { JsonRpcMessage, SendOptions, Transport, TransportSink } from '../../core/index.js';
import { recordedLine, recordingText } from '../record/format.js';

/** One recorded frame: `out` to the server, `in` from it; `at` in ms since the epoch. */
export interface RecordedFrame {
  direction: 'in' | 'out';
  at: number;
  message: unknown;
  /** The frame's size in UTF-8 bytes as it crossed (newline excluded). */
  bytes?: number;
}

/** Frames longer than this (an image result, say) are recorded as a note instead. */
const MAX_RECORDED_CHARS = 256 * 1024;

function parsed(text: string): unknown {
  if (text.length > MAX_RECORDED_CHARS) return { note: `frame of ${text.length} characters not recorded` };
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { note: 'not JSON', text: text.slice(0, 200) };
  }
}

/** Wraps `transport` so `record` sees each frame it moves. */
export function recordingTransport(transport: Transport, record: (frame: RecordedFrame) => void): Transport {
  return {
    start(sink: TransportSink) {
      const wrapped: TransportSink = {
        frame(text, related) {
          record({ direction: 'in', at: Date.now(), message: parsed(text), bytes: Buffer.byteLength(text) });
          sink.frame(text, related);
        },
        closed: (error) => sink.closed(error),
      };
      const inputEnded = sink.inputEnded?.bind(sink);
      if (inputEnded) wrapped.inputEnded = inputEnded;
      const failed = sink.failed?.bind(sink);
      if (failed) wrapped.failed = failed;
      return transport.start(wrapped);
    },
    send(message: JsonRpcMessage | JsonRpcMessage[], options?: SendOptions) {
      const text = JSON.stringify(message);
      record({
        direction: 'out',
        at: Date.now(),
        message: text.length > MAX_RECORDED_CHARS ? parsed(text) : message,
        bytes: Buffer.byteLength(text),
      });
      transport.send(message, options);
    },
    close: () => transport.close(),
    nonProtocolLines: () => transport.nonProtocolLines?.() ?? [],
  };
}

/** What the inspector records for a skipped line of a stdio server's stdout that is not JSON-RPC. */
export function nonProtocolFrame(line: string): RecordedFrame {
  return {
    direction: 'in',
    at: Date.now(),
    message: { note: 'not JSON-RPC, skipped', text: line.slice(0, 200) },
    bytes: Buffer.byteLength(line),
  };
}

/**
 * `frames` as a recording that `mcpkit replay` serves: JSON Lines, times from the first
 * frame, secrets redacted (record/format.ts).
 */
export function historyRecording(
  frames: readonly RecordedFrame[],
  connection: { http: boolean; server: string },
): string {
  const header = {
    mcpkitRecording: 1 as const,
    transport: connection.http ? ('http' as const) : ('stdio' as const),
    server: connection.server,
    recordedAt: new Date(frames[0]?.at ?? Date.now()).toISOString(),
  };
  const start = frames[0]?.at ?? 0;
  const lines = frames.map((f) =>
    recordedLine({ at: f.at - start, from: f.direction === 'out' ? 'client' : 'server', message: f.message }),
  );
  return recordingText(header, lines);
}
