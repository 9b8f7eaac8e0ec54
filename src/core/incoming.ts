/**
 * One request being answered: its method, whether it was cancelled, and an AbortSignal
 * created only when someone asks for it (most handlers never do, and an AbortController
 * per request is a measurable share of a small call's cost).
 * Source: 2026-07-28 basic/patterns/cancellation.
 */
import type { Params } from './jsonrpc.js';

/** What a handler of an incoming request gets besides the request. */
export interface IncomingContext {
  /** Aborted when the peer cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /** Sends a notification related to this request; ignored once the request is answered. */
  notify(method: string, params?: Params): void;
}

/** The state of one incoming request; implements {@link IncomingContext}. */
export class IncomingRequest implements IncomingContext {
  readonly method: string;
  readonly #send: (method: string, params?: Params) => void;
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  #done = false;

  constructor(method: string, send: (method: string, params?: Params) => void) {
    this.method = method;
    this.#send = send;
  }

  /** The request's signal, created on first use (already aborted if it was cancelled). */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** True once cancelled (by the peer or because the connection closed). */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** Cancels the request; its signal (if any) fires once. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }

  /** Marks the request answered: later notifications are dropped. */
  finish(): void {
    this.#done = true;
  }

  notify(method: string, params?: Params): void {
    if (this.#done || this.#aborted) return;
    this.#send(method, params);
  }
}
