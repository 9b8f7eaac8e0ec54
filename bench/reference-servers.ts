/**
 * `npm run bench:refservers`: mcpkit's filesystem and memory servers against the official npm
 * servers, over stdio, with the referee's method: every server started once (pinned to CPU 1
 * with taskset when there is one, the harness to CPU 0), then ROUNDS rounds in which each is
 * measured for DURATION seconds in turn (the order reversed every other round), 16 calls in
 * flight, closed loop. Figures: calls/s and the server's CPU µs per call (/proc/<pid>/stat),
 * the median over rounds. The official servers speak legacy only; mcpkit's are measured on
 * legacy (the same messages) and on modern. Environment: ROUNDS (default 5), DURATION
 * (seconds, default 10). Prints a markdown table on stdout, progress on stderr.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoad, type Sample } from './harness/load.js';
import { INITIALIZE, INITIALIZED, modern, type Call } from './harness/protocol.js';
import { repoRoot, stopServer, type ServerProcess } from './harness/servers.js';
import { StdioPeer } from './harness/stdio-peer.js';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const DURATION_MS = Number(process.env.DURATION ?? 10) * 1000;
const IN_FLIGHT = 16;

interface Contender {
  label: string;
  entry: string;
  era: 'legacy' | 'modern';
}

interface Scenario {
  name: string;
  args: string[];
  env: Record<string, string>;
  /** The corpus: the i-th call of a run. */
  call: (i: number) => Call;
  contenders: Contender[];
  /** A memory graph each server starts from (its own copy of it). */
  seed?: string;
}

/** `taskset -c CPU` when taskset exists and there are two CPUs or more. */
function pinned(cpu: number): string[] {
  if (cpus().length < 2) return [];
  try {
    execFileSync('taskset', ['-c', String(cpu), 'true'], { stdio: 'ignore' });
    return ['taskset', '-c', String(cpu)];
  } catch {
    return [];
  }
}

function tool(name: string, args: Record<string, unknown>): Call {
  return { method: 'tools/call', params: { name, arguments: args } };
}

function official(pkg: string): string {
  return join(repoRoot(), 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js');
}

function ours(name: string): string {
  return join(repoRoot(), 'dist', 'servers', name, 'main.js');
}

function contenders(pkg: string, name: string): Contender[] {
  return [
    { label: `official ${pkg}`, entry: official(pkg), era: 'legacy' },
    { label: `mcpkit ${name} (legacy)`, entry: ours(name), era: 'legacy' },
    { label: `mcpkit ${name} (modern)`, entry: ours(name), era: 'modern' },
  ];
}

/** A read-heavy filesystem corpus over 40 small files in 4 directories. */
function filesystemScenario(dir: string): Scenario {
  for (let d = 0; d < 4; d++) {
    mkdirSync(join(dir, `d${d}`), { recursive: true });
    for (let f = 0; f < 10; f++) writeFileSync(join(dir, `d${d}`, `f${f}.txt`), `line\n`.repeat(20 + f));
  }
  const file = (i: number) => join(dir, `d${i % 4}`, `f${i % 10}.txt`);
  const calls = [
    (i: number) => tool('read_text_file', { path: file(i) }),
    (i: number) => tool('read_text_file', { path: file(i), head: 5 }),
    (i: number) => tool('get_file_info', { path: file(i) }),
    (i: number) => tool('list_directory', { path: join(dir, `d${i % 4}`) }),
    (i: number) => tool('read_multiple_files', { paths: [file(i), file(i + 1)] }),
    (i: number) => tool('read_text_file', { path: file(i), tail: 3 }),
    () => tool('search_files', { path: dir, pattern: '**/f1.txt' }),
    () => tool('list_allowed_directories', {}),
  ];
  return {
    name: 'filesystem (read-heavy)',
    args: [dir],
    env: {},
    call: (i) => (calls[i % calls.length] as (i: number) => Call)(i),
    contenders: contenders('server-filesystem', 'filesystem'),
  };
}

/** A memory corpus: a 200-entity graph, 9 reads (search, open, read) to 1 write. */
function memoryScenario(dir: string): Scenario {
  const lines: string[] = [];
  for (let e = 0; e < 200; e++)
    lines.push(
      JSON.stringify({ type: 'entity', name: `e${e}`, entityType: `t${e % 7}`, observations: [`fact ${e}`] }),
    );
  for (let e = 0; e < 200; e++)
    lines.push(
      JSON.stringify({ type: 'relation', from: `e${e}`, to: `e${(e + 1) % 200}`, relationType: 'next' }),
    );
  const seed = lines.join('\n');
  return {
    name: 'memory (9 reads : 1 write)',
    args: [],
    env: { MEMORY_FILE_PATH: join(dir, 'graph.jsonl') },
    call: (i) => {
      if (i % 10 === 9)
        return tool('add_observations', {
          observations: [{ entityName: `e${i % 200}`, contents: [`seen ${i}`] }],
        });
      if (i % 3 === 0) return tool('search_nodes', { query: `fact ${i % 200}` });
      if (i % 3 === 1) return tool('open_nodes', { names: [`e${i % 200}`, `e${(i + 7) % 200}`] });
      return tool('read_graph', {});
    },
    contenders: contenders('server-memory', 'memory'),
    seed,
  };
}

interface Running {
  contender: Contender;
  child: ServerProcess;
  peer: StdioPeer;
  counter: number;
}

async function start(scenario: Scenario, contender: Contender): Promise<Running> {
  const [command, ...prefix] = [...pinned(1), process.execPath];
  const child = spawn(command as string, [...prefix, contender.entry, ...scenario.args], {
    env: { ...process.env, ...scenario.env },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const peer = new StdioPeer(child);
  if (contender.era === 'legacy') {
    await peer.request(INITIALIZE);
    peer.send(INITIALIZED);
  }
  return { contender, child, peer, counter: 0 };
}

/** One measured run against a running server. @throws on an error answer. */
function measure(running: Running, scenario: Scenario, durationMs: number): Promise<Sample> {
  return runLoad({
    inFlight: IN_FLIGHT,
    durationMs,
    pid: running.child.pid as number,
    call: async () => {
      const call = scenario.call(running.counter++);
      const reply = await running.peer.request(running.contender.era === 'modern' ? modern(call) : call);
      const result = reply.result as { isError?: boolean; content?: { text?: string }[] } | undefined;
      if (reply.error || result?.isError)
        throw new Error(`${running.contender.label}: ${JSON.stringify(reply.error ?? result?.content)}`);
    },
  });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

async function runScenario(scenario: Scenario): Promise<string[]> {
  const rows: string[] = [];
  const servers: Running[] = [];
  for (const contender of scenario.contenders) {
    if (scenario.seed !== undefined) {
      // Each server gets its own copy of the seed graph.
      const file = `${scenario.env.MEMORY_FILE_PATH}.${servers.length}`;
      writeFileSync(file, scenario.seed);
      servers.push(await start({ ...scenario, env: { MEMORY_FILE_PATH: file } }, contender));
    } else servers.push(await start(scenario, contender));
  }
  const samples = new Map<Running, Sample[]>(servers.map((s) => [s, []]));
  for (const s of servers) await measure(s, scenario, Math.min(1000, DURATION_MS)); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const s of order) {
      process.stderr.write(`${scenario.name}: round ${round + 1}/${ROUNDS}, ${s.contender.label}\n`);
      samples.get(s)?.push(await measure(s, scenario, DURATION_MS));
    }
  }
  for (const s of servers) {
    const runs = samples.get(s) ?? [];
    const rate = median(runs.map((r) => r.callsPerSec));
    const cpu = runs.every((r) => r.cpuPerCall !== undefined)
      ? median(runs.map((r) => r.cpuPerCall as number))
      : NaN;
    rows.push(
      `| ${scenario.name} | ${s.contender.label} | ${rate.toFixed(0)} | ${Number.isNaN(cpu) ? 'n/a' : cpu.toFixed(0)} |`,
    );
    await stopServer(s.child);
  }
  return rows;
}

async function main(): Promise<void> {
  const harnessPin = pinned(0);
  if (harnessPin.length > 0) execFileSync('taskset', ['-cp', '0', String(process.pid)], { stdio: 'ignore' });
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-bench-refservers-'));
  try {
    const rows = [
      ...(await runScenario(filesystemScenario(join(dir, 'fs')))),
      ...(await runScenario(memoryScenario(dir))),
    ];
    const pinning = harnessPin.length > 0 ? 'harness on CPU 0, servers on CPU 1' : 'not pinned (no taskset)';
    process.stdout.write(
      [
        `Reference servers over stdio: ${ROUNDS} rounds of ${DURATION_MS / 1000} s, ${IN_FLIGHT} in flight, ${pinning}; medians.`,
        '',
        '| corpus | server | calls/s | server CPU µs/call |',
        '| --- | --- | ---: | ---: |',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
