/**
 * The server end of the stdio transport: newline-delimited JSON-RPC read from stdin and
 * written to stdout.
 * Source: 2026-07-28 basic/transports/stdio.
 */
import { ERROR_TABLE } from '../../core/errors.js';
import { errorResponse, type JsonRpcMessage } from '../../core/jsonrpc.js';
import { LineDecoder, encodeFrame, type LineEvent } from '../../core/line-framing.js';
import type { Transport, TransportSink } from '../../core/transport.js';

/** Options of {@link stdioServerTransport}. */
export interface StdioServerOptions {
  /** Where messages come from (default `process.stdin`). */
  stdin?: NodeJS.ReadableStream;
  /** Where messages go (default `process.stdout`). Nothing else may be written to it. */
  stdout?: NodeJS.WritableStream;
  /** Longest accepted line in bytes (default 64 MiB); see {@link stdioServerTransport}. */
  maxLineBytes?: number;
  /**
   * Milliseconds between a request's last progress notification and its response (default
   * {@link STDIO_PROGRESS_GAP_MS}; 0 turns the gap off). See {@link stdioServerTransport}.
   */
  progressGapMs?: number;
}

/**
 * The default gap between a request's notifications and its response on stdio, in ms.
 * The official clients (v1 and v2) handle a response read in the same chunk as a
 * notification before that notification, and then drop it as belonging to no request.
 * A pipe hands the reader whatever it holds, so only time between the two writes lets the
 * client read them apart. On a 2-core machine with a load average of 15–25, 1–2 ms lost
 * some notifications, 10 ms one call in ~100, 20 ms the first call of a fresh client in
 * ~25 (the client busy compiling); 50 ms lost none of 40.
 */
export const STDIO_PROGRESS_GAP_MS = 50;

/**
 * Creates the server end of the stdio transport.
 *
 * - Each line of stdin becomes one frame for the sink (`\r\n` accepted, empty lines skipped,
 *   UTF-8 decoded across chunk boundaries).
 * - `send()` writes one line to stdout at once, one write per message. Node queues writes,
 *   so send never throws.
 * - A line longer than `maxLineBytes` is discarded without being buffered, and the transport
 *   itself answers with a -32700 Parse error (no id, since none could be read); later lines
 *   are read as usual.
 * - When stdin ends (the client's shutdown signal) the sink gets `closed()`; a stream error
 *   on stdin or stdout (EPIPE when the client is gone) gives `closed(error)`.
 * - `close()` stops reading stdin (so the process can exit) and ends nothing else: stdout is
 *   left open because it is usually the process's own.
 */
export function stdioServerTransport(options: StdioServerOptions = {}): Transport {
  return new StdioServer(options);
}

class StdioServer implements Transport {
  readonly #stdin: NodeJS.ReadableStream;
  readonly #stdout: NodeJS.WritableStream;
  readonly #decoder: LineDecoder;
  readonly #encoder = new TextEncoder();
  readonly progressGapMs: number;
  #sink: TransportSink | undefined;
  #closed = false;

  constructor(options: StdioServerOptions) {
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
    const max = options.maxLineBytes;
    this.#decoder = new LineDecoder(
      max === undefined ? { decodeWhole: bufferText } : { maxLineBytes: max, decodeWhole: bufferText },
    );
    this.progressGapMs = options.progressGapMs ?? STDIO_PROGRESS_GAP_MS;
  }

  start(sink: TransportSink): void {
    this.#sink = sink;
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('end', this.#onEnd);
    this.#stdin.on('error', this.#finish);
    this.#stdout.on('error', this.#finish);
    this.#stdin.resume();
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.#closed) return;
    // One write per message, at once: holding a turn's messages for one write put a
    // request's progress in the same chunk as its response (the official clients then drop
    // it) and handed the client its answers in batches instead of as they were ready.
    this.#stdout.write(encodeFrame(message));
  }

  async close(): Promise<void> {
    this.#finish();
  }

  #deliver(events: LineEvent[]): void {
    for (const event of events) {
      if (this.#closed) return;
      if (event.kind === 'line') this.#sink?.frame(event.text);
      else this.send(tooLongResponse(event.maxLineBytes));
    }
  }

  readonly #onData = (chunk: string | Uint8Array): void => {
    this.#deliver(this.#decoder.push(typeof chunk === 'string' ? this.#encoder.encode(chunk) : chunk));
  };

  readonly #onEnd = (): void => {
    this.#deliver(this.#decoder.end());
    // A sink that can drain answers what is in flight, then closes us; otherwise close now.
    if (this.#sink?.inputEnded) this.#sink.inputEnded();
    else this.#finish();
  };

  /** Ends the transport once. The error listeners stay, so a late EPIPE cannot crash the process. */
  readonly #finish = (error?: Error): void => {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.removeListener('data', this.#onData);
    this.#stdin.removeListener('end', this.#onEnd);
    this.#stdin.pause();
    this.#sink?.closed(error);
  };
}

// Chunks from a Node stream are Buffers (and so are their subarrays): decode with Buffer, which is faster.
function bufferText(bytes: Uint8Array): string {
  return Buffer.isBuffer(bytes)
    ? bytes.toString('utf8')
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
}

function tooLongResponse(maxLineBytes: number): JsonRpcMessage {
  return errorResponse(undefined, {
    code: ERROR_TABLE.ParseError.code,
    message: `Parse error: message longer than ${maxLineBytes} bytes`,
  });
}
