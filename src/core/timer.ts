/**
 * Timers that behave for any duration. `setTimeout`/`setInterval` cannot wait longer than
 * 2^31 − 1 ms (about 24.8 days): Node fires a longer delay after 1 ms (with a
 * TimeoutOverflowWarning). Every duration mcpkit schedules, whether an option or a peer's
 * `Retry-After`, goes through here. No I/O.
 */
import { LocalError } from './errors.js';

/** `setTimeout`'s largest delay in milliseconds (2^31 − 1, about 24.8 days). */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * A timeout that may mean "no limit": runs `fn` once after `ms` milliseconds, or never when
 * `ms` is longer than a timer can wait (above {@link MAX_TIMER_MS}, `Infinity` included);
 * then it returns `undefined` (safe to pass to `clearTimeout`). Negative delays run at once.
 */
export function setTimer(fn: () => void, ms: number): ReturnType<typeof setTimeout> | undefined {
  if (ms > MAX_TIMER_MS) return undefined;
  return setTimeout(fn, Math.max(0, ms));
}

/**
 * A wait or interval that must end: `ms` clamped to 0 … {@link MAX_TIMER_MS} milliseconds
 * (`NaN` becomes 0), so a huge value waits the longest a timer can instead of 1 ms.
 */
export function timerDelay(ms: number): number {
  return ms > MAX_TIMER_MS ? MAX_TIMER_MS : ms > 0 ? ms : 0;
}

/**
 * Waits `ms` milliseconds (clamped by {@link timerDelay}), or less when `signal` aborts:
 * then it rejects with a LocalError `ABORTED` whose cause is the signal's reason, at once
 * if the signal is already aborted. The abort listener is removed either way, so a
 * long-lived signal that outlives many waits collects none.
 * @throws LocalError `ABORTED` when `signal` aborts before the wait ends.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted(signal));
    const timer = setTimeout(done, timerDelay(ms));
    function done(): void {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      reject(aborted(signal!));
    }
    signal?.addEventListener('abort', abort);
  });
}

function aborted(signal: AbortSignal): LocalError {
  return new LocalError('ABORTED', 'The wait was aborted', { cause: signal.reason });
}
