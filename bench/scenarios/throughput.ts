/**
 * Calls per second, latency and server CPU per call of a small `echo`, for each mode and
 * number of calls in flight. Every implementation of the mode runs at once (idle while
 * another is measured) and runs alternate, so drift on a noisy machine hits all alike.
 */
import type { Config } from '../harness/config.js';
import { runLoad, type Sample } from '../harness/load.js';
import { echoCall, echoedText } from '../harness/protocol.js';
import type { Results } from '../harness/results.js';
import { implsFor, type Impl } from '../harness/servers.js';
import { connect, modeName, start, stop, type Client, type Mode, type Running } from '../harness/targets.js';

/** The four modes measured, in table order. */
export const MODES: readonly Mode[] = [
  { wire: 'stdio', era: 'modern' },
  { wire: 'stdio', era: 'legacy' },
  { wire: 'http', era: 'modern' },
  { wire: 'http', era: 'legacy' },
];

/** The figure key of a throughput value. */
export function throughputKey(mode: Mode, inFlight: number, what: keyof Sample): string {
  return `${modeName(mode)}/${inFlight}/${what}`;
}

/** `items` rotated left by `by`: the order implementations are measured in, per run. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  const k = by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

const HELLO = echoCall('hello, world');

/** One echo call that checks its answer. */
export function echoOnce(client: Client): () => Promise<void> {
  return async () => {
    if (echoedText(await client.call(HELLO)) !== 'hello, world') throw new Error('echo mismatch');
  };
}

/** Measures `mode` for every implementation that serves it; records into `results`. */
export async function throughput(mode: Mode, config: Config, results: Results): Promise<void> {
  const impls = implsFor(mode.era);
  const running: Running[] = [];
  try {
    const started = await Promise.allSettled(impls.map((impl) => start(impl, mode.wire, config)));
    for (const s of started) if (s.status === 'fulfilled') running.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    const clients = new Map<Impl, { client: Client; pid: number }>();
    for (const r of running) clients.set(r.impl, { client: await connect(r, mode.era), pid: r.pid });
    for (const { client, pid } of clients.values())
      await runLoad({ call: echoOnce(client), inFlight: 16, durationMs: config.warmupMs, pid });
    for (let run = 0; run < config.runs; run++) {
      for (const [i, inFlight] of config.inFlight.entries()) {
        for (const impl of rotate(impls, run + i)) {
          const { client, pid } = clients.get(impl)!;
          const sample = await runLoad({
            call: echoOnce(client),
            inFlight,
            durationMs: config.durationMs,
            pid,
          });
          for (const what of ['callsPerSec', 'p50', 'p99', 'cpuPerCall'] as const)
            results.add(throughputKey(mode, inFlight, what), impl, run, sample[what]);
        }
      }
    }
    for (const { client } of clients.values()) await client.close();
  } finally {
    await Promise.all(running.map(stop));
  }
}
