/**
 * Bounds the rate at which a server's notifications reach the user's `onNotification`
 * callback, so a server flooding `notifications/progress` or `notifications/message`
 * cannot starve the host:
 * - progress passes as it comes up to 1 000 per second (all requests together); beyond
 *   that it is coalesced: per `progressToken`, only the latest notification of an
 *   event-loop turn is delivered (per-request `onprogress` is bounded the same way, at 100
 *   per second per request);
 * - log messages are capped at `maxLogMessagesPerSecond`; those over it are dropped and
 *   counted, and once the second is over one `notifications/message` from logger `mcpkit`
 *   (level `warning`) says how many were dropped.
 * Other notifications pass through as they come.
 * Source: 2026-07-28 basic/patterns/progress "Implementation Notes" (rate limiting to
 * prevent flooding), server/utilities/logging "Security" (rate limit log messages).
 */
import { afterMicrotasks, rateBudget } from '../core/runtime.js';
import type { JsonRpcNotification, RequestId } from '../core/index.js';

/** Bounds of a {@link NotificationGate}. */
export interface NotificationGateOptions {
  /** Log messages delivered per second at most (default 100; `Infinity` turns the cap off). */
  maxLogMessagesPerSecond?: number;
}

/** The gate in front of one client's `onNotification`. */
export class NotificationGate {
  readonly #deliver: (notification: JsonRpcNotification, related?: RequestId) => void;
  readonly #maxLogs: number;
  readonly #progress = new Map<string | number, JsonRpcNotification>();
  readonly #progressBudget = rateBudget(1000);
  #windowStart = 0;
  #logsInWindow = 0;
  #dropped = 0;
  #summary: ReturnType<typeof setTimeout> | undefined;

  /** `deliver` gets each notification passed on, with the id of our request it came with (if known). */
  constructor(
    deliver: (notification: JsonRpcNotification, related?: RequestId) => void,
    options: NotificationGateOptions = {},
  ) {
    this.#deliver = deliver;
    this.#maxLogs = options.maxLogMessagesPerSecond ?? 100;
  }

  /** Takes one notification from the server. */
  receive(notification: JsonRpcNotification, related?: RequestId): void {
    if (notification.method === 'notifications/progress') return this.#onProgress(notification);
    if (notification.method === 'notifications/message') return this.#onLog(notification, related);
    this.#deliver(notification, related);
  }

  /** Stops the pending summary timer (the connection closed). */
  close(): void {
    clearTimeout(this.#summary);
    this.#summary = undefined;
  }

  #onProgress(notification: JsonRpcNotification): void {
    const token = notification.params?.progressToken;
    if (typeof token !== 'string' && typeof token !== 'number') return this.#deliver(notification);
    if (!this.#progress.has(token) && this.#progressBudget()) return this.#deliver(notification);
    if (!this.#progress.has(token)) afterMicrotasks(() => this.#flushProgress(token));
    this.#progress.set(token, notification);
  }

  #flushProgress(token: string | number): void {
    const latest = this.#progress.get(token);
    this.#progress.delete(token);
    if (latest) this.#deliver(latest);
  }

  #onLog(notification: JsonRpcNotification, related: RequestId | undefined): void {
    const now = performance.now();
    if (now - this.#windowStart >= 1000) {
      this.#windowStart = now;
      this.#logsInWindow = 0;
    }
    if (++this.#logsInWindow <= this.#maxLogs) return this.#deliver(notification, related);
    this.#dropped++;
    this.#summary ??= setTimeout(() => this.#summarise(), Math.max(0, this.#windowStart + 1000 - now));
    (this.#summary as { unref?: () => void }).unref?.();
  }

  #summarise(): void {
    this.#summary = undefined;
    const dropped = this.#dropped;
    this.#dropped = 0;
    if (dropped === 0) return;
    const data = `${dropped} log message(s) from the server dropped: over ${this.#maxLogs} per second (limits.maxLogMessagesPerSecond)`;
    this.#deliver({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'warning', logger: 'mcpkit', data },
    });
  }
}
