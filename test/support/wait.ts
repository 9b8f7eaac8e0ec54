/**
 * Event waits for tests. The machines that run the suite are small and busy, so tests never
 * sleep for a fixed time: they wait for the condition they need, or let the event loop run
 * exactly one more turn when they assert that something did *not* happen.
 */

// Taken before any test fakes timers, so `until` keeps polling on the real clock under
// `vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })`.
const realSetTimeout = setTimeout;

/** Resolves after one full event-loop turn: queued I/O callbacks and microtasks have run. */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Resolves after `n` event-loop turns (stream pipelines settle within a few). */
export async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await turn();
}

/**
 * Waits until `condition()` (which may be async) is true, re-checking every millisecond or so
 * on the real clock (also while the test fakes `setTimeout`). Throws `Error('condition not met within <ms> ms')` after `timeoutMs` (default 5000).
 */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => realSetTimeout(resolve, 1));
  }
}

/** A promise with its resolve function, for handlers that must wait for the test. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
