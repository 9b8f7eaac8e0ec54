/**
 * Newline-delimited JSON framing: one JSON-RPC message per line, UTF-8, over any byte
 * stream. Web platform only (TextDecoder), so it runs wherever core runs.
 * Source: 2026-07-28 basic/transports/stdio ("Messages are delimited by newlines, and
 * MUST NOT contain embedded newlines"; custom transports reuse this framing).
 */
import type { JsonRpcMessage } from './jsonrpc.js';

const NEWLINE = 0x0a;

/** Default {@link LineDecoderOptions.maxLineBytes}: 64 MiB. */
const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Options of {@link LineDecoder}. */
export interface LineDecoderOptions {
  /** Longest line accepted, in bytes of UTF-8 before decoding, excluding the `\n` (default 64 MiB). */
  maxLineBytes?: number;
  /**
   * Decodes a line that arrived whole in one chunk (default: `TextDecoder`); Node's faster
   * `Buffer#toString` fits. A replacement must turn invalid UTF-8 into U+FFFD the same way.
   */
  decodeWhole?: (bytes: Uint8Array) => string;
}

/**
 * What {@link LineDecoder} yields: a complete line (without its `\r\n` or `\n`), or notice
 * that the current line passed `maxLineBytes` and is being discarded up to its `\n`.
 * `too-long` is yielded once per over-long line, as soon as the limit is passed.
 */
export type LineEvent = { kind: 'line'; text: string } | { kind: 'too-long'; maxLineBytes: number };

/**
 * Splits a byte stream into lines of text.
 *
 * Splitting happens on the byte `0x0A`, which never occurs inside a multi-byte UTF-8
 * sequence. The bytes of an unfinished line are copied into a list, then joined and
 * decoded once when the line ends, so a character split across chunks decodes correctly
 * and a message of many MiB in many chunks costs linear time, one decode per line (not per
 * chunk). A trailing `\r` is removed; empty lines are skipped. Invalid UTF-8 becomes U+FFFD (never throws).
 */
export class LineDecoder {
  readonly #maxLineBytes: number;
  readonly #decodeWhole: (bytes: Uint8Array) => string;
  #pieces: Uint8Array[] = [];
  #pendingBytes = 0;
  #discarding = false;

  constructor(options: LineDecoderOptions = {}) {
    this.#maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    const decoder = new TextDecoder('utf-8');
    this.#decodeWhole = options.decodeWhole ?? ((bytes) => decoder.decode(bytes));
  }

  /** Takes the next chunk of bytes; returns the events it completes, in order. */
  push(chunk: Uint8Array): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      this.#take(chunk.subarray(start, nl), true, events);
      start = nl + 1;
    }
    if (start < chunk.length) this.#take(chunk.subarray(start), false, events);
    return events;
  }

  /** Ends the stream: yields a final line that had no `\n` (if any) and resets the decoder. */
  end(): LineEvent[] {
    const events: LineEvent[] = [];
    if (this.#discarding) this.#discarding = false;
    else if (this.#pendingBytes > 0) this.#take(new Uint8Array(0), true, events);
    return events;
  }

  #take(piece: Uint8Array, lineEnds: boolean, events: LineEvent[]): void {
    if (!this.#discarding && this.#pendingBytes + piece.length > this.#maxLineBytes) {
      this.#reset();
      this.#discarding = true;
      events.push({ kind: 'too-long', maxLineBytes: this.#maxLineBytes });
    }
    if (this.#discarding) {
      if (lineEnds) this.#discarding = false;
      return;
    }
    if (lineEnds && this.#pendingBytes === 0) return this.#line(this.#decodeWhole(piece), events);
    // A copy: the caller may reuse its chunk once push() returns.
    if (piece.length > 0) this.#pieces.push(piece.slice());
    this.#pendingBytes += piece.length;
    if (!lineEnds) return;
    const bytes = new Uint8Array(this.#pendingBytes);
    let at = 0;
    for (const p of this.#pieces) {
      bytes.set(p, at);
      at += p.length;
    }
    this.#reset();
    this.#line(this.#decodeWhole(bytes), events);
  }

  #line(line: string, events: LineEvent[]): void {
    const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (trimmed.length > 0) events.push({ kind: 'line', text: trimmed });
  }

  #reset(): void {
    this.#pieces = [];
    this.#pendingBytes = 0;
  }
}

/**
 * Encodes one message (or a legacy batch) as a line: `JSON.stringify` plus `\n`.
 * JSON.stringify escapes `\n` and `\r` inside strings, so the line has no embedded
 * newline; U+2028/U+2029 stay unescaped, which is harmless since lines split on `\n` only.
 */
export function encodeFrame(message: JsonRpcMessage | JsonRpcMessage[]): string {
  return `${JSON.stringify(message)}\n`;
}
