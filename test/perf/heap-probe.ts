/**
 * Heap a server keeps per idle legacy HTTP session and per idle modern listen stream,
 * measured after forced GC. Run compiled, in a process of its own so that `--expose-gc`
 * and a clean heap belong to it alone (heap-budget.test.ts starts it; the budgets sit there):
 *
 *   node --expose-gc --no-opt --no-maglev --no-sparkplug dist/test/perf/heap-probe.js \
 *     [--root <checkout>] [--count 1000] [--rounds 3]
 *
 * The JIT tiers are off because their code and metadata land on the heap while the measured
 * batch runs, at moments that vary from run to run: with them, rounds on one build read
 * 1 085–1 303 B per legacy session (another build 335–964 B); without them 771–787 B. What a
 * session keeps (its objects) is the same either way; the request path's compiled code is
 * shared by all sessions.
 *
 * `--root` is the checkout whose built `dist/` is measured (default: the one this file was
 * built in), so an older commit's build can be measured with today's probe. The server is
 * the referee's: `createServer` with one zod-validated `echo` tool, served by
 * `createHttpHandler` with its defaults and called in process with web `Request`s.
 *
 * - A legacy session is what the referee's `mem` phase opens, left open: `initialize`,
 *   `notifications/initialized`, one `tools/call`, every body read to its end; the caller
 *   keeps nothing.
 * - A listen stream is a 2026-07-28 `subscriptions/listen` for tool list changes, read up to
 *   its acknowledgment; the caller keeps the `Response` and a pending read, as a host
 *   adapter writing it to a socket does.
 *
 * Each round uses a fresh server: it opens a few of each first (warm-up: lazily built code
 * and caches are not a session's cost), collects garbage, reads `heapUsed`, opens `--count`
 * more, collects again and divides the difference by the count. Prints one JSON line:
 * `{ legacySession: number[], listenStream: number[] }`, bytes per item, one per round.
 */
import { parseArgs } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';

type ServerModule = typeof import('../../src/server/index.js');
type HttpModule = typeof import('../../src/server/http/index.js');
type Handler = ReturnType<HttpModule['createHttpHandler']>;

const WARM_UP = 50;
const URL_ = 'http://127.0.0.1/mcp';
const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';
const JSON_OR_SSE = 'application/json, text/event-stream';

const gc = (globalThis as { gc?: () => void }).gc;

function post(body: object, headers: Record<string, string>): Request {
  const all = { accept: JSON_OR_SSE, 'content-type': 'application/json', ...headers };
  return new Request(URL_, { method: 'POST', headers: all, body: JSON.stringify(body) });
}

async function expectOk(response: Response, what: string): Promise<void> {
  const text = await response.text();
  if (!response.ok || text.includes('"error"')) throw new Error(`${what}: ${response.status} ${text}`);
}

/** One legacy session, left open: the referee's lifecycle without its DELETE. */
async function openLegacySession(handler: Handler): Promise<void> {
  const init = await handler(
    post(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'probe', version: '0' } },
      },
      {},
    ),
  );
  const session = init.headers.get('mcp-session-id');
  await expectOk(init, 'initialize');
  if (!session) throw new Error('initialize: no Mcp-Session-Id');
  const headers = { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY };
  await expectOk(
    await handler(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)),
    'initialized',
  );
  const call = {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: 'hi' } },
  };
  await expectOk(await handler(post(call, headers)), 'tools/call');
}

/** What the caller of an open listen holds: the response, its reader and the pending read. */
interface HeldStream {
  response: Response;
  pending: Promise<unknown>;
}

/** One modern listen for tool list changes, read up to its acknowledgment and kept open. */
async function openListen(handler: Handler, id: number): Promise<HeldStream> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '0' },
  };
  const body = {
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: { notifications: { toolsListChanged: true }, _meta: meta },
  };
  const response = await handler(
    post(body, { 'mcp-protocol-version': MODERN, 'mcp-method': 'subscriptions/listen' }),
  );
  if (!response.body) throw new Error(`listen: ${response.status} without a body`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('notifications/subscriptions/acknowledged')) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`listen ended before its acknowledgment: ${text}`);
    text += decoder.decode(value, { stream: true });
  }
  return { response, pending: reader.read() };
}

/** Collects garbage until nothing more goes, letting finalizers and timers' microtasks run between passes. */
async function collected(): Promise<number> {
  if (!gc) throw new Error('heap-probe needs node --expose-gc');
  for (let pass = 0; pass < 4; pass++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

/** Bytes of heap per item opened by `open`, on a fresh server. */
async function round(
  modules: { server: ServerModule; http: HttpModule },
  count: number,
  open: (handler: Handler, i: number) => Promise<unknown>,
): Promise<number> {
  const server = modules.server.createServer({ name: 'heap-probe', version: '0.0.0' });
  server.tool(
    'echo',
    { description: 'Echo the text argument back', inputSchema: z.object({ text: z.string() }) },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  const handler = modules.http.createHttpHandler(server);
  const held: unknown[] = [];
  for (let i = 0; i < WARM_UP; i++) held.push(await open(handler, i));
  const before = await collected();
  for (let i = 0; i < count; i++) held.push(await open(handler, WARM_UP + i));
  const after = await collected();
  await handler.close();
  held.length = 0;
  return (after - before) / count;
}

async function main(): Promise<void> {
  const built = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  const { values } = parseArgs({
    options: { root: { type: 'string' }, count: { type: 'string' }, rounds: { type: 'string' } },
  });
  const root = resolve(values.root ?? built);
  const count = Number(values.count ?? 1000);
  const rounds = Number(values.rounds ?? 3);
  const at = (path: string): string => pathToFileURL(join(root, 'dist', path)).href;
  const modules = {
    server: (await import(at('src/server/index.js'))) as ServerModule,
    http: (await import(at('src/server/http/index.js'))) as HttpModule,
  };
  const result = { root, count, legacySession: [] as number[], listenStream: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    result.legacySession.push(await round(modules, count, (handler) => openLegacySession(handler)));
    result.listenStream.push(await round(modules, count, (handler, i) => openListen(handler, i + 1)));
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `heap-probe: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
