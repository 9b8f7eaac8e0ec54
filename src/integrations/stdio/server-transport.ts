/**
 * The server end of the stdio transport: newline-delimited JSON-RPC read from stdin and
 * written to stdout.
 * Source: 2026-07-28 basic/transports/stdio.
 */
import {
  ERROR_TABLE,
  type JsonRpcMessage,
  type Params,
  type RequestId,
  type Transport,
  type TransportSink,
} from '../../core/index.js';
import {
  errorResponse,
  isRequestId,
  timerDelay,
  LineDecoder,
  encodeFrame,
  type LineEvent,
} from '../../core/runtime.js';

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
 * The default gap between a request's last progress notification and its response on
 * stdio, in ms: the official clients (v1 and v2) drop a progress notification read in the
 * same chunk as its request's response.
 */
export const STDIO_PROGRESS_GAP_MS = 50;

/**
 * Most lines one write to stdout carries. A write per message costs a system call each (a
 * quarter of a small call's CPU at 16 in flight); one write per tick makes the client wait
 * for the tick's last answer, and client and server then take turns instead of working at
 * once (the referee's 16-in-flight echo: 45 000 calls/s). Four at a time keeps both busy
 * (about 60 000–78 000 calls/s on the same machine, bare Node's echo 72 000).
 */
const GROUP = 4;

/**
 * Creates the server end of the stdio transport.
 *
 * - Each line of stdin becomes one frame for the sink (`\r\n` accepted, empty lines skipped,
 *   UTF-8 decoded across chunk boundaries).
 * - `send()` queues one line; the lines one tick of the event loop produces leave in writes
 *   of up to four lines, the last when that tick's work is done (before any I/O is read
 *   again). Node queues writes, so send never throws. The one exception: the response to a request whose params carried
 *   a `_meta.progressToken` waits until `progressGapMs` after the last progress notification
 *   sent for that token (other messages pass it).
 * - A line longer than `maxLineBytes` is discarded without being buffered, and the transport
 *   itself answers with a -32700 Parse error (no id, since none could be read); later lines
 *   are read as usual.
 * - When stdin ends (the client's shutdown signal) the sink gets `closed()`; a stream error
 *   on stdin or stdout (EPIPE when the client is gone) gives `closed(error)`.
 * - `close()` writes the responses still waiting out their gap, then stops reading stdin (so
 *   the process can exit) and ends nothing else: stdout is left open because it is usually
 *   the process's own.
 */
export function stdioServerTransport(options: StdioServerOptions = {}): Transport {
  return new StdioServer(options);
}

class StdioServer implements Transport {
  readonly binding = 'stdio';
  readonly #stdin: NodeJS.ReadableStream;
  readonly #stdout: NodeJS.WritableStream;
  readonly #decoder: LineDecoder;
  readonly #encoder = new TextEncoder();
  readonly #gap: ProgressGap | undefined;
  #sink: TransportSink | undefined;
  #closed = false;
  /** Lines written this tick, not yet handed to stdout (see {@link #write}). */
  #pending = '';
  #queued = 0;

  constructor(options: StdioServerOptions) {
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
    const max = options.maxLineBytes;
    this.#decoder = new LineDecoder(
      max === undefined ? { decodeWhole: bufferText } : { maxLineBytes: max, decodeWhole: bufferText },
    );
    const gapMs = options.progressGapMs ?? STDIO_PROGRESS_GAP_MS;
    this.#gap = gapMs > 0 ? new ProgressGap(gapMs) : undefined;
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
    const wait = this.#gap?.waitFor(message) ?? 0;
    if (wait > 0) this.#gap?.hold(wait, () => this.#write(message));
    else this.#write(message);
  }

  /**
   * Queues one line. The messages one turn of the event loop produces (the answers to the
   * requests of one stdin chunk, their notifications) leave in writes of up to {@link GROUP}
   * lines instead of one write each: on a pipe every write is a system call, the largest cost
   * of a small call. Nothing waits for a later turn: the rest is written as soon as the current
   * job and its microtasks are done. A progress notification and its response never share a
   * write (the response waits out the progress gap first).
   */
  #write(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.#closed) return;
    if (this.#pending === '') process.nextTick(this.#flush);
    this.#pending += encodeFrame(message);
    if (++this.#queued >= GROUP) this.#flush();
  }

  readonly #flush = (): void => {
    const lines = this.#pending;
    this.#pending = '';
    this.#queued = 0;
    if (lines !== '' && !this.#closed) this.#stdout.write(lines);
  };

  async close(): Promise<void> {
    await this.#gap?.released();
    this.#finish();
  }

  #deliver(events: LineEvent[]): void {
    for (const event of events) {
      if (this.#closed) return;
      if (event.kind !== 'line') this.send(tooLongResponse(event.maxLineBytes));
      else {
        this.#gap?.noteRequest(event.text);
        this.#sink?.frame(event.text);
      }
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
    if (error === undefined) this.#flush();
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

type Token = string | number;

/** Most requests with a progress token remembered at once (the oldest is forgotten first). */
const MAX_TRACKED = 4096;

/**
 * Holds the response of a request that sent progress until the gap after its last progress
 * notification has passed (see {@link STDIO_PROGRESS_GAP_MS}).
 */
class ProgressGap {
  readonly #gapMs: number;
  readonly #tokenOf = new Map<RequestId, Token>();
  /** Per progress token: when its last progress notification was sent (-Infinity: none yet). */
  readonly #lastProgress = new Map<Token, number>();
  #held = 0;
  #released: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(gapMs: number) {
    this.#gapMs = gapMs;
  }

  /** Remembers the progress tokens of the requests in one incoming line. */
  noteRequest(text: string): void {
    if (!text.includes('"progressToken"')) return; // most lines carry none: skip the parse
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return; // the peer answers the malformed line
    }
    for (const value of Array.isArray(parsed) ? parsed : [parsed]) this.#note(value);
  }

  #note(value: unknown): void {
    const { id, method, params } = (value ?? {}) as { id?: unknown; method?: unknown; params?: Params };
    const token = (params?._meta as Params | undefined)?.progressToken;
    if (typeof method !== 'string' || !isRequestId(id) || !isRequestId(token)) return;
    if (this.#tokenOf.size >= MAX_TRACKED) this.#forget(this.#tokenOf.keys().next().value!);
    this.#tokenOf.set(id, token);
    this.#lastProgress.set(token, -Infinity);
  }

  #forget(id: RequestId): void {
    const token = this.#tokenOf.get(id);
    this.#tokenOf.delete(id);
    if (token !== undefined) this.#lastProgress.delete(token);
  }

  /** Records a progress notification; for a response, the milliseconds it must still wait. */
  waitFor(message: JsonRpcMessage | JsonRpcMessage[]): number {
    if (this.#tokenOf.size === 0) return 0;
    if (Array.isArray(message)) return Math.max(0, ...message.map((m) => this.waitFor(m)));
    if ('method' in message) {
      const token = message.params?.progressToken;
      if (message.method === 'notifications/progress' && isRequestId(token) && this.#lastProgress.has(token))
        this.#lastProgress.set(token, performance.now());
      return 0;
    }
    if (message.id === undefined || !this.#tokenOf.has(message.id)) return 0;
    const sentAt = this.#lastProgress.get(this.#tokenOf.get(message.id)!) ?? -Infinity;
    this.#forget(message.id);
    return sentAt + this.#gapMs - performance.now();
  }

  /** Runs `write` after `ms`; {@link released} waits for it. */
  hold(ms: number, write: () => void): void {
    this.#held++;
    setTimeout(() => {
      write();
      if (--this.#held > 0) return;
      this.#released?.resolve();
      this.#released = undefined;
    }, timerDelay(ms));
  }

  /** Resolves once every held response is written. */
  released(): Promise<void> | undefined {
    if (this.#held === 0) return undefined;
    if (!this.#released) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.#released = { promise, resolve };
    }
    return this.#released.promise;
  }
}
