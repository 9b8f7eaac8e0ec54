/**
 * Time bounds for hostile-peer tests where a blocked event loop counts as a failure.
 *
 * A test that freezes the event loop cannot time itself out (vitest's timers never fire),
 * so a worker thread keeps watch: the main thread beats a shared counter every 20 ms, and
 * when the beat stops for `killAfterMs` the worker kills the test process, which vitest
 * reports as a failed file. While the case runs, `monitorEventLoopDelay` records the
 * longest stall, and {@link bounded} fails the case when it or the elapsed time is over
 * its bound.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const WATCHER = `
const { workerData } = require('node:worker_threads');
const beat = new Int32Array(workerData.buffer);
let last = Atomics.load(beat, 0);
let since = Date.now();
setInterval(() => {
  const now = Atomics.load(beat, 0);
  if (now !== last) { last = now; since = Date.now(); return; }
  if (Date.now() - since > workerData.killAfterMs) {
    process.stderr.write('watchdog: the event loop was blocked for ' + (Date.now() - since) + ' ms; killing the test process\\n');
    process.kill(process.pid, 'SIGKILL');
  }
}, 100);
`;

/** Bounds of one hostile case. */
export interface Bounds {
  /** The whole case must finish within this many milliseconds. */
  withinMs: number;
  /** Longest event-loop stall tolerated, in milliseconds (default 1 000; busy CI machines). */
  maxStallMs?: number;
  /** The watchdog kills the process after a stall this long (default 20 000). */
  killAfterMs?: number;
}

/** What a bounded run measured. */
export interface Measured<T> {
  value: T;
  elapsedMs: number;
  /** The longest event-loop stall observed, in milliseconds. */
  maxStallMs: number;
}

/**
 * Runs `work` under the watchdog; rejects when it takes longer than `withinMs` or stalls
 * the event loop longer than `maxStallMs`, with the measured figures in the message.
 */
export async function bounded<T>(bounds: Bounds, work: () => Promise<T>): Promise<Measured<T>> {
  const buffer = new SharedArrayBuffer(4);
  const beat = new Int32Array(buffer);
  const worker = new Worker(WATCHER, {
    eval: true,
    workerData: { buffer, killAfterMs: bounds.killAfterMs ?? 20_000 },
  });
  worker.unref();
  const heart = setInterval(() => Atomics.add(beat, 0, 1), 20);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  try {
    const value = await deadline(work(), bounds.withinMs);
    const measured = { value, elapsedMs: performance.now() - started, maxStallMs: delay.max / 1e6 };
    const maxStall = bounds.maxStallMs ?? 1000;
    if (measured.maxStallMs > maxStall) {
      throw new Error(`event loop stalled ${measured.maxStallMs.toFixed(0)} ms (bound ${maxStall} ms)`);
    }
    return measured;
  } finally {
    delay.disable();
    clearInterval(heart);
    await worker.terminate();
  }
}

function deadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not finished within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
