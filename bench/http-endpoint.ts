/**
 * The HTTP endpoint's own CPU per call, in process: `createHttpEndpoint` answering the
 * referee's zod echo `tools/call` (modern, and legacy in one session) with 16 calls in
 * flight, without sockets or node:http. It isolates what mcpkit adds per call from the
 * transport, so a change to src/server/http can be compared before and after in seconds
 * on a busy machine (run it a few times, alternating builds; CPU time, not wall time).
 * Reports CPU µs/call, GC pause µs/call and old-space growth per call (bytes promoted by
 * scavenges; growth well above ~100 B/call means per-call objects outlive their call).
 *
 *   npm run build && node dist/bench/http-endpoint.js [calls per worker, default 20000]
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { z } from 'zod';
import { createServer } from '../src/server/index.js';
import type { HeaderReader } from '../src/server/http/index.js';
import { createHttpEndpoint, type HttpEndpoint, type HttpRequest } from '../src/server/http/runtime.js';

const CALLS = Number(process.argv[2] ?? 20_000);
const WORKERS = 16;
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Request headers over a plain record (lower-case names). */
class Headers implements HeaderReader {
  constructor(readonly raw: Record<string, string>) {}
  get(name: string): string | null {
    return this.raw[name.toLowerCase()] ?? null;
  }
}

/** One POST as the endpoint reads it (a class: an object literal with a getter per call would skew GC). */
class Post implements HttpRequest {
  readonly method = 'POST';
  readonly url = 'http://127.0.0.1:3000/mcp';
  readonly remoteAddress = '127.0.0.1';
  readonly headers: Headers;
  readonly #text: string;
  constructor(headers: Headers, text: string) {
    this.headers = headers;
    this.#text = text;
  }
  get signal(): AbortSignal {
    return new AbortController().signal;
  }
  body(): Promise<{ kind: 'text'; text: string }> {
    return Promise.resolve({ kind: 'text', text: this.#text });
  }
}

function headersFor(era: 'modern' | 'legacy', session?: string): Headers {
  const common = { host: '127.0.0.1:3000', accept: 'application/json, text/event-stream' };
  const json = { ...common, 'content-type': 'application/json' };
  if (era === 'modern')
    return new Headers({
      ...json,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
    });
  return new Headers({
    ...json,
    'mcp-protocol-version': '2025-11-25',
    ...(session ? { 'mcp-session-id': session } : {}),
  });
}

/** Opens a legacy session through the endpoint; its id. */
async function openSession(endpoint: HttpEndpoint): Promise<string> {
  const params = {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench', version: '0' },
  };
  const init = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params });
  const response = await endpoint.handle(new Post(headersFor('legacy'), init));
  const id = response.headers['mcp-session-id'];
  if (!id) throw new Error(`initialize failed: ${String(response.body)}`);
  const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await endpoint.handle(new Post(headersFor('legacy', id), initialized));
  return id;
}

function oldSpaceBytes(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0;
}

/** Runs WORKERS loops of `calls` calls each; CPU, GC and old-space figures per call. */
async function measure(
  endpoint: HttpEndpoint,
  headers: Headers,
  modern: boolean,
  calls: number,
): Promise<string> {
  const tail = `,"method":"tools/call","params":${JSON.stringify({ name: 'echo', arguments: { text: 'hello' }, ...(modern ? { _meta: META } : {}) })}}`;
  let id = 0;
  const loop = async (): Promise<void> => {
    for (let i = 0; i < calls; i++) {
      const response = await endpoint.handle(new Post(headers, `{"jsonrpc":"2.0","id":${++id}${tail}`));
      if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${String(response.body)}`);
    }
  };
  let gcMs = 0;
  let majors = 0;
  const count = (entries: PerformanceEntry[]): void => {
    for (const entry of entries) {
      gcMs += entry.duration;
      if ((entry as { detail?: { kind?: number } }).detail?.kind !== 1) majors++;
    }
  };
  const observer = new PerformanceObserver((list) => count(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  const old = oldSpaceBytes();
  const cpu = process.cpuUsage();
  await Promise.all(Array.from({ length: WORKERS }, loop));
  const used = process.cpuUsage(cpu);
  const grown = oldSpaceBytes() - old;
  await new Promise((resolve) => setTimeout(resolve, 10)); // GC entries arrive in a later task
  count(observer.takeRecords());
  observer.disconnect();
  const n = calls * WORKERS;
  const us = (used.user + used.system) / n;
  const growth = majors === 0 ? `${(grown / n).toFixed(0)} B/call` : `n/a (${majors} full GCs)`;
  return `${us.toFixed(2)} µs/call CPU, GC ${((gcMs * 1000) / n).toFixed(2)} µs/call, old space +${growth}`;
}

const server = createServer({ name: 'bench-http-endpoint', version: '0.0.0' });
server.tool(
  'echo',
  { description: 'Echo the text argument back', inputSchema: z.object({ text: z.string() }) },
  async ({ text }) => ({
    content: [{ type: 'text', text }],
  }),
);
const endpoint = createHttpEndpoint(server);
const session = await openSession(endpoint);
await measure(endpoint, headersFor('modern'), true, 2000); // warm-up
await measure(endpoint, headersFor('legacy', session), false, 2000);
console.log(`modern: ${await measure(endpoint, headersFor('modern'), true, CALLS)}`);
console.log(`legacy: ${await measure(endpoint, headersFor('legacy', session), false, CALLS)}`);
endpoint.close();
