/**
 * Large echoes over stdio (modern era): 100 KiB and 1 MiB of text each way, a few calls
 * in flight. Measures framing and JSON cost rather than dispatch.
 */
import type { Config } from '../harness/config.js';
import { runLoad } from '../harness/load.js';
import { echoCall, echoedText } from '../harness/protocol.js';
import type { Results } from '../harness/results.js';
import { implsFor, type Impl } from '../harness/servers.js';
import { connect, start, stop, type Client, type Running } from '../harness/targets.js';
import { rotate } from './throughput.js';

/** Payload sizes in bytes, with their labels. */
export const PAYLOADS = [
  { bytes: 100 * 1024, label: '100 KiB' },
  { bytes: 1024 * 1024, label: '1 MiB' },
] as const;

/** Calls in flight for payload runs. */
export const PAYLOAD_IN_FLIGHT = 4;

/** The figure key of a payload value. */
export function payloadKey(label: string, what: 'mibPerSec' | 'cpuPerCall' | 'p50'): string {
  return `payload/${label}/${what}`;
}

function bigEcho(client: Client, bytes: number): () => Promise<void> {
  const call = echoCall('x'.repeat(bytes));
  return async () => {
    if (echoedText(await client.call(call)).length !== bytes) throw new Error('payload echo mismatch');
  };
}

/** Measures every payload size against each modern stdio implementation. */
export async function payload(config: Config, results: Results): Promise<void> {
  const impls = implsFor('modern');
  const running: Running[] = [];
  try {
    const started = await Promise.allSettled(impls.map((impl) => start(impl, 'stdio', config)));
    for (const s of started) if (s.status === 'fulfilled') running.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    const clients = new Map<Impl, { client: Client; pid: number }>();
    for (const r of running) clients.set(r.impl, { client: await connect(r, 'modern'), pid: r.pid });
    const durationMs = config.durationMs * 1.5;
    for (const { bytes, label } of PAYLOADS) {
      for (const { client, pid } of clients.values())
        await runLoad({
          call: bigEcho(client, bytes),
          inFlight: PAYLOAD_IN_FLIGHT,
          durationMs: config.warmupMs,
          pid,
        });
      for (let run = 0; run < config.runs; run++) {
        for (const impl of rotate(impls, run)) {
          const { client, pid } = clients.get(impl)!;
          const s = await runLoad({
            call: bigEcho(client, bytes),
            inFlight: PAYLOAD_IN_FLIGHT,
            durationMs,
            pid,
          });
          results.add(payloadKey(label, 'mibPerSec'), impl, run, (s.callsPerSec * bytes) / 2 ** 20);
          results.add(payloadKey(label, 'cpuPerCall'), impl, run, s.cpuPerCall);
          results.add(payloadKey(label, 'p50'), impl, run, s.p50);
        }
      }
    }
  } finally {
    await Promise.all(running.map(stop));
  }
}
