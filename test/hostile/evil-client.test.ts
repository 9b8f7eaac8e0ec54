/**
 * A scripted hostile client against mcpkit's server: raw HTTP requests and sockets against
 * `serve()`, and raw JSON-RPC frames over a stream connection (what stdio uses). Each case
 * asserts a time bound under a watchdog (a blocked event loop fails it), the specific
 * error, and that a normal request still succeeds afterwards.
 */
import { connect as netConnect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../../src/core/jsonrpc.js';
import type { Transport, TransportSink } from '../../src/core/transport.js';
import { serve, type Served } from '../../src/integrations/node/index.js';
import { connect, createServer, type McpServer } from '../../src/server/index.js';
import { modernBody, modernHeaders } from '../support/http-harness.js';
import { until } from '../support/wait.js';
import { bounded } from '../support/watchdog.js';

const EVIL = `${'a'.repeat(34)}!`;
const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;

function buildServer(): McpServer {
  const server = createServer({
    name: 'victim',
    version: '1.0.0',
    // One principal (loopback) here: its own shares are set to the globals, which this suite tests.
    limits: { maxListenStreams: 2, maxListenStreamsPerPrincipal: 2, maxConcurrentRequests: 8 },
  });
  server.tool(
    'search',
    {
      description: 'A pattern an attacker can feed',
      inputSchema: { type: 'object', properties: { q: { type: 'string', pattern: '^(a+)+$' } } },
    },
    () => 'searched',
  );
  server.tool('echo', { description: 'Echo', inputSchema: { type: 'object' } }, (args) =>
    String((args as { text?: unknown }).text ?? ''),
  );
  server.tool('wait', { description: 'Waits until cancelled' }, (_args, ctx) => {
    return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('cancelled')));
  });
  return server;
}

let served: Served;
beforeAll(async () => {
  served = await serve(buildServer(), {
    port: 0,
    headersTimeoutMs: 500,
    requestTimeoutMs: 1000,
    maxConnections: 16,
    http: {
      maxSessions: 3,
      principals: { maxSessions: 3, maxConcurrentRequests: 16, maxQueuedRequests: 16 },
    },
  });
});
afterAll(() => served?.close());

function call(name: string, args: Record<string, unknown>, id = 1): Promise<Response> {
  const body = modernBody('tools/call', { name, arguments: args }, id);
  return fetch(served.url, { method: 'POST', headers: modernHeaders(body), body: JSON.stringify(body) });
}

async function stillServes(): Promise<void> {
  const response = await call('echo', { text: 'still here' }, 99);
  expect(response.status).toBe(200);
  expect(((await response.json()) as { result: { content: unknown } }).result.content).toEqual([
    { type: 'text', text: 'still here' },
  ]);
}

describe('a hostile client cannot hang or exhaust the HTTP server', () => {
  it('ReDoS: an inputSchema pattern ^(a+)+$ with 34 × a + ! is answered at once', async () => {
    const { value } = await bounded({ withinMs: 5000 }, async () =>
      (await call('search', { q: EVIL })).json(),
    );
    expect(value).toMatchObject({ result: { isError: true } });
    expect(JSON.stringify(value)).toContain('must match pattern');
    await stillServes();
  });

  it('an argument nested 100 000 arrays deep gets 400 with -32600 naming the limit', async () => {
    const body = modernBody('tools/call', { name: 'echo', arguments: { deep: '@' } });
    const text = JSON.stringify(body).replace('"@"', DEEP);
    const { value } = await bounded({ withinMs: 5000 }, async () => {
      const response = await fetch(served.url, { method: 'POST', headers: modernHeaders(body), body: text });
      return { status: response.status, body: (await response.json()) as JsonRpcMessage };
    });
    expect(value.status).toBe(400);
    expect(value.body).toMatchObject({
      id: 1,
      error: { code: -32600, message: expect.stringContaining('256') },
    });
    await stillServes();
  });

  it('a body over 4 MiB gets 413', async () => {
    const body = modernBody('tools/call', { name: 'echo', arguments: { text: 'x'.repeat(5 * 1024 * 1024) } });
    const { value } = await bounded({ withinMs: 8000 }, () =>
      fetch(served.url, { method: 'POST', headers: modernHeaders(body), body: JSON.stringify(body) }),
    );
    expect(value.status).toBe(413);
    await stillServes();
  });

  it('slowloris: connections that send headers slowly are closed after headersTimeoutMs', async () => {
    const sockets = await Promise.all(Array.from({ length: 8 }, () => slowSocket(served.url)));
    const { value } = await bounded({ withinMs: 6000 }, () => Promise.all(sockets.map(closedAfter)));
    for (const ms of value) expect(ms).toBeLessThan(4000);
    await stillServes();
  });

  it('connections beyond maxConnections are refused; service resumes once they go', async () => {
    const held = await Promise.all(Array.from({ length: 16 }, () => slowSocket(served.url)));
    const extra = await slowSocket(served.url);
    const { value } = await bounded({ withinMs: 6000 }, () => closedAfter(extra));
    expect(value).toBeLessThan(400);
    await Promise.all(held.map(closedAfter));
    await stillServes();
  });

  it('legacy sessions beyond maxSessions get 503; modern requests still work', async () => {
    const statuses: number[] = [];
    await bounded({ withinMs: 5000 }, async () => {
      for (let i = 0; i < 4; i++) statuses.push((await initialize()).status);
    });
    expect(statuses).toEqual([200, 200, 200, 503]);
    await stillServes();
  });

  it('listen streams beyond limits.maxListenStreams are refused with -32600', async () => {
    const streams = [new AbortController(), new AbortController()];
    const opened = await Promise.all(streams.map((c, i) => listen(c.signal, 10 + i)));
    expect(opened.map((r) => r.status)).toEqual([200, 200]);
    const { value } = await bounded({ withinMs: 5000 }, async () => (await listen(undefined, 12)).json());
    expect(value).toMatchObject({
      id: 12,
      error: { code: -32600, message: expect.stringContaining('maxListenStreams') },
    });
    for (const c of streams) c.abort();
    await stillServes();
  });
});

describe('a hostile client cannot hang or exhaust a stream connection (stdio framing)', () => {
  it('requests beyond maxConcurrentRequests get -32600; the connection keeps serving', async () => {
    const { evil, replies } = await openStream();
    for (let i = 0; i < 9; i++) evil.send(frame('tools/call', { name: 'wait', arguments: {} }, i));
    await bounded({ withinMs: 5000 }, () => until(() => replies.has(8)));
    expect(replies.get(8)).toMatchObject({
      error: { code: -32600, message: expect.stringContaining('maxConcurrentRequests') },
    });
    for (let i = 0; i < 8; i++)
      evil.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: i } });
    // Cancelled requests free their slots as their handlers return.
    let id = 100;
    for (; ; id++) {
      evil.send(frame('tools/call', { name: 'echo', arguments: { text: 'ok' } }, id));
      await until(() => replies.has(id));
      if (!('error' in (replies.get(id) as object))) break;
    }
    expect(replies.get(id)).toMatchObject({ result: { content: [{ text: 'ok' }] } });
  });

  it('legacy era: after initialize, a ReDoS argument gets an isError result at once', async () => {
    const { evil, replies } = await openStream();
    const initialize = {
      jsonrpc: '2.0' as const,
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'evil', version: '1' } },
    };
    evil.send(initialize);
    await until(() => replies.has(1));
    evil.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const call = {
      jsonrpc: '2.0' as const,
      method: 'tools/call',
      params: { name: 'search', arguments: { q: EVIL } },
    };
    await bounded({ withinMs: 5000 }, async () => {
      evil.send({ ...call, id: 2 });
      await until(() => replies.has(2));
    });
    expect(replies.get(2)).toMatchObject({ result: { isError: true } });
    evil.send({ ...call, id: 3, params: { name: 'echo', arguments: { text: 'ok' } } });
    await until(() => replies.has(3));
    expect(replies.get(3)).toMatchObject({ result: { content: [{ text: 'ok' }] } });
  });

  it('a frame nested 100 000 deep gets -32600 with its id; ReDoS arguments an isError result', async () => {
    const { raw, replies, evil } = await openStream();
    await bounded({ withinMs: 5000 }, async () => {
      raw(
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"d":${DEEP}}}}`,
      );
      evil.send(frame('tools/call', { name: 'search', arguments: { q: EVIL } }, 2));
      await until(() => replies.has(1) && replies.has(2));
    });
    expect(replies.get(1)).toMatchObject({ error: { code: -32600 } });
    expect(replies.get(2)).toMatchObject({ result: { isError: true } });
    evil.send(frame('tools/call', { name: 'echo', arguments: { text: 'ok' } }, 3));
    await until(() => replies.has(3));
    expect(replies.get(3)).toMatchObject({ result: { content: [{ text: 'ok' }] } });
  });
});

function frame(method: string, params: Record<string, unknown>, id: number): JsonRpcMessage {
  return modernBody(method, params, id);
}

/** Our server on a stream transport whose incoming frames the test writes as raw text. */
async function openStream(): Promise<{
  evil: { send(m: JsonRpcMessage): void };
  raw(text: string): void;
  replies: Map<unknown, JsonRpcMessage>;
}> {
  const replies = new Map<unknown, JsonRpcMessage>();
  let sink: TransportSink | undefined;
  const transport: Transport = {
    start: (s) => void (sink = s),
    send: (m) => {
      for (const message of Array.isArray(m) ? m : [m]) if ('id' in message) replies.set(message.id, message);
    },
    close: async () => sink?.closed(),
  };
  await connect(buildServer(), transport);
  const raw = (text: string): void => sink?.frame(text);
  return { evil: { send: (m) => raw(JSON.stringify(m)) }, raw, replies };
}

function initialize(): Promise<Response> {
  return fetch(served.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'evil', version: '1' } },
    }),
  });
}

function listen(signal: AbortSignal | undefined, id: number): Promise<Response> {
  const body = modernBody('subscriptions/listen', { notifications: { toolsListChanged: true } }, id);
  return fetch(served.url, {
    method: 'POST',
    headers: modernHeaders(body),
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** A TCP connection that has sent the first line of a request and then goes quiet. */
function slowSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: hostname, port: Number(port) }, () => {
      socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      resolve(socket);
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

/** Milliseconds until the server closes `socket`. */
function closedAfter(socket: Socket): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    if (socket.destroyed || socket.readableEnded) return resolve(0);
    socket.once('close', () => resolve(performance.now() - started));
    socket.resume();
  });
}
