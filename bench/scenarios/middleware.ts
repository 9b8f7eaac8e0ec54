/**
 * What the middleware seam costs: mcpkit's bench server three times over, with no
 * middleware, with one middleware that only calls `next`, and with `tracing()` from
 * `mcpkit/otel` installed while no OpenTelemetry SDK is registered. The three run side by
 * side and are measured in interleaved rounds (the order rotates each round), 16 calls in
 * flight. The robust figure is server CPU per call: the CPU time of each variant summed
 * over all rounds, divided by its calls, so the 10 ms tick of /proc does not dominate; the
 * per-round ratios give the spread.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Config } from '../harness/config.js';
import { runLoad } from '../harness/load.js';
import type { Results } from '../harness/results.js';
import { readyUrl, repoRoot, type ServerProcess } from '../harness/servers.js';
import { connect, modeName, stop, type Client, type Mode, type Running } from '../harness/targets.js';
import { MODES, echoOnce, rotate } from './throughput.js';

/** The server variants, as `MCPKIT_BENCH_MIDDLEWARE` names them (see bench/servers/mcpkit.ts). */
const VARIANTS = ['none', 'noop', 'tracing'] as const;
type Variant = (typeof VARIANTS)[number];

const IN_FLIGHT = 16;

/** Figure keys, recorded under impl `mcpkit`, one value per round. */
const middlewareKey = (mode: Mode, variant: Variant, what: 'cpu' | 'calls' | 'cps'): string =>
  `middleware/${modeName(mode)}/${variant}/${what}`;

async function startVariant(variant: Variant, wire: Mode['wire']): Promise<Running> {
  const entry = join(repoRoot(), 'dist', 'bench', 'servers', 'mcpkit.js');
  const child: ServerProcess = spawn(process.execPath, [entry, wire], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, MCPKIT_BENCH_MIDDLEWARE: variant },
  });
  if (child.pid === undefined) throw new Error(`could not start the ${variant} server`);
  const running: Running = { impl: 'mcpkit', wire, child, pid: child.pid };
  return wire === 'stdio' ? running : { ...running, url: await readyUrl(child) };
}

async function measureMode(mode: Mode, config: Config, results: Results): Promise<void> {
  const running: Running[] = [];
  try {
    for (const variant of VARIANTS) running.push(await startVariant(variant, mode.wire));
    const clients: Client[] = [];
    for (const r of running) clients.push(await connect(r, mode.era));
    const rounds = config.quick ? 4 : 6;
    const durationMs = config.quick ? 300 : 600;
    for (const [i, client] of clients.entries())
      await runLoad({
        call: echoOnce(client),
        inFlight: IN_FLIGHT,
        durationMs: config.warmupMs,
        pid: running[i]!.pid,
      });
    for (let round = 0; round < rounds; round++) {
      for (const i of rotate([0, 1, 2], round)) {
        const sample = await runLoad({
          call: echoOnce(clients[i]!),
          inFlight: IN_FLIGHT,
          durationMs,
          pid: running[i]!.pid,
        });
        const variant = VARIANTS[i]!;
        results.add(
          middlewareKey(mode, variant, 'cpu'),
          'mcpkit',
          round,
          (sample.cpuPerCall ?? NaN) * sample.calls,
        );
        results.add(middlewareKey(mode, variant, 'calls'), 'mcpkit', round, sample.calls);
        results.add(middlewareKey(mode, variant, 'cps'), 'mcpkit', round, sample.callsPerSec);
      }
    }
    for (const client of clients) await client.close();
  } finally {
    await Promise.all(running.map(stop));
  }
}

/** Measures every mode (stdio and HTTP, both eras). */
export async function middleware(config: Config, results: Results): Promise<void> {
  for (const mode of MODES) await measureMode(mode, config, results);
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/** µs of server CPU per call over all rounds, and calls/s by round. */
function figures(results: Results, mode: Mode, variant: Variant) {
  const cpu = results.runs(middlewareKey(mode, variant, 'cpu'), 'mcpkit');
  const calls = results.runs(middlewareKey(mode, variant, 'calls'), 'mcpkit');
  const cps = results.runs(middlewareKey(mode, variant, 'cps'), 'mcpkit');
  return { cpuPerCall: sum(cpu.values()) / sum(calls.values()), cpu, calls, cps };
}

/** Per-round ratios of `variant` to `none`, as median (min–max). */
function roundRatios(a: Map<number, number>, b: Map<number, number>): string {
  const ratios = [...a]
    .flatMap(([round, v]) => (b.get(round) ? [v / b.get(round)!] : []))
    .sort((x, y) => x - y);
  if (ratios.length === 0) return '–';
  const f = (x: number | undefined) => (x ?? NaN).toFixed(2);
  return `${f(ratios[ratios.length >> 1])} (${f(ratios[0])}–${f(ratios.at(-1))})`;
}

/** The report's table: CPU/call of each variant and its ratio to no middleware. */
export function middlewareTable(results: Results): string[] {
  const rows: string[] = [];
  for (const mode of MODES) {
    const none = figures(results, mode, 'none');
    if (!Number.isFinite(none.cpuPerCall)) continue;
    for (const variant of VARIANTS) {
      const v = figures(results, mode, variant);
      const perRound = (m: Map<number, number>, c: Map<number, number>) =>
        new Map([...m].map(([r, x]) => [r, x / (c.get(r) ?? NaN)]));
      const cpuRatio = v.cpuPerCall / none.cpuPerCall;
      rows.push(
        `| ${modeName(mode)} | ${variant} | ${v.cpuPerCall.toFixed(1)} | ${cpuRatio.toFixed(3)} | ${roundRatios(perRound(v.cpu, v.calls), perRound(none.cpu, none.calls))} | ${roundRatios(v.cps, none.cps)} |`,
      );
    }
  }
  if (rows.length === 0) return [];
  return [
    '| mode | middleware | server CPU µs/call (all rounds) | CPU ratio to none | CPU ratio by round | calls/s ratio by round |',
    '|---|---|---|---|---|---|',
    ...rows,
  ];
}
