/**
 * One outgoing request awaiting its response: timeout (reset on progress), abort, and
 * progress delivery. Source: 2026-07-28 patterns/progress and patterns/cancellation.
 */
import { LocalError } from './errors.js';
import type { Params, RequestId } from './jsonrpc.js';
import { afterMicrotasks } from './frame-queue.js';
import { rateBudget } from './rate.js';
import { setTimer } from './timer.js';

/** Progress updates per second one request delivers to `onprogress` as they come (burst as large). */
const PROGRESS_PER_SECOND = 100;

/** The params of a `notifications/progress` (progress and total are numbers, unitless). */
export interface ProgressUpdate {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}

/** Per-request options of an outgoing request. */
export interface RequestOptions {
  /** Aborting sends `notifications/cancelled` and rejects with `ABORTED`. */
  signal?: AbortSignal;
  /** Milliseconds without a response (or progress) before giving up; default from the peer. */
  timeoutMs?: number;
  /** Whether progress resets the timeout (default true). */
  resetTimeoutOnProgress?: boolean;
  /** Upper bound in milliseconds regardless of progress (default: none). */
  maxTotalTimeoutMs?: number;
  /**
   * The option the timeout error names for `timeoutMs` (default `'timeoutMs'`): a library
   * that sets `timeoutMs` from an option of its own (a host's `requestTimeoutMs`) names that.
   */
  timeoutOption?: string;
  /** Receives progress; setting it adds a `progressToken` to the request's `_meta`. */
  onprogress?: (update: ProgressUpdate) => void;
  /**
   * Called with the JSON-RPC id the request gets, just before it is sent (a retry sends a
   * new request with a new id, and calls it again).
   */
  onRequestId?: (id: RequestId) => void;
  /**
   * Extra HTTP headers for this request (e.g. `Authorization`, `traceparent`); transports
   * without headers (stdio) ignore them, and the protocol's own headers win on conflict.
   */
  headers?: Readonly<Record<string, string>>;
}

/** The live state of one outgoing request. */
export interface Outgoing {
  readonly promise: Promise<Params>;
  resolve(result: Params): void;
  reject(error: Error): void;
  progress(update: ProgressUpdate): void;
}

/** What {@link createOutgoing} needs to know about one request. */
interface OutgoingInit {
  id: RequestId;
  method: string;
  timeoutMs: number;
  /** The option that set `timeoutMs`, for the error message. */
  timeoutOption: string;
  options: RequestOptions;
  cancel: (reason: string) => void;
}

/** Creates the state for request `id`; `cancel` is called on timeout or abort. */
export function createOutgoing(init: OutgoingInit): Outgoing {
  return new OutgoingRequest(init);
}

class OutgoingRequest implements Outgoing {
  readonly promise: Promise<Params>;
  readonly #init: OutgoingInit;
  readonly #started = Date.now();
  #settle!: { resolve: (r: Params) => void; reject: (e: Error) => void };
  #timer: ReturnType<typeof setTimeout> | undefined;
  #finished = false;
  #last = -Infinity;
  // Progress reaches `onprogress` as it comes up to PROGRESS_PER_SECOND; beyond that, at most
  // once per event-loop turn with the latest update of the turn (a server flooding progress
  // cannot starve the caller), and always before the result.
  #pending: ProgressUpdate | undefined;
  readonly #budget = rateBudget(PROGRESS_PER_SECOND);

  constructor(init: OutgoingInit) {
    this.#init = init;
    this.promise = new Promise<Params>((resolve, reject) => (this.#settle = { resolve, reject }));
    const { signal } = init.options;
    if (signal?.aborted) queueMicrotask(this.#onAbort);
    else signal?.addEventListener('abort', this.#onAbort, { once: true });
    this.#arm();
  }

  resolve(result: Params): void {
    if (this.#finish()) this.#settle.resolve(result);
  }

  reject(error: Error): void {
    if (this.#finish()) this.#settle.reject(error);
  }

  // progress MUST increase (patterns/progress): anything else is dropped, so a flood of
  // repeated updates neither resets the timeout nor reaches the callback.
  progress(update: ProgressUpdate): void {
    if (this.#finished || !(typeof update.progress === 'number' && update.progress > this.#last)) return;
    this.#last = update.progress;
    const { options } = this.#init;
    if (options.resetTimeoutOnProgress !== false) this.#arm();
    if (!options.onprogress) return;
    if (this.#pending === undefined && this.#budget()) {
      this.#pending = update;
      return this.#deliver();
    }
    if (this.#pending === undefined) afterMicrotasks(this.#deliver);
    this.#pending = update;
  }

  readonly #deliver = (): void => {
    const update = this.#pending;
    this.#pending = undefined;
    if (!update) return;
    try {
      this.#init.options.onprogress?.(update);
    } catch {
      // A throwing callback is the caller's bug; it must not break the connection.
    }
  };

  readonly #onAbort = (): void => this.#fail('ABORTED', 'Request aborted', this.#init.options.signal?.reason);

  #finish(): boolean {
    if (this.#finished) return false;
    this.#deliver();
    this.#finished = true;
    clearTimeout(this.#timer);
    this.#init.options.signal?.removeEventListener('abort', this.#onAbort);
    return true;
  }

  #fail(code: 'TIMEOUT' | 'ABORTED', message: string, cause?: unknown): void {
    if (!this.#finish()) return;
    this.#init.cancel(message);
    this.#settle.reject(new LocalError(code, message, { cause }));
  }

  #arm(): void {
    clearTimeout(this.#timer);
    const { id, method, timeoutMs, timeoutOption, options } = this.#init;
    const total = options.maxTotalTimeoutMs;
    const left = total === undefined ? Infinity : total - (Date.now() - this.#started);
    // The error names whichever limit fires, with the option that set it.
    const why =
      left < timeoutMs
        ? `${total} ms in all (maxTotalTimeoutMs)`
        : `${timeoutMs} ms without a response${options.resetTimeoutOnProgress === false ? '' : ' or progress'} (${timeoutOption})`;
    this.#timer = setTimer(
      () => this.#fail('TIMEOUT', `Request ${String(id)} (${method}) timed out after ${why}`),
      Math.max(0, Math.min(timeoutMs, left)),
    );
  }
}
