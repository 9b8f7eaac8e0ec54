/**
 * A node request body read from the moment the request arrives: reading it only once the
 * endpoint asks (after its first checks) left the request paused, so the body came in a
 * later event-loop turn, behind other connections' work. The bound starts at the endpoint's
 * default and becomes the endpoint's own when it asks, before more than one read of data
 * can have arrived.
 */
import type { IncomingMessage } from 'node:http';
import { DEFAULT_MAX_BODY_BYTES, type BodyResult } from '../../server/http/runtime.js';

const TOO_LARGE: BodyResult = { kind: 'too-large' };

/** One request's body, collected as it arrives (see the module comment). */
export class EagerBody {
  readonly #req: IncomingMessage;
  #cap: number;
  #size = 0;
  #chunks: Buffer[] = [];
  #over = false;
  /** Whether a parser's `req.body` stands for the stream (see the constructor). */
  readonly #parsed: boolean;
  /** True once the body ended, false once it failed. */
  readonly #ended: Promise<boolean>;

  /**
   * Starts reading `req`, keeping at most `cap` bytes until {@link read} sets the bound. A
   * request whose stream a framework's body parser already consumed has its `req.body`
   * (a Buffer or string as sent, a parsed value re-encoded as JSON) read instead.
   */
  constructor(req: IncomingMessage, cap = DEFAULT_MAX_BODY_BYTES) {
    this.#req = req;
    this.#cap = cap;
    this.#parsed = req.readableEnded;
    if (this.#parsed) {
      this.#keep(parsedBody((req as { body?: unknown }).body));
      this.#ended = Promise.resolve(true);
      return;
    }
    // The promise is made here, with the listeners: made later, it kept more memory alive per request.
    this.#ended = new Promise((resolve) => {
      req.on('data', (chunk: Buffer) => {
        this.#size += chunk.length;
        if (this.#size > this.#cap) return resolve(this.#overflow());
        this.#chunks.push(chunk);
      });
      // `on`, not `once`: each fires at most once that matters, and `once` wraps every listener.
      req.on('end', () => resolve(true));
      req.on('error', () => resolve(false));
    });
  }

  #keep(bytes: Buffer | undefined): void {
    if (bytes === undefined) return;
    this.#size = bytes.length;
    this.#chunks.push(bytes);
  }

  /**
   * The whole body as text, or too-large when it is larger than `maxBytes` (the caller
   * answers 413) or the client went away.
   */
  read(maxBytes: number): Promise<BodyResult> {
    if (this.#refused(maxBytes)) return Promise.resolve(TOO_LARGE);
    return this.#ended.then((complete) => {
      const bytes = this.#whole(complete);
      if (bytes === undefined) return TOO_LARGE;
      // Buffer's own UTF-8 decoding, skipping a BOM as TextDecoder does; malformed sequences become U+FFFD either way.
      const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
      return { kind: 'text', text: bytes.toString('utf8', bom ? 3 : 0) };
    });
  }

  /** As {@link read}, the body's bytes as sent; undefined for too-large. */
  bytes(maxBytes: number): Promise<Buffer | undefined> {
    if (this.#refused(maxBytes)) return Promise.resolve(undefined);
    return this.#ended.then((complete) => this.#whole(complete));
  }

  // Sets the bound; a declared or already received size over it is refused at once, not once the rest has arrived.
  #refused(maxBytes: number): boolean {
    this.#cap = maxBytes;
    const declared = this.#parsed ? 0 : Number(this.#req.headers['content-length']);
    if (!(declared > maxBytes || this.#size > maxBytes)) return false;
    this.#overflow();
    return true;
  }

  #whole(complete: boolean): Buffer | undefined {
    if (!complete || this.#over) return undefined;
    return this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks, this.#size);
  }

  /**
   * The response is decided: a body still coming is no longer kept (a request refused
   * before its body was needed - 403, 406, 415, 429 - would otherwise buffer up to the
   * bound). It is drained, so the connection can carry the next request.
   */
  discard(): void {
    if (!this.#req.complete) this.#overflow();
  }

  // Too large: drop what was kept and drain the rest without keeping it.
  #overflow(): false {
    if (!this.#over) {
      this.#over = true;
      this.#chunks = [];
      this.#req.removeAllListeners('data');
      this.#req.resume();
    }
    return false;
  }
}

/** A body a parser left on the request, as bytes; undefined when there is none. */
function parsedBody(body: unknown): Buffer | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return Buffer.from(JSON.stringify(body) ?? '', 'utf8');
}
