/**
 * What `client.listen()` returns: an async iterable of the notifications one subscription
 * delivers, the filter the server acknowledged, and `close()`.
 * Source: 2026-07-28 basic/patterns/subscriptions.
 */
import { LocalError, type JsonRpcNotification, type SubscriptionFilter } from '../core/index.js';

/**
 * One subscription. Iterate it with `for await (const n of sub)`; the loop ends when
 * `close()` is called (or the listen signal aborts), when the server completed a listen
 * and no further one can be opened (the server is gone, or it honours nothing of the
 * filter), and throws when it ends any other way (e.g. LocalError `CONNECTION_CLOSED`
 * without the `reconnect` option, or an WireError from the server). A listen the server
 * completes gracefully is opened again. Notifications that arrive before the loop asks
 * for them are kept in order.
 */
export interface Subscription extends AsyncIterable<JsonRpcNotification> {
  /**
   * The filter the server agreed to honour (modern: `notifications/subscriptions/acknowledged`;
   * legacy: what the session's capabilities provide). Rejects if the subscription ends first.
   * After a reconnect it still holds the first acknowledgment.
   */
  readonly acknowledged: Promise<SubscriptionFilter>;
  /** Ends the subscription (modern: cancels the listen request) and the iteration. Idempotent. */
  close(): void;
}

type Waiter = { resolve: (r: IteratorResult<JsonRpcNotification>) => void; reject: (e: unknown) => void };

/** The buffer behind a {@link Subscription}, fed by the listen drivers. */
export class SubscriptionStream implements Subscription {
  readonly acknowledged: Promise<SubscriptionFilter>;
  readonly #closing = new AbortController();
  readonly #queue: JsonRpcNotification[] = [];
  readonly #waiting: Waiter[] = [];
  #acknowledge!: { resolve: (f: SubscriptionFilter) => void; reject: (e: unknown) => void };
  #end: { error: unknown } | undefined;

  constructor() {
    this.acknowledged = new Promise((resolve, reject) => (this.#acknowledge = { resolve, reject }));
    // A caller that never reads `acknowledged` must not see an unhandled rejection.
    this.acknowledged.catch(() => undefined);
  }

  /** Aborted once `close()` is called: the drivers stop on it. */
  get closing(): AbortSignal {
    return this.#closing.signal;
  }

  /** True once the subscription has ended, for whatever reason. */
  get ended(): boolean {
    return this.#end !== undefined;
  }

  /** Queues a notification for the iterator (ignored once ended). */
  push(notification: JsonRpcNotification): void {
    if (this.#end) return;
    const waiter = this.#waiting.shift();
    if (waiter) waiter.resolve({ done: false, value: notification });
    else this.#queue.push(notification);
  }

  /** The filter of the latest acknowledgment (each listen's own); undefined before any. */
  lastAcknowledged: SubscriptionFilter | undefined;
  /** Hears every acknowledgment: the first, and each after listening again. */
  onAcknowledged: ((filter: SubscriptionFilter) => void) | undefined;

  /** Settles `acknowledged` (only the first call counts) and tells {@link onAcknowledged}. */
  acknowledge(filter: SubscriptionFilter): void {
    this.#acknowledge.resolve(filter);
    this.lastAcknowledged = filter;
    if (!this.#end) this.onAcknowledged?.(filter);
  }

  /** Ends the subscription: gracefully without `error`, else the iterator throws it once drained. */
  finish(error?: unknown): void {
    if (this.#end) return;
    this.#end = { error };
    this.#acknowledge.reject(
      error ?? new LocalError('CONNECTION_CLOSED', 'the subscription ended before it was acknowledged'),
    );
    for (const waiter of this.#waiting.splice(0)) this.#settleEnded(waiter);
  }

  close(): void {
    this.finish();
    this.#closing.abort();
  }

  [Symbol.asyncIterator](): AsyncIterator<JsonRpcNotification> {
    return {
      next: () => this.#next(),
      return: () => {
        this.close();
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }

  #next(): Promise<IteratorResult<JsonRpcNotification>> {
    const value = this.#queue.shift();
    if (value) return Promise.resolve({ done: false, value });
    return new Promise((resolve, reject) => {
      const waiter = { resolve, reject };
      if (this.#end) this.#settleEnded(waiter);
      else this.#waiting.push(waiter);
    });
  }

  #settleEnded(waiter: Waiter): void {
    const error = this.#end?.error;
    if (error === undefined) waiter.resolve({ done: true, value: undefined });
    else {
      // The error is reported once; later calls see a finished iterator.
      this.#end = { error: undefined };
      waiter.reject(error);
    }
  }
}
