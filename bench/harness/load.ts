/**
 * The closed-loop load runner: keeps `inFlight` calls outstanding for a fixed time and
 * measures the server process's CPU over the same window.
 */
import { cpuMicros } from './proc.js';

/** The figures of one measured run. */
export interface Sample {
  calls: number;
  callsPerSec: number;
  /** Median and 99th-percentile latency, in milliseconds. */
  p50: number;
  p99: number;
  /** Server CPU (user + system) per call, in microseconds; undefined without /proc. */
  cpuPerCall: number | undefined;
}

/** What to run: one call, how many at once, for how long, against which process. */
export interface LoadOptions {
  call: () => Promise<void>;
  inFlight: number;
  durationMs: number;
  pid: number;
}

/** The `q` quantile (0..1) of sorted values. */
function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/**
 * Runs `call` with `inFlight` outstanding until `durationMs` has passed, then waits for
 * the stragglers. @throws the first call failure.
 */
export async function runLoad(options: LoadOptions): Promise<Sample> {
  const latencies: number[] = [];
  const cpu0 = cpuMicros(options.pid);
  const t0 = performance.now();
  const deadline = t0 + options.durationMs;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const start = performance.now();
      await options.call();
      latencies.push(performance.now() - start);
    }
  };
  await Promise.all(Array.from({ length: options.inFlight }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = cpuMicros(options.pid);
  const sorted = Float64Array.from(latencies).sort();
  const calls = latencies.length;
  return {
    calls,
    callsPerSec: calls / seconds,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    cpuPerCall: cpu0 === undefined || cpu1 === undefined ? undefined : (cpu1 - cpu0) / calls,
  };
}
