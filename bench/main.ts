/**
 * `npm run bench`: measures mcpkit against the official SDKs and a bare hand-written
 * echo in one invocation and prints a markdown report on stdout (progress on stderr).
 * Flags: `--quick` (about a minute), `--cpu-prof` (profile mcpkit's servers into
 * bench/profiles and summarise), `--only <tags>` (comma-separated: stdio, http, modern,
 * legacy, throughput, payload, startup, first-result, memory, sessions, listen). See bench/README.md.
 */
import { readdirSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs, wanted, type Config } from './harness/config.js';
import { Results } from './harness/results.js';
import { profileDir, repoRoot } from './harness/servers.js';
import { modeName } from './harness/targets.js';
import { summarize } from './profile-summary.js';
import { ratioTable } from './ratios.js';
import { footprintTable, listenTable, payloadTable, throughputTable } from './report.js';
import { firstResult, firstResultTable } from './scenarios/first-result.js';
import { gateway, gatewayTable } from './scenarios/gateway.js';
import { listen } from './scenarios/listen.js';
import { middleware, middlewareTable } from './scenarios/middleware.js';
import { PAYLOAD_IN_FLIGHT, payload } from './scenarios/payload.js';
import { sessions } from './scenarios/sessions.js';
import { startup } from './scenarios/startup.js';
import { MODES, throughput } from './scenarios/throughput.js';
import { toolSearchBench, toolSearchTable } from './scenarios/tool-search.js';

interface Section {
  name: string;
  tags: string[];
  run: (config: Config, results: Results) => Promise<void>;
}

const SECTIONS: Section[] = [
  ...MODES.map((mode) => ({
    name: `throughput, ${modeName(mode)}`,
    tags: ['throughput', mode.wire, mode.era, `${mode.wire}-${mode.era}`],
    run: (config: Config, results: Results) => throughput(mode, config, results),
  })),
  { name: 'payload', tags: ['payload', 'stdio'], run: payload },
  { name: 'startup and idle RSS', tags: ['startup', 'memory', 'stdio'], run: startup },
  { name: 'first result', tags: ['first-result', 'stdio'], run: firstResult },
  { name: 'legacy sessions RSS', tags: ['sessions', 'memory', 'http', 'legacy'], run: sessions },
  { name: 'listen fan-out', tags: ['listen', 'http', 'modern'], run: listen },
  { name: 'gateway overhead', tags: ['gateway', 'stdio'], run: gateway },
  { name: 'middleware overhead', tags: ['middleware'], run: middleware },
  { name: 'tool search', tags: ['tool-search'], run: toolSearchBench },
];

function header(config: Config): string[] {
  const cpu = cpus();
  return [
    `# mcpkit bench (${config.quick ? 'quick' : 'default'} run${config.cpuProf ? ', mcpkit under --cpu-prof' : ''})`,
    '',
    `Node ${process.version}, ${cpu.length} CPU(s) (${cpu[0]?.model.trim() ?? 'unknown'}), ${new Date().toISOString()}.`,
    `Each cell: median (min–max) over ${config.runs} alternating runs of ${config.durationMs} ms; ratios are taken run by run.`,
    'Client and servers share the machine: calls/s and latency are noisy; server CPU µs per call is the robust figure.',
    ...(config.cpuProf
      ? ['**mcpkit ran under the profiler: its figures and ratios are pessimistic in this run.**']
      : []),
  ];
}

/** A titled part of the report; left out when its table is empty. */
function section(title: string, intro: string[], lines: string[]): string[] {
  return lines.length === 0 ? [] : ['', `## ${title}`, '', ...intro, ...lines];
}

function report(config: Config, results: Results, seconds: number): string {
  return [
    ...header(config),
    ...section('Ratios and targets', [], ratioTable(config, results)),
    ...section('Throughput: `echo` of a short text, closed loop', [], throughputTable(config, results)),
    ...section(`Large payloads: stdio modern, ${PAYLOAD_IN_FLIGHT} in flight`, [], payloadTable(results)),
    ...section(
      'Startup (spawn → first `tools/list` reply over stdio) and memory',
      [],
      footprintTable(config, results),
    ),
    ...section(
      'Time to the first result: spawn → first `tools/call` result over stdio',
      [
        'Each server spawned alone (pinned to CPU 1 when taskset is there) and sent its opening messages at once;',
        'CPU is the child’s (all threads) when the result arrived; idle RSS 1 s later. Servers alternate round by round.',
        '',
      ],
      firstResultTable(results),
    ),
    ...section(
      `subscriptions/listen fan-out: HTTP modern, ${config.listeners} listeners, ${config.triggers} list changes`,
      [
        'mcpkit, and the official v2 through its `createMcpHandler` listen router (the trigger calls',
        '`notify.toolsChanged()`); v1 and the bare echo have no listen, so no ratio is given.',
        '',
      ],
      listenTable(results),
    ),
    ...section(
      'Gateway overhead: `echo` over stdio, direct vs through `mcpkit proxy`, one call in flight',
      ['The gateway adds one process hop; the overhead is the difference per run (median, min–max).', ''],
      gatewayTable(results),
    ),
    ...section(
      'Middleware seam overhead: mcpkit with none, one no-op middleware, `tracing()` without an SDK',
      [
        '16 in flight, interleaved rounds. CPU per call is summed over all rounds (the robust figure); ratios by round show the spread.',
        '',
      ],
      middlewareTable(results),
    ),
    ...section(
      'Tool search: a 5 000-tool catalogue, half of it hidden from the caller',
      [
        'In process (`ToolSearch.search`) and as a `search_tools` call over the in-memory pair (modern); heap after GC.',
        '',
      ],
      toolSearchTable(results),
    ),
    '',
    ...(results.notes.length ? ['Notes:', '', ...results.notes.map((n) => `- ${n}`), ''] : []),
    `Total bench time: ${seconds.toFixed(0)} s.`,
  ].join('\n');
}

function newProfiles(since: number): string[] {
  try {
    return readdirSync(profileDir())
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(profileDir(), f))
      .filter((f) => statSync(f).mtimeMs >= since);
  } catch {
    return [];
  }
}

async function main(): Promise<void> {
  const config = parseArgs(process.argv.slice(2));
  const results = new Results();
  const t0 = Date.now();
  let failed = false;
  for (const section of SECTIONS.filter((s) => wanted(config, s.tags))) {
    console.error(`bench: ${section.name}…`);
    try {
      await section.run(config, results);
    } catch (error) {
      failed = true;
      results.notes.push(`${section.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  console.log(report(config, results, (Date.now() - t0) / 1000));
  if (config.cpuProf) {
    console.log(`\n## Where mcpkit's servers spent CPU (self time, --cpu-prof)\n`);
    console.log(summarize(newProfiles(t0), repoRoot()));
  }
  if (failed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
