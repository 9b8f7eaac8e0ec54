/**
 * One outgoing request awaiting its response: timeout (reset on progress), abort, and
 * progress delivery. Source: 2026-07-28 patterns/progress and patterns/cancellation.
 */
import { McpkitError } from './errors.js';
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

/** Creates the state for request `id`; `cancel` is called on timeout or abort. */
export function createOutgoing(init: {
  id: RequestId;
  method: string;
  timeoutMs: number;
  options: RequestOptions;
  cancel: (reason: string) => void;
}): Outgoing {
  const { options, cancel, timeoutMs } = init;
  let settle!: { resolve: (r: Params) => void; reject: (e: Error) => void };
  const promise = new Promise<Params>((resolve, reject) => (settle = { resolve, reject }));
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  let last = -Infinity;

  // Progress reaches `onprogress` as it comes up to PROGRESS_PER_SECOND; beyond that, at most
  // once per event-loop turn with the latest update of the turn (a server flooding progress
  // cannot starve the caller), and always before the result.
  let pending: ProgressUpdate | undefined;
  const budget = rateBudget(PROGRESS_PER_SECOND);
  const deliver = (): void => {
    const update = pending;
    pending = undefined;
    if (!update) return;
    try {
      options.onprogress?.(update);
    } catch {
      // A throwing callback is the caller's bug; it must not break the connection.
    }
  };
  const finish = (): boolean => {
    if (finished) return false;
    deliver();
    finished = true;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    return true;
  };
  const fail = (code: 'TIMEOUT' | 'ABORTED', message: string, cause?: unknown): void => {
    if (!finish()) return;
    cancel(message);
    settle.reject(new McpkitError(code, message, { cause }));
  };
  const arm = (): void => {
    clearTimeout(timer);
    const left =
      options.maxTotalTimeoutMs === undefined
        ? timeoutMs
        : Math.min(timeoutMs, options.maxTotalTimeoutMs - (Date.now() - started));
    timer = setTimer(
      () => fail('TIMEOUT', `Request ${String(init.id)} (${init.method}) timed out after ${timeoutMs} ms`),
      Math.max(0, left),
    );
  };
  const onAbort = (): void => fail('ABORTED', 'Request aborted', options.signal?.reason);

  if (options.signal?.aborted) queueMicrotask(onAbort);
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  arm();

  return {
    promise,
    resolve: (result) => finish() && settle.resolve(result),
    reject: (error) => finish() && settle.reject(error),
    // progress MUST increase (patterns/progress): anything else is dropped, so a flood of
    // repeated updates neither resets the timeout nor reaches the callback.
    progress: (update) => {
      if (finished || !(typeof update.progress === 'number' && update.progress > last)) return;
      last = update.progress;
      if (options.resetTimeoutOnProgress !== false) arm();
      if (!options.onprogress) return;
      if (pending === undefined && budget()) {
        pending = update;
        return deliver();
      }
      if (pending === undefined) afterMicrotasks(deliver);
      pending = update;
    },
  };
}
