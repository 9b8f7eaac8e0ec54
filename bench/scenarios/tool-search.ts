/**
 * Tool search over a 5 000-tool catalogue: how long the index takes to build, how
 * much heap it holds, and search latency — in process (`ToolSearch.search`) and as a
 * `search_tools` call from an mcpkit client over the in-memory pair (modern), with half the
 * tools hidden from the caller by a per-caller rule. Tools and queries come from a seeded
 * generator, so every run searches the same catalogue.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { performance } from 'node:perf_hooks';
import { createClient } from '../../src/client/index.js';
import { connect, createServer, type RequestContext } from '../../src/server/index.js';
import { createLinkedPair } from '../../src/testing/index.js';
import { createToolSearch, installToolSearch, type SearchableTool } from '../../src/tool-search/index.js';
import type { Config } from '../harness/config.js';
import type { Results } from '../harness/results.js';

const TOOLS = 5000;
const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'export', 'import', 'sync', 'archive'];
const NOUNS = [
  'invoice',
  'customer',
  'order',
  'ticket',
  'pet',
  'file',
  'user',
  'report',
  'calendar_event',
  'payment',
  'shipment',
  'repository',
  'issue',
  'comment',
  'message',
  'channel',
  'document',
  'image',
  'contact',
  'task',
];
const PLACES = [
  'crm',
  'billing',
  'github',
  'slack',
  'drive',
  'jira',
  'stripe',
  'calendar',
  'mail',
  'erp',
  'shop',
  'wiki',
  'hr',
  'ads',
  'cms',
  'cdn',
  'dns',
  'vault',
  'ci',
  'logs',
  'metrics',
  'search',
  'maps',
  'crm2',
  'notes',
];

/** A seeded PRNG (mulberry32): the same catalogue and queries every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function catalogue(): SearchableTool[] {
  const pick = random(23);
  const any = <T>(list: readonly T[]): T => list[Math.floor(pick() * list.length)]!;
  const tools: SearchableTool[] = [];
  for (let i = 0; tools.length < TOOLS; i++) {
    const [verb, noun, place] = [
      VERBS[i % VERBS.length]!,
      NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]!,
      PLACES[Math.floor(i / 200) % PLACES.length]!,
    ];
    const name = `${place}__${verb}_${noun}`; // 10 × 20 × 25 = 5 000 distinct names
    const description = `${verb[0]!.toUpperCase()}${verb.slice(1)} a ${noun.replace('_', ' ')} in ${place}, by ${any(['id', 'name', 'date', 'owner'])}; ${any(['fast', 'paged', 'cached', 'audited'])}.`;
    const inputSchema = {
      type: 'object' as const,
      properties: {
        id: { type: 'string', description: `The ${noun} id` },
        [any(['limit', 'cursor', 'owner', 'since'])]: { type: 'string' },
      },
    };
    tools.push({
      tool: { name, description, inputSchema },
      visible: (ctx) => i % 2 === 0 || ctx.auth?.subject === 'admin',
      call: async () => ({ content: [] }),
    });
  }
  return tools;
}

function queries(count: number): string[] {
  const pick = random(7);
  const any = <T>(list: readonly T[]): T => list[Math.floor(pick() * list.length)]!;
  return Array.from({ length: count }, () =>
    `${any(VERBS)} ${any(NOUNS).replace('_', ' ')} ${pick() < 0.5 ? `in ${any(PLACES)}` : ''}`.trim(),
  );
}

/** `gc()` without the command-line flag (the bench runs as a plain `node dist/bench/main.js`). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const key = (what: string): string => `tool-search/${what}`;

/** One round: build, heap, in-process latency, `search_tools` latency through a server. */
async function round(config: Config, results: Results, run: number): Promise<void> {
  const gc = collector();
  const tools = catalogue();
  const caller = { auth: { subject: 'guest' } } as RequestContext;
  gc();
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const search = createToolSearch({ tools: () => tools });
  await search.search('warm up the index', caller);
  results.add(key('build-ms'), 'mcpkit', run, performance.now() - started);
  gc();
  results.add(key('heap-mib'), 'mcpkit', run, (process.memoryUsage().heapUsed - before) / 2 ** 20);
  const times: number[] = [];
  for (const query of queries(config.quick ? 500 : 2000)) {
    const t0 = performance.now();
    await search.search(query, caller);
    times.push((performance.now() - t0) * 1000);
  }
  times.sort((a, b) => a - b);
  results.add(key('p50-us'), 'mcpkit', run, percentile(times, 50));
  results.add(key('p99-us'), 'mcpkit', run, percentile(times, 99));
  const wire = await overTheWire(search, config.quick ? 200 : 500);
  results.add(key('call-p50-us'), 'mcpkit', run, percentile(wire, 50));
  results.add(key('call-p99-us'), 'mcpkit', run, percentile(wire, 99));
}

async function overTheWire(search: ReturnType<typeof createToolSearch>, count: number): Promise<number[]> {
  const server = createServer({ name: 'search-bench', version: '1' });
  installToolSearch(server, search);
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const client = createClient({ name: 'bench', version: '1', era: 'modern' });
  await client.connect(a);
  const times: number[] = [];
  for (const query of queries(count)) {
    const t0 = performance.now();
    await client.callTool('search_tools', { query });
    times.push((performance.now() - t0) * 1000);
  }
  await client.close();
  return times.sort((x, y) => x - y);
}

/** Runs `config.runs` rounds. */
export async function toolSearchBench(config: Config, results: Results): Promise<void> {
  for (let run = 0; run < config.runs; run++) await round(config, results, run);
}

/** The report's table: median (min–max) over the rounds. */
export function toolSearchTable(results: Results): string[] {
  const cell = (what: string, digits: number) => {
    const s = results.spread(key(what), 'mcpkit');
    return s ? `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})` : '–';
  };
  if (!results.spread(key('p50-us'), 'mcpkit')) return [];
  return [
    '| tools | index build ms | index heap MiB | search p50 µs | search p99 µs | `search_tools` call p50 µs | call p99 µs |',
    '|---|---|---|---|---|---|---|',
    `| ${TOOLS} | ${cell('build-ms', 0)} | ${cell('heap-mib', 1)} | ${cell('p50-us', 0)} | ${cell('p99-us', 0)} | ${cell('call-p50-us', 0)} | ${cell('call-p99-us', 0)} |`,
  ];
}
