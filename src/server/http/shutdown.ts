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

/** A request in progress as shutdown sees it; it calls {@link OpenRequests.ended} when its reply ends. */
export interface Closable {
  /** Asks the request to end gracefully (a listen sends its completion result). */
  close(): void;
  /** Gives up on the request: cancels its handler and answers it with an error. */
  abandon(): void;
}

/**
 * The set of requests in progress of one endpoint. A request leaves it by calling
 * {@link ended}: no promise or callback is made per request, only when `close()` waits.
 */
export class OpenRequests {
  readonly #open = new Set<Closable>();
  #closed = false;
  #drained: (() => void) | undefined;

  /** True once {@link close} was called: new requests are refused. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Tracks `request` until it calls {@link ended}. */
  add(request: Closable): void {
    this.#open.add(request);
  }

  /** `request`'s reply has ended. */
  ended(request: Closable): void {
    if (this.#open.delete(request) && this.#open.size === 0) this.#drained?.();
  }

  /**
   * Closes every request in progress and resolves once all replies ended: gracefully
   * first, abandoning those still running after `timeoutMs`.
   */
  async close(timeoutMs: number): Promise<void> {
    this.#closed = true;
    for (const request of [...this.#open]) request.close();
    const all = this.#allEnded();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimer(() => resolve('late'), timeoutMs)));
    const outcome = await Promise.race([all, late]);
    clearTimeout(timer);
    if (outcome === 'late') {
      for (const request of [...this.#open]) request.abandon();
      await all;
    }
  }

  #allEnded(): Promise<void> {
    if (this.#open.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#drained = resolve));
  }
}
