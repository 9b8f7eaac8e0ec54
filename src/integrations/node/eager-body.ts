/**
 * A node request body read from the moment the request arrives. Reading it only once the
 * endpoint asks (after its first checks, a few microtask steps later) left the request
 * paused: the body then came in a later event-loop turn, behind other connections' work
 * (measured at 16 in flight: 'request' → body end took ~220 µs against ~8 µs, and the
 * server sat ~30% busy). The bound starts at the adapter's default and becomes the
 * endpoint's own when it asks, before more than one read of data can have arrived.
 */
import type { IncomingMessage } from 'node:http';
import type { BodyResult } from '../../server/http/index.js';

/** The bound until the endpoint sets its own: the endpoint's default (4 MiB). */
const FIRST_CAP = 4 * 1024 * 1024;

/** One request's body, collected as it arrives (see the module comment). */
export class EagerBody {
  readonly #req: IncomingMessage;
  #cap: number;
  #size = 0;
  #chunks: Buffer[] = [];
  #over = false;
  /** True once the body ended, false once it failed; undefined while it is arriving. */
  #complete: boolean | undefined;
  // Settles `read` when it had to wait: no promise is made until someone waits.
  #settle: ((complete: boolean) => void) | undefined;

  /** Starts reading `req`, keeping at most `cap` bytes until {@link read} sets the bound. */
  constructor(req: IncomingMessage, cap = FIRST_CAP) {
    this.#req = req;
    this.#cap = cap;
    req.on('data', (chunk: Buffer) => {
      this.#size += chunk.length;
      if (this.#size > this.#cap) return this.#done(this.#overflow());
      this.#chunks.push(chunk);
    });
    // `on`, not `once`: each fires at most once that matters, and `once` wraps every listener.
    req.on('end', () => this.#done(true));
    req.on('error', () => this.#done(false));
  }

  /**
   * The whole body as text, or too-large when it is larger than `maxBytes` (the caller
   * answers 413) or the client went away.
   */
  read(maxBytes: number): Promise<BodyResult> {
    this.#cap = maxBytes;
    if (Number(this.#req.headers['content-length']) > maxBytes || this.#size > maxBytes) this.#overflow();
    if (this.#complete !== undefined) return Promise.resolve(this.#result(this.#complete));
    return new Promise((resolve) => (this.#settle = (complete) => resolve(this.#result(complete))));
  }

  #done(complete: boolean): void {
    if (this.#complete !== undefined) return;
    this.#complete = complete;
    this.#settle?.(complete);
  }

  #result(complete: boolean): BodyResult {
    if (!complete || this.#over) return { kind: 'too-large' };
    const bytes = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks, this.#size);
    // Buffer's own UTF-8 decoding (cheaper per call than TextDecoder), skipping a BOM as
    // TextDecoder does; malformed sequences become U+FFFD either way.
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    return { kind: 'text', text: bytes.toString('utf8', bom ? 3 : 0) };
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
