import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer as V1Server } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createServer } from '../../server/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { createClient, type Client } from '../index.js';
import { sseTransport, streamableHttp } from './index.js';
import { retryDelayMs, sendRetrying } from './retry.js';

let served: Served | undefined;
let client: Client | undefined;
let closeSse: (() => Promise<void>) | undefined;
afterEach(async () => {
  await client?.close();
  await served?.close();
  await closeSse?.();
  client = served = closeSse = undefined;
});

/** A real server that lets each client address make one request per second (no burst). */
async function throttled(): Promise<Served> {
  const server = createServer({ name: 'throttled', version: '1' });
  server.tool('echo', { inputSchema: { type: 'object' } }, (args) => String(args.text));
  return (served = await serve(server, {
    port: 0,
    http: { principals: { requestsPerSecond: 1, burst: 1 } },
  }));
}

async function connected(retry?: { maxRetries?: number; maxDelayMs?: number }): Promise<Client> {
  const { url } = await throttled();
  client = createClient({ name: 'c', version: '1' });
  await client.connect(streamableHttp(url, retry ? { retry } : {}));
  return client;
}

describe('429 Too Many Requests', () => {
  it('the client waits for Retry-After and sends again: every call succeeds', async () => {
    const c = await connected();
    const started = performance.now();
    const texts = [];
    for (const text of ['a', 'b']) texts.push((await c.callTool('echo', { text })).content);
    expect(texts).toEqual([[{ type: 'text', text: 'a' }], [{ type: 'text', text: 'b' }]]);
    // The server refused at least once and asked for 1 s: the client honoured it.
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('with retries off, the call fails with the server JSON-RPC error naming the limit', async () => {
    const c = await connected({ maxRetries: 0 });
    await c.callTool('echo', { text: 'a' }).catch(() => undefined);
    await expect(c.callTool('echo', { text: 'b' })).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining('Too Many Requests'),
    });
  });

  it('a Retry-After longer than maxDelayMs fails at once instead of waiting', async () => {
    const c = await connected({ maxDelayMs: 100 });
    await c.callTool('echo', { text: 'a' }).catch(() => undefined);
    const started = performance.now();
    await expect(c.callTool('echo', { text: 'b' })).rejects.toMatchObject({ code: -32600 });
    expect(performance.now() - started).toBeLessThan(900);
  });

  it.each([
    [{ 'retry-after': '3' }, 0, 3000],
    [{ 'retry-after': new Date(Date.UTC(2030, 0, 1, 0, 0, 5)).toUTCString() }, 0, 5000],
    [{}, 0, 1000],
    [{}, 2, 4000],
  ])('Retry-After %j on attempt %i → %i ms', (headers, attempt, ms) => {
    const response = new Response(null, { status: 429, headers });
    expect(retryDelayMs(response, attempt, Date.UTC(2030, 0, 1))).toBe(ms);
  });
});

/**
 * A real deprecated HTTP+SSE server (the official v1 SDK's SSEServerTransport on node:http,
 * 127.0.0.1) whose POSTs of `tools/call` get 429 (Retry-After: 0, a JSON-RPC error body)
 * while `refusals.left` > 0; `posts` counts the tools/call POSTs that reached the gate.
 */
async function throttledSse(refusals: { left: number }): Promise<{ url: string; posts: () => number }> {
  let posts = 0;
  const transports = new Map<string, SSEServerTransport>();
  const build = (): V1Server => {
    const server = new V1Server({ name: 'v1-sse', version: '1' });
    server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    return server;
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      transports.set(transport.sessionId, transport);
      return build().connect(transport);
    }
    const transport = transports.get(url.searchParams.get('sessionId') ?? '');
    if (url.pathname !== '/messages' || !transport) return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const message = JSON.parse(Buffer.concat(chunks).toString()) as { id?: number; method?: string };
    if (message.method === 'tools/call' && (posts++, refusals.left-- > 0)) {
      const error = { jsonrpc: '2.0', id: message.id, error: { code: -32600, message: 'Too Many Requests' } };
      return void res
        .writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' })
        .end(JSON.stringify(error));
    }
    return transport.handlePostMessage(req, res, message);
  };
  const server = createHttpServer((req, res) => void handle(req, res).catch(() => res.writeHead(500).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeSse = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`, posts: () => posts };
}

describe('429 on the deprecated HTTP+SSE transport, like Streamable HTTP', () => {
  it('sends a refused POST again after Retry-After: the call succeeds', async () => {
    const sse = await throttledSse({ left: 2 });
    client = createClient({ name: 'c', version: '1' });
    await client.connect(sseTransport(sse.url));
    const result = await client.callTool('echo', { text: 'through' });
    expect(result.content).toEqual([{ type: 'text', text: 'through' }]);
    expect(sse.posts()).toBe(3);
  });

  it('gives up after maxRetries with the server’s JSON-RPC error, and keeps serving', async () => {
    const refusals = { left: Infinity };
    const sse = await throttledSse(refusals);
    client = createClient({ name: 'c', version: '1' });
    await client.connect(sseTransport(sse.url, { retry: { maxRetries: 1 } }));
    await expect(client.callTool('echo', { text: 'x' })).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining('Too Many Requests'),
    });
    expect(sse.posts()).toBe(2);
    refusals.left = 0;
    expect((await client.callTool('echo', { text: 'y' })).content).toEqual([{ type: 'text', text: 'y' }]);
  });
});

describe('a Retry-After beyond what a timer can wait', () => {
  afterEach(() => void vi.useRealTimers());
  const refusal = (): Response =>
    new Response(null, { status: 429, headers: { 'retry-after': String(10 ** 12) } });

  it('10^12 s is over the default maxDelayMs: the 429 is returned at once, not retried', async () => {
    let sent = 0;
    const response = await sendRetrying(async () => (sent++, refusal()), {}, undefined);
    expect(response.status).toBe(429);
    expect(sent).toBe(1);
  });

  it('10^12 s within a huge maxDelayMs waits (clamped to 2^31 − 1 ms), never retries after 1 ms', async () => {
    vi.useFakeTimers();
    let sent = 0;
    const abort = new AbortController();
    const send = async (): Promise<Response> => (sent++, refusal());
    const done = sendRetrying(send, { maxDelayMs: Infinity }, abort.signal).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toBe(1);
    abort.abort(new Error('stop'));
    expect(await done).toMatchObject({ code: 'ABORTED', cause: { message: 'stop' } });
    expect(sent).toBe(1);
  });
});
