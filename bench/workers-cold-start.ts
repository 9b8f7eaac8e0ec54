/**
 * `npm run bench:workers`: cold start on Cloudflare's runtime (issue 21). Three Workers with
 * one `echo` tool — mcpkit's (`createWorker`), the official SDK v2's (`createMcpHandler`,
 * its documented fetch-runtime recipe) and a bare JSON-RPC echo as the yardstick — are each
 * bundled by `wrangler deploy --dry-run` (the bundle a deploy would upload: raw and gzip
 * bytes), then started again and again in a fresh `workerd` process: the figure is the wall
 * time from spawn to the first modern `tools/call` result over HTTP, so it includes
 * workerd's own start (the bare Worker shows how much) and the isolate's module evaluation.
 * Runs alternate between the Workers so machine drift hits all alike.
 * Flags: --runs N (default 9).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { freePort } from './harness/redis.js';
import { echoCall, echoedText, modern, modernHeaders, type Reply } from './harness/protocol.js';

const ROOT = resolve(import.meta.dirname, '../..');
const WORKERS = ['bare', 'mcpkit', 'official'] as const;
type Worker = (typeof WORKERS)[number];
const COMPATIBILITY_DATE = '2026-11-01';

/** One Worker's bundle: the module file and its sizes. */
interface Bundle {
  worker: Worker;
  file: string;
  bytes: number;
  gzipBytes: number;
}

const { runtimes } = (await import(join(ROOT, 'scripts/runtimes.mjs'))) as {
  runtimes(): { wrangler: string[] };
};

/** The workerd binary wrangler runs (shipped by the `workerd` package it depends on). */
function workerdBinary(wranglerJs: string): string {
  const modules = resolve(dirname(wranglerJs), '../..');
  return join(modules, 'workerd/bin/workerd');
}

/** Bundles `worker` as a deploy would; @throws Error with wrangler's output when it fails. */
function bundle(worker: Worker, work: string): Bundle {
  const [node, cli] = runtimes().wrangler as [string, string];
  const dir = join(work, worker);
  const config = join(work, `${worker}.wrangler.json`);
  const main = join(ROOT, 'dist/bench/workers', `${worker}-worker.js`);
  writeFileSync(
    config,
    JSON.stringify({ name: `bench-${worker}`, main, compatibility_date: COMPATIBILITY_DATE }),
  );
  const run = spawnSync(node, [cli, 'deploy', '--dry-run', '--outdir', dir, '--config', config], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1', CI: '1' },
  });
  if (run.status !== 0) throw new Error(`wrangler could not bundle ${worker}: ${run.stdout}${run.stderr}`);
  const name = readdirSync(dir).find((f) => f.endsWith('.js'));
  if (!name) throw new Error(`wrangler wrote no module for ${worker} in ${dir}`);
  const code = readFileSync(join(dir, name));
  return { worker, file: join(dir, name), bytes: code.length, gzipBytes: gzipSync(code).length };
}

/** A workerd configuration serving `module` (a path relative to the configuration) on 127.0.0.1:`port`. */
function workerdConfig(module: string, port: number): string {
  return [
    'using Workerd = import "/workerd/workerd.capnp";',
    'const config :Workerd.Config = (',
    '  services = [ (name = "main", worker = .main) ],',
    `  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],`,
    ');',
    'const main :Workerd.Worker = (',
    `  modules = [ (name = "worker.js", esModule = embed ${JSON.stringify(module)}) ],`,
    `  compatibilityDate = "${COMPATIBILITY_DATE}",`,
    ');',
  ].join('\n');
}

const CALL = modern(echoCall('cold'));

/** Sends the first `tools/call` until the socket accepts it; resolves with the echoed text. */
async function firstResult(url: string, deadline: number): Promise<string> {
  for (;;) {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...modernHeaders(CALL),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...CALL }),
      });
      const text = await response.text();
      // A streamed answer carries the result in its last `data:` line.
      const json = text.startsWith('{')
        ? text
        : (text
            .match(/^data: (.*)$/gm)
            ?.at(-1)
            ?.slice(6) ?? '');
      return echoedText(JSON.parse(json) as Reply);
    } catch (error) {
      const refused = (error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
      if (!refused || performance.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 2));
    }
  }
}

/** One cold start of `bundle`: ms from spawning workerd to the first result. */
async function coldStart(bundle: Bundle, work: string): Promise<number> {
  const port = await freePort();
  const config = join(work, `${bundle.worker}.capnp`);
  writeFileSync(config, workerdConfig(relative(work, bundle.file), port));
  const [, cli] = runtimes().wrangler as [string, string];
  const started = performance.now();
  const child = spawn(workerdBinary(cli), ['serve', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const died = exited.then(() => Promise.reject(new Error(`workerd exited (${child.exitCode})`)));
  try {
    const text = await Promise.race([firstResult(`http://127.0.0.1:${port}/mcp`, started + 30_000), died]);
    if (text !== 'cold') throw new Error(`${bundle.worker} echoed ${text}`);
    return performance.now() - started;
  } catch (error) {
    throw new Error(`${bundle.worker}: ${(error as Error).message}; workerd said: ${stderr.slice(-500)}`);
  } finally {
    if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
    await exited;
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kib = (bytes: number): string => (bytes / 1024).toFixed(1);

function report(bundles: Bundle[], times: Map<Worker, number[]>): string {
  const of = (w: Worker) => median(times.get(w)!);
  const over = (w: Worker) => of(w) - of('bare');
  const lines = [
    `# Cold start on workerd (${times.get('bare')!.length} runs each, alternating)\n`,
    '| Worker | bundle KiB | gzip KiB | spawn → first tools/call, median ms | min ms | over the bare Worker, ms |',
    '| --- | --- | --- | --- | --- | --- |',
    ...bundles.map((b) => {
      const runs = times.get(b.worker)!;
      return `| ${b.worker} | ${kib(b.bytes)} | ${kib(b.gzipBytes)} | ${of(b.worker).toFixed(0)} | ${Math.min(...runs).toFixed(0)} | ${over(b.worker).toFixed(0)} |`;
    }),
    '',
    `official v2 / mcpkit: gzip bundle ${(bundles[2]!.gzipBytes / bundles[1]!.gzipBytes).toFixed(2)}×, ` +
      `cold start ${(of('official') / of('mcpkit')).toFixed(2)}×, ` +
      `cold start over the bare Worker ${(over('official') / Math.max(1, over('mcpkit'))).toFixed(2)}×.`,
  ];
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' } } });
  const runs = Number(values.runs);
  const work = mkdtempSync(join(tmpdir(), 'mcpkit-cold-start-'));
  try {
    const bundles = WORKERS.map((w) => bundle(w, work));
    const times = new Map<Worker, number[]>(WORKERS.map((w) => [w, []]));
    for (let run = 0; run < runs; run++) {
      for (const b of run % 2 === 0 ? bundles : [...bundles].reverse()) {
        times.get(b.worker)!.push(await coldStart(b, work));
      }
      process.stderr.write(`cold start: run ${run + 1}/${runs}\n`);
    }
    process.stdout.write(report(bundles, times));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
