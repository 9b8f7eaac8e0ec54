/**
 * Order of work for frames that arrive together (one stdin chunk often holds a dozen
 * requests): each frame is taken up to its answer before the next one starts, unless it
 * waits on something outside this turn of the event loop.
 *
 * Why: a request's handling is a chain of promise reactions. Started side by side, the
 * chains advance in lockstep, so every answer of the chunk is written at the very end of
 * it and the other side sits idle meanwhile (figures: bench/RESULTS.md). Taken one by one,
 * each answer leaves as soon as it is ready and the peer works on it in parallel.
 *
 * A frame whose handling is still pending once the microtasks run out (its handler awaits
 * I/O or a timer) stops holding the others back: requests stay concurrent.
 */

import type { RequestId } from './jsonrpc.js';

/** Handles one frame; returns a promise when the handling goes on asynchronously. */
export type FrameHandler = (text: string, related?: RequestId) => Promise<unknown> | undefined;

/** Runs `fn` after the current microtasks (setImmediate where it exists; a 0 ms timer elsewhere). */
export const afterMicrotasks: (fn: () => void) => void =
  typeof globalThis.setImmediate === 'function'
    ? (fn) => void globalThis.setImmediate(fn)
    : (fn) => void setTimeout(fn, 0);

/** Runs frames one at a time as described in the module comment. */
export class FrameQueue {
  readonly #handle: FrameHandler;
  readonly #onError: (error: unknown) => void;
  #frames: string[] = [];
  /** The `related` of each queued frame, by index in `#frames` (sparse: most frames have none). */
  #related = new Map<number, RequestId>();
  #head = 0;
  /** The number of the wait in progress (0 when no frame holds the others back). */
  #waiting = 0;
  #waits = 0;
  #armed = false;

  constructor(handle: FrameHandler, onError: (error: unknown) => void) {
    this.#handle = handle;
    this.#onError = onError;
  }

  /** Frames received but not started yet. */
  get pending(): number {
    return this.#frames.length - this.#head;
  }

  /** Takes a frame: starts it now, or after the frames ahead of it. */
  push(text: string, related?: RequestId): void {
    if (this.#waiting === 0) return this.#run(text, related);
    if (related !== undefined) this.#related.set(this.#frames.length, related);
    this.#frames.push(text);
  }

  /** Drops the frames not started yet (the connection closed). */
  clear(): void {
    this.#frames = [];
    this.#related.clear();
    this.#head = 0;
  }

  #run(text: string, related?: RequestId): void {
    const handled = this.#handle(text, related);
    if (handled === undefined) return;
    const wait = ++this.#waits;
    this.#waiting = wait;
    handled.then(
      () => this.#resume(wait),
      (error: unknown) => {
        this.#onError(error);
        this.#resume(wait);
      },
    );
    if (!this.#armed) {
      this.#armed = true;
      afterMicrotasks(this.#turnEnded);
    }
  }

  #resume(wait: number): void {
    if (this.#waiting !== wait) return;
    this.#waiting = 0;
    this.#drain();
  }

  #drain(): void {
    while (this.#waiting === 0 && this.#head < this.#frames.length) {
      const index = this.#head++;
      const related = this.#related.get(index);
      if (related !== undefined) this.#related.delete(index);
      this.#run(this.#frames[index]!, related);
    }
    // Nothing left: start again at the front (no new array when it was already empty).
    if (this.#head > 0 && this.#head === this.#frames.length) this.clear();
  }

  // The microtasks ran out with a frame still pending: it waits on I/O, so go on without it.
  readonly #turnEnded = (): void => {
    this.#armed = false;
    this.#waiting = 0;
    this.#drain();
  };
}
