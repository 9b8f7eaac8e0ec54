/**
 * The endpoint's modern requests in progress, so that `close()` ends each stream it owns
 * gracefully within a bound: a listen gets its completion result at once, any other
 * request may finish until the bound, then it is cancelled and answered -32603 (503).
 * Source: 2026-07-28 basic/patterns/subscriptions "Graceful Closure".
 */
import { setTimer } from '../../core/runtime.js';

/** Default bound on how long `close()` lets requests in progress finish, in milliseconds. */
const DEFAULT_CLOSE_TIMEOUT_MS = 5_000;

/**
 * The stream lifetime options of a handler, checked: `maxListenMs` a positive number of
 * milliseconds (or absent), `closeTimeoutMs` zero or more (default 5 000).
 * @throws RangeError naming the option otherwise.
 */
export function streamLifetimes(options: {
  maxListenMs?: number | undefined;
  closeTimeoutMs?: number | undefined;
}): {
  maxListenMs: number | undefined;
  closeTimeoutMs: number;
} {
  const { maxListenMs, closeTimeoutMs = DEFAULT_CLOSE_TIMEOUT_MS } = options;
  if (maxListenMs !== undefined && !(maxListenMs > 0))
    throw new RangeError(`maxListenMs must be a positive number of milliseconds, not ${String(maxListenMs)}`);
  if (!(closeTimeoutMs >= 0))
    throw new RangeError(`closeTimeoutMs must be zero or more milliseconds, not ${String(closeTimeoutMs)}`);
  return { maxListenMs, closeTimeoutMs };
}

/**
 * A request in progress as shutdown sees it; it calls {@link OpenRequests.ended} when its reply
 * ends. `openPrev`/`openNext` belong to {@link OpenRequests}, which links the requests through
 * them (start both undefined).
 */
export interface Closable {
  /** Asks the request to end gracefully (a listen sends its completion result). */
  close(): void;
  /** Gives up on the request: cancels its handler and answers it with an error. */
  abandon(): void;
  openPrev: Closable | undefined;
  openNext: Closable | undefined;
}

/**
 * The requests in progress of one endpoint, linked through the requests themselves: adding
 * and removing one is two field writes (a Set gave every request an identity hash and a
 * table entry), and nothing is allocated per request unless `close()` waits.
 */
export class OpenRequests {
  #head: Closable | undefined;
  #size = 0;
  #closed = false;
  #drained: (() => void) | undefined;

  /** True once {@link close} was called: new requests are refused. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Tracks `request` until it calls {@link ended}. */
  add(request: Closable): void {
    request.openNext = this.#head;
    if (this.#head) this.#head.openPrev = request;
    this.#head = request;
    this.#size++;
  }

  /** `request`'s reply has ended (a second call does nothing). */
  ended(request: Closable): void {
    const { openPrev: prev, openNext: next } = request;
    if (prev === undefined && this.#head !== request) return; // not linked (any more)
    if (prev) prev.openNext = next;
    else this.#head = next;
    if (next) next.openPrev = prev;
    request.openPrev = request.openNext = undefined;
    if (--this.#size === 0) this.#drained?.();
  }

  /**
   * Closes every request in progress and resolves once all replies ended: gracefully
   * first, abandoning those still running after `timeoutMs`.
   */
  async close(timeoutMs: number): Promise<void> {
    this.#closed = true;
    for (const request of this.#each()) request.close();
    const all = this.#allEnded();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimer(() => resolve('late'), timeoutMs)));
    const outcome = await Promise.race([all, late]);
    clearTimeout(timer);
    if (outcome === 'late') {
      for (const request of this.#each()) request.abandon();
      await all;
    }
  }

  /** A snapshot of the requests in progress (closing one may end it and unlink it). */
  #each(): Closable[] {
    const all: Closable[] = [];
    for (let request = this.#head; request; request = request.openNext) all.push(request);
    return all;
  }

  #allEnded(): Promise<void> {
    if (this.#size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#drained = resolve));
  }
}
