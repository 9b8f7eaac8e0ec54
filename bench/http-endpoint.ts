/**
 * The HTTP endpoint's own CPU per call, in process: `toNodeListener` (mcpkit/node) answering
 * the referee's zod echo `tools/call` (modern, and legacy in one session) with 16 calls in
 * flight, on fake node request/response objects: no sockets, no node:http parsing. It
 * isolates what mcpkit adds per call (the endpoint and its node conversion) from the
 * transport, so a change to src/server/http can be compared before and after in seconds on
 * a busy machine (run it a few times, alternating builds; CPU time, not wall time).
 * Reports CPU µs/call, GC pause µs/call and old-space growth per call (bytes promoted by
 * scavenges; growth well above ~100 B/call means per-call objects outlive their call).
 *
 *   npm run build && node dist/bench/http-endpoint.js [calls per worker, default 20000]
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { z } from 'zod';
import { toNodeListener, type McpNodeListener } from '../src/integrations/node/index.js';
import { createServer } from '../src/server/index.js';

const CALLS = Number(process.argv[2] ?? 20_000);
const WORKERS = 16;
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const SOCKET = { remoteAddress: '127.0.0.1' };

/**
 * A POST whose body a parser already read (`readableEnded`, `body`): what mcpkit/node takes
 * from an Express-style request, so no stream is needed. A class, so calls share one shape.
 */
class FakeRequest {
  readonly method = 'POST';
  readonly url = '/mcp';
  readonly readableEnded = true;
  readonly complete = true;
  readonly socket = SOCKET;
  constructor(
    readonly headers: Record<string, string>,
    readonly body: Buffer,
  ) {}
}

/** The response as the listener writes it; `done` settles on `end()`. */
class FakeResponse {
  status = 0;
  headers: Record<string, string | string[]> = {};
  text = '';
  headersSent = false;
  closed = false;
  destroyed = false;
  writableFinished = false;
  readonly done: Promise<FakeResponse>;
  #finish!: (response: FakeResponse) => void;
  constructor() {
    this.done = new Promise((resolve) => (this.#finish = resolve));
  }
  writeHead(status: number, headers?: Record<string, string | string[]>): this {
    this.status = status;
    this.headers = headers ?? {};
    this.headersSent = true;
    return this;
  }
  flushHeaders(): void {}
  write(chunk: string | Uint8Array): boolean {
    this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }
  end(body?: string | Uint8Array): this {
    if (body !== undefined) this.write(body);
    this.writableFinished = true;
    this.closed = true;
    this.#finish(this);
    // Like node: 'finish' and 'close' fire after end(), in a later tick.
    const listeners = this.#listeners;
    this.#listeners = [];
    if (listeners.length > 0) queueMicrotask(() => listeners.forEach((listener) => listener()));
    return this;
  }
  #listeners: (() => void)[] = [];
  on(event: string, listener: () => void): this {
    if (event === 'close' || event === 'finish') this.#listeners.push(listener);
    return this;
  }
  once(event: string, listener: () => void): this {
    return this.on(event, listener);
  }
  off(_event: string, listener: () => void): this {
    this.#listeners = this.#listeners.filter((l) => l !== listener);
    return this;
  }
}

/** One POST of `text` through `listener`; the response once it ended. */
function post(
  listener: McpNodeListener,
  headers: Record<string, string>,
  text: string,
): Promise<FakeResponse> {
  const res = new FakeResponse();
  listener(
    new FakeRequest(headers, Buffer.from(text)) as unknown as IncomingMessage,
    res as unknown as ServerResponse,
  );
  return res.done;
}

function headersFor(era: 'modern' | 'legacy', session?: string): Record<string, string> {
  const common = { host: '127.0.0.1:3000', accept: 'application/json, text/event-stream' };
  const json = { ...common, 'content-type': 'application/json' };
  if (era === 'modern')
    return { ...json, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
  return { ...json, 'mcp-protocol-version': '2025-11-25', ...(session ? { 'mcp-session-id': session } : {}) };
}

/** Opens a legacy session through the listener; its id. */
async function openSession(listener: McpNodeListener): Promise<string> {
  const params = {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench', version: '0' },
  };
  const init = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params });
  const response = await post(listener, headersFor('legacy'), init);
  const id = response.headers['mcp-session-id'];
  if (typeof id !== 'string') throw new Error(`initialize failed: HTTP ${response.status} ${response.text}`);
  const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await post(listener, headersFor('legacy', id), initialized);
  return id;
}

function oldSpaceBytes(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0;
}

/** Runs WORKERS loops of `calls` calls each; CPU, GC and old-space figures per call. */
async function measure(
  listener: McpNodeListener,
  headers: Record<string, string>,
  figure: { modern: boolean; calls: number },
): Promise<string> {
  const { modern, calls } = figure;
  const tail = `,"method":"tools/call","params":${JSON.stringify({ name: 'echo', arguments: { text: 'hello' }, ...(modern ? { _meta: META } : {}) })}}`;
  let id = 0;
  const loop = async (): Promise<void> => {
    for (let i = 0; i < calls; i++) {
      if (i % 64 === 63) await new Promise((resolve) => setImmediate(resolve)); // let I/O-phase work run, as a real server does
      const response = await post(listener, headers, `{"jsonrpc":"2.0","id":${++id}${tail}`);
      if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${response.text}`);
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
const listener = toNodeListener(server);
const session = await openSession(listener);
await measure(listener, headersFor('modern'), { modern: true, calls: 2000 }); // warm-up
await measure(listener, headersFor('legacy', session), { modern: false, calls: 2000 });
console.log(`modern: ${await measure(listener, headersFor('modern'), { modern: true, calls: CALLS })}`);
console.log(
  `legacy: ${await measure(listener, headersFor('legacy', session), { modern: false, calls: CALLS })}`,
);
await listener.close();
