/**
 * `npm run soak`: long-running memory checks of one mcpkit server process.
 *
 * 1. `--calls N` (default 1 000 000) `tools/call echo` requests over stdio (modern), 32 in
 *    flight, with the server's RSS sampled every 5 % of the run. After warm-up (the first
 *    10 %) RSS must stay flat: the report gives the growth from the post-warm-up sample to
 *    the highest later sample.
 * 2. `--listeners N` (default 10 000) idle `subscriptions/listen` streams over Streamable
 *    HTTP, each on its own connection: RSS per stream, then RSS sampled while they idle.
 *
 * Prints a markdown report on stdout; the machine's load average is included because the
 * figures depend on it.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { openStream, type OpenStream } from './harness/http-peer.js';
import { rssBytes } from './harness/proc.js';
import { modern, modernHeaders, type Call } from './harness/protocol.js';
import { readyUrl, repoRoot, stopServer, type ServerProcess } from './harness/servers.js';
import { StdioPeer } from './harness/stdio-peer.js';

const ECHO: Call = { method: 'tools/call', params: { name: 'echo', arguments: { text: 'soak' } } };
const LISTEN: Call = {
  method: 'subscriptions/listen',
  params: { notifications: { toolsListChanged: true } },
};
const MiB = 1024 * 1024;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

function spawnSoak(wire: 'stdio' | 'http'): ServerProcess {
  const entry = join(repoRoot(), 'dist', 'bench', 'servers', 'soak.js');
  return spawn(process.execPath, [entry, wire], { stdio: ['pipe', 'pipe', 'inherit'] });
}

const mib = (bytes: number | undefined): string => (bytes === undefined ? 'n/a' : (bytes / MiB).toFixed(1));
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

async function calls(total: number): Promise<string[]> {
  const child = spawnSoak('stdio');
  const pid = child.pid ?? 0;
  const peer = new StdioPeer(child);
  const rows: string[] = [
    '| calls | server RSS (MiB) | calls/s since last sample | load (1/5/15 min) |',
    '|---:|---:|---:|---|',
  ];
  const every = Math.max(1, Math.floor(total / 20));
  const samples: { calls: number; rss: number }[] = [];
  let sent = 0;
  let done = 0;
  let mark = performance.now();
  const worker = async (): Promise<void> => {
    while (sent < total) {
      sent++;
      const reply = await peer.request(modern(ECHO));
      if (reply.error) throw new Error(`call failed: ${reply.error.message}`);
      if (++done % every === 0) {
        const rss = rssBytes(pid) ?? 0;
        const now = performance.now();
        samples.push({ calls: done, rss });
        rows.push(`| ${done} | ${mib(rss)} | ${Math.round(every / ((now - mark) / 1000))} | ${load()} |`);
        mark = now;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 32 }, worker));
  const seconds = (performance.now() - t0) / 1000;
  await stopServer(child);
  const warm = samples.find((s) => s.calls >= total / 10) ?? samples[0];
  const peak = Math.max(...samples.filter((s) => s.calls > (warm?.calls ?? 0)).map((s) => s.rss));
  return [
    `## ${total} calls through one server (stdio, modern, 32 in flight)`,
    '',
    `${total} calls in ${seconds.toFixed(1)} s (${Math.round(total / seconds)} calls/s).`,
    `RSS after warm-up (${warm?.calls} calls): ${mib(warm?.rss)} MiB; highest later sample: ${mib(peak)} MiB ` +
      `(growth ${mib(peak - (warm?.rss ?? 0))} MiB).`,
    '',
    ...rows,
  ];
}

async function listeners(count: number): Promise<string[]> {
  const child = spawnSoak('http');
  const pid = child.pid ?? 0;
  const url = await readyUrl(child);
  const streams: OpenStream[] = [];
  try {
    const warmStreams = await openListeners(url, 200, 0);
    for (const s of warmStreams) s.close();
    await sleep(1000);
    const before = rssBytes(pid) ?? 0;
    const t0 = performance.now();
    streams.push(...(await openListeners(url, count, 1000)));
    const opened = (performance.now() - t0) / 1000;
    await sleep(2000);
    const after = rssBytes(pid) ?? 0;
    const idle: string[] = [];
    for (let i = 0; i < option('idle-samples', 6); i++) {
      await sleep(5000);
      idle.push(mib(rssBytes(pid)));
    }
    return [
      `## ${count} idle listen streams (Streamable HTTP, modern, one connection each)`,
      '',
      `Opened and acknowledged in ${opened.toFixed(1)} s. Server RSS ${mib(before)} MiB before, ` +
        `${mib(after)} MiB with the streams open: ${((after - before) / count / 1024).toFixed(1)} KiB per stream.`,
      `RSS while the streams idle (every 5 s, keep-alive comments every 15 s): ${idle.join(', ')} MiB. Load: ${load()}.`,
    ];
  } finally {
    for (const s of streams) s.close();
    await stopServer(child);
  }
}

/** Opens `count` listen streams, `batch` at a time; resolves once each is acknowledged. */
async function openListeners(url: string, count: number, offset: number): Promise<OpenStream[]> {
  const open = async (i: number): Promise<OpenStream> => {
    let acked!: () => void;
    const ack = new Promise<void>((resolve) => (acked = resolve));
    const body = { jsonrpc: '2.0', id: `listen-${offset + i}`, ...modern(LISTEN) };
    const stream = await openStream(url, body, modernHeaders(LISTEN), (m) => {
      if (m.method === 'notifications/subscriptions/acknowledged') acked();
    });
    if (stream.status !== 200) throw new Error(`listen ${i}: HTTP ${stream.status}`);
    await ack;
    return stream;
  };
  const streams: OpenStream[] = [];
  for (let i = 0; i < count; i += 100) {
    const batch = Array.from({ length: Math.min(100, count - i) }, (_, j) => open(i + j));
    streams.push(...(await Promise.all(batch)));
  }
  return streams;
}

async function main(): Promise<void> {
  const lines = [`# mcpkit soak`, '', `Node ${process.version}, load average at start ${load()}.`, ''];
  if (option('calls', 1_000_000) > 0) lines.push(...(await calls(option('calls', 1_000_000))), '');
  if (option('listeners', 10_000) > 0) lines.push(...(await listeners(option('listeners', 10_000))));
  process.stdout.write(`${lines.join('\n')}\n`);
}

void main();
