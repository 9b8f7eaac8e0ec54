/**
 * Time to the first result: what a user waits for when a host spawns a stdio server. Each
 * server is spawned (pinned to CPU 1 with taskset when there is one), sent its opening
 * messages in one write, and timed until the `tools/call` result arrives: legacy writes
 * `initialize` + `notifications/initialized` + `tools/call`, modern one `tools/call` with
 * the 2026-07-28 `_meta`. The child's CPU time is read from /proc as the result arrives
 * (all threads, nanoseconds from `schedstat`), its idle RSS one settle later. Servers and
 * eras alternate round by round; ratios are taken within a round.
 *
 * The servers are the referee's (../shared/referee: baseline/stdio-echo.mjs,
 * mcpkit/stdio-json.mjs, mcpkit/stdio.mjs) when it is there, else the repository's copies
 * (bench/servers/bare.ts, first-result.ts); the "bare echo + zod" is the bare echo run
 * after `import('zod')`, the issue's yardstick for a zod server.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../harness/config.js';
import { cpuMicros, rssBytes } from '../harness/proc.js';
import { INITIALIZE, INITIALIZED, echoCall, echoedText, modern, type Era } from '../harness/protocol.js';
import type { Results } from '../harness/results.js';
import { repoRoot, stopServer, type ServerProcess } from '../harness/servers.js';
import { StdioPeer } from '../harness/stdio-peer.js';
import { num } from '../report.js';
import { rotate } from './throughput.js';

const CONTENDERS = ['bare', 'bare-zod', 'json', 'zod'] as const;
type Contender = (typeof CONTENDERS)[number];
const LABEL: Record<Contender, string> = {
  bare: 'bare echo',
  'bare-zod': 'bare echo + `import zod`',
  json: 'mcpkit, JSON Schema tool',
  zod: 'mcpkit, zod tool',
};
const ERAS: readonly Era[] = ['legacy', 'modern'];
type Figure = 'ms' | 'cpu' | 'rss';
/** How long after the result idle RSS is read (the referee's `--settle`). */
const SETTLE_MS = 1000;
const TEXT = 'first result';
/** A server that has not answered by then is reported, not waited for. */
const TIMEOUT_MS = 30_000;

/** `promise`, or a rejection after `ms`. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`first-result: no tools/call result within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const key = (era: Era, who: Contender, what: Figure): string => `first-result/${era}/${who}/${what}`;

/** The referee's folder (REFEREE, or next to the checkout as scripts/bench-referee.mjs looks). */
function refereeDir(root: string): string | undefined {
  const candidates = [
    process.env.REFEREE,
    join(root, '..', 'shared', 'referee'),
    join(root, '..', '..', 'shared', 'referee'),
    '/work/shared/referee',
  ];
  return candidates.find((dir) => dir && existsSync(join(dir, 'mcpkit', 'stdio-json.mjs')));
}

/** Each contender's node argv; `source` says whose servers they are. */
function commands(root: string, useReferee: boolean): { source: string; argv: Record<Contender, string[]> } {
  const own = join(root, 'dist', 'bench', 'servers');
  const referee = useReferee ? refereeDir(root) : undefined;
  if (!referee) {
    const first = join(own, 'first-result.js');
    return {
      source: 'the repository’s bench/servers (no referee found)',
      argv: {
        bare: [join(own, 'bare.js'), 'stdio'],
        'bare-zod': [first, 'bare-zod'],
        json: [first, 'json'],
        zod: [first, 'zod'],
      },
    };
  }
  const echo = join(referee, 'baseline', 'stdio-echo.mjs');
  return {
    source: `the referee’s servers in ${referee}`,
    argv: {
      bare: [echo],
      'bare-zod': [join(own, 'first-result.js'), 'bare-zod', echo],
      json: [join(referee, 'mcpkit', 'stdio-json.mjs')],
      zod: [join(referee, 'mcpkit', 'stdio.mjs')],
    },
  };
}

/** `taskset -c 1` when taskset exists and there are two CPUs or more. */
function pinning(): string[] {
  if (cpus().length < 2) return [];
  try {
    execFileSync('taskset', ['-c', '1', 'true'], { stdio: 'ignore' });
    return ['taskset', '-c', '1'];
  } catch {
    return [];
  }
}

/** CPU time of every thread of `pid` so far, in µs (schedstat, else /proc/<pid>/stat ticks). */
function cpuTime(pid: number): number | undefined {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1000;
  } catch {
    return cpuMicros(pid);
  }
}

interface Spawn {
  argv: string[];
  pin: string[];
  root: string;
  settleMs: number;
}

/** One spawn: ms to the `tools/call` result, CPU µs by then, RSS after the settle. */
async function once(how: Spawn, era: Era): Promise<Record<Figure, number | undefined>> {
  const [command, ...args] = [...how.pin, process.execPath, ...how.argv] as [string, ...string[]];
  const t0 = performance.now();
  const child: ServerProcess = spawn(command, args, {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, MCPKIT: how.root },
  });
  const peer = new StdioPeer(child);
  try {
    const call = echoCall(TEXT);
    if (era === 'legacy') {
      peer.send({ jsonrpc: '2.0', id: 'init', ...INITIALIZE });
      peer.send(INITIALIZED);
    }
    const reply = await within(TIMEOUT_MS, peer.request(era === 'modern' ? modern(call) : call));
    const ms = performance.now() - t0;
    if (echoedText(reply) !== TEXT) throw new Error('first-result: the echo came back changed');
    const pid = child.pid as number;
    const cpu = cpuTime(pid);
    await new Promise((resolve) => setTimeout(resolve, how.settleMs));
    return { ms, cpu, rss: rssBytes(pid) };
  } finally {
    await stopServer(child);
  }
}

/** Overrides for tests: rounds, settle before idle RSS, and whether the referee's servers are used. */
export interface FirstResultOptions {
  rounds?: number;
  settleMs?: number;
  useReferee?: boolean;
}

/** Spawns every contender in both eras, alternating (3 rounds with `--quick`, else 7). */
export async function firstResult(
  config: Config,
  results: Results,
  options: FirstResultOptions = {},
): Promise<void> {
  const root = repoRoot();
  const { source, argv } = commands(root, options.useReferee ?? true);
  const pin = pinning();
  const rounds = options.rounds ?? (config.quick ? 3 : 7);
  const settleMs = options.settleMs ?? SETTLE_MS;
  const pairs = ERAS.flatMap((era) => CONTENDERS.map((who) => ({ era, who })));
  for (let round = 0; round < rounds; round++) {
    for (const { era, who } of rotate(pairs, round * 3)) {
      const figures = await once({ argv: argv[who], pin, root, settleMs }, era);
      for (const what of ['ms', 'cpu', 'rss'] as const)
        results.add(key(era, who, what), 'mcpkit', round, figures[what]);
    }
  }
  results.notes.push(
    `first result: ${rounds} spawns of each server per era, ${pin.length ? 'pinned to CPU 1' : 'not pinned (no taskset or one CPU)'}; ${source}.`,
  );
}

function median(values: number[]): { median: number; min: number; max: number } | undefined {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return undefined;
  const mid = v.length >> 1;
  return { median: v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2, min: v[0]!, max: v.at(-1)! };
}

function cell(values: number[], scale = 1): string {
  const s = median(values);
  return s ? `${num(s.median / scale)} (${num(s.min / scale)}–${num(s.max / scale)})` : '–';
}

const values = (results: Results, era: Era, who: Contender, what: Figure): Map<number, number> =>
  results.runs(key(era, who, what), 'mcpkit');

/** Per-round ratios of `a` to `b`. */
function ratios(a: Map<number, number>, b: Map<number, number>): number[] {
  return [...a].flatMap(([round, v]) => (b.get(round) ? [v / b.get(round)!] : []));
}

const TARGETS: { what: Figure; a: Contender; b: Contender; target: number; name: string }[] = [
  { what: 'ms', a: 'json', b: 'bare', target: 1.3, name: 'ms to result, JSON Schema tool ÷ bare echo' },
  { what: 'ms', a: 'zod', b: 'bare-zod', target: 1.15, name: 'ms to result, zod tool ÷ bare echo + zod' },
  { what: 'rss', a: 'json', b: 'bare', target: 1.15, name: 'idle RSS, JSON Schema server ÷ bare echo' },
  { what: 'cpu', a: 'json', b: 'bare', target: NaN, name: 'CPU to result, JSON Schema tool ÷ bare echo' },
  { what: 'cpu', a: 'zod', b: 'bare-zod', target: NaN, name: 'CPU to result, zod tool ÷ bare echo + zod' },
];

/** The report's tables: figures per server and era, then the ratios against the issue's targets. */
export function firstResultTable(results: Results): string[] {
  const rows = ERAS.flatMap((era) =>
    CONTENDERS.filter((who) => values(results, era, who, 'ms').size > 0).map((who) => {
      const v = (what: Figure) => [...values(results, era, who, what).values()];
      return `| ${era} | ${LABEL[who]} | ${cell(v('ms'))} | ${cell(v('cpu'), 1000)} | ${cell(v('rss'), 2 ** 20)} |`;
    }),
  );
  if (rows.length === 0) return [];
  const targetRows = ERAS.flatMap((era) =>
    TARGETS.map(({ what, a, b, target, name }) => {
      const r = median(ratios(values(results, era, a, what), values(results, era, b, what)));
      const mark = !r || Number.isNaN(target) ? '' : r.median <= target ? ' ✓' : ' ✗';
      const spread = r ? `${r.median.toFixed(2)} (${r.min.toFixed(2)}–${r.max.toFixed(2)})` : '–';
      return `| ${era} | ${name} | ${spread} | ${Number.isNaN(target) ? '–' : `≤ ${target}`}${mark} |`;
    }),
  );
  return [
    '| era | server | ms to `tools/call` result | CPU ms by then | idle RSS MiB |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    '| era | ratio (per round) | median (min–max) | target |',
    '|---|---|---|---|',
    ...targetRows,
  ];
}
