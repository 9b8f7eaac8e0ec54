/**
 * `npm run bench:workers`: cold start on Cloudflare's runtime. Three Workers with
 * one `echo` tool — mcpkit's (`createWorker`), the official SDK v2's (`createMcpHandler`,
 * its documented fetch-runtime recipe) and a bare JSON-RPC echo as the yardstick — are each
 * bundled by `wrangler deploy --dry-run` (the bundle a deploy would upload: raw and gzip
 * bytes), then started again and again in a fresh `workerd` process: the figure is the wall
 * time from spawn to the first modern `tools/call` result over HTTP, so it includes
 * workerd's own start (the bare Worker shows how much) and the isolate's module evaluation.
 * Runs alternate between the Workers so machine drift hits all alike.
 * Flags: --runs N (default 9).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { freePort } from './harness/redis.js';
import { echoCall, echoedText, modern, modernHeaders, type Reply } from './harness/protocol.js';

const ROOT = resolve(import.meta.dirname, '../..');
const WORKERS = ['bare', 'mcpkit', 'official'] as const;
type Worker = (typeof WORKERS)[number];

/** One Worker's bundle: the module file and its sizes. */
interface Bundle {
  worker: Worker;
  file: string;
  bytes: number;
  gzipBytes: number;
}

interface WorkerdModule {
  bundleWorker(main: string, dir: string): string;
  serveWorker(
    file: string,
    options: { port: number },
  ): { exited: Promise<void>; child: { exitCode: number | null }; stderr(): string; stop(): Promise<void> };
}
const { bundleWorker, serveWorker } = (await import(join(ROOT, 'scripts/workerd.mjs'))) as WorkerdModule;

/** Bundles `worker` as a deploy would and measures it. */
function bundle(worker: Worker, work: string): Bundle {
  const file = bundleWorker(join(ROOT, 'dist/bench/workers', `${worker}-worker.js`), join(work, worker));
  const code = readFileSync(file);
  return { worker, file, bytes: code.length, gzipBytes: gzipSync(code).length };
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
async function coldStart(bundle: Bundle): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const served = serveWorker(bundle.file, { port });
  const died = served.exited.then(() =>
    Promise.reject(new Error(`workerd exited (${served.child.exitCode})`)),
  );
  try {
    const text = await Promise.race([firstResult(`http://127.0.0.1:${port}/mcp`, started + 30_000), died]);
    if (text !== 'cold') throw new Error(`${bundle.worker} echoed ${text}`);
    return performance.now() - started;
  } catch (error) {
    throw new Error(
      `${bundle.worker}: ${(error as Error).message}; workerd said: ${served.stderr().slice(-500)}`,
    );
  } finally {
    await served.stop();
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
        times.get(b.worker)!.push(await coldStart(b));
      }
      process.stderr.write(`cold start: run ${run + 1}/${runs}\n`);
    }
    process.stdout.write(report(bundles, times));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
