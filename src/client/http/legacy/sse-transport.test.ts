/**
 * The deprecated HTTP+SSE transport: fake-fetch units for the endpoint event and POSTs, and
 * our client falling back to it against the official v1 SDK's `SSEServerTransport`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JsonRpcMessage } from '../../../core/jsonrpc.js';
import type { Transport } from '../../../core/transport.js';
import { createClient, streamableHttp } from '../../index.js';
import { sseTransport } from './sse-transport.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** An SSE stream kept open: `push` writes raw event text, `fail` breaks it. */
function eventStream(request: Request): { response: Response; push(text: string): void; fail(): void } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  request.signal.addEventListener('abort', () => controller.error(new Error('aborted')));
  return {
    response: new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }),
    push: (text) => controller.enqueue(new TextEncoder().encode(text)),
    fail: () => controller.error(new TypeError('network error')),
  };
}

type Stream = ReturnType<typeof eventStream>;

/**
 * A deprecated HTTP+SSE server behind a fake fetch: POSTs to the MCP URL get `refusal`, the
 * GET gets a stream starting with `endpoint`, and POSTs elsewhere get `post` (default 202,
 * answering requests with `{ echo: method }` on the stream).
 */
function fakeServer(endpoint: string, options: { refusal?: () => Response; post?: () => Response } = {}) {
  const seen: Request[] = [];
  const state: { stream?: Stream; get?: Request } = {};
  const fake = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    seen.push(request.clone());
    if (request.method === 'GET') {
      state.get = request;
      state.stream = eventStream(request);
      state.stream.push(`event: endpoint\ndata: ${endpoint}\n\n`);
      return state.stream.response;
    }
    if (request.url === URL_)
      return options.refusal?.() ?? new Response('Method Not Allowed', { status: 405 });
    const message = (await request.json()) as { id?: number; method?: string };
    if (options.post) return options.post();
    if (message.id !== undefined && message.method) {
      const answer = { jsonrpc: '2.0', id: message.id, result: { echo: message.method } };
      state.stream?.push(`event: message\ndata: ${JSON.stringify(answer)}\n\n`);
    }
    return new Response('Accepted', { status: 202 });
  };
  return { fetch: fake as typeof fetch, seen, state };
}

const URL_ = 'http://mcp.test/a/mcp';

function open(transport: Transport) {
  const frames: unknown[] = [];
  const waiting: ((f: unknown) => void)[] = [];
  const ended: { error?: Error | undefined; done: boolean } = { done: false };
  void transport.start({
    frame: (text) => {
      const value: unknown = JSON.parse(text);
      const wake = waiting.shift();
      if (wake) wake(value);
      else frames.push(value);
    },
    closed: (error) => Object.assign(ended, { error, done: true }),
  });
  const next = (): Promise<unknown> =>
    frames.length > 0 ? Promise.resolve(frames.shift()) : new Promise((r) => waiting.push(r));
  return { next, ended };
}

const initialize: JsonRpcMessage = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const call = (id: number, method: string): JsonRpcMessage => ({ jsonrpc: '2.0', id, method, params: {} });

describe('streamableHttp falling back to HTTP+SSE', () => {
  it('GETs the stream after a bare 405 to initialize and posts initialize to the endpoint', async () => {
    const server = fakeServer('/a/messages?sessionId=s1');
    const t = streamableHttp(URL_, { fetch: server.fetch, headers: { Authorization: 'Bearer t' } });
    const s = open(t);
    t.send(initialize);
    expect(await s.next()).toEqual({ jsonrpc: '2.0', id: 1, result: { echo: 'initialize' } });
    t.send(call(2, 'tools/list'));
    expect(await s.next()).toEqual({ jsonrpc: '2.0', id: 2, result: { echo: 'tools/list' } });
    const [, get, post] = server.seen;
    expect(get?.method).toBe('GET');
    expect(get?.headers.get('accept')).toBe('text/event-stream');
    expect(get?.headers.get('authorization')).toBe('Bearer t');
    expect(post?.url).toBe('http://mcp.test/a/messages?sessionId=s1');
    expect(post?.headers.get('authorization')).toBe('Bearer t');
    expect(server.seen.at(-1)?.url).toBe('http://mcp.test/a/messages?sessionId=s1');
  });

  it('resolves a relative endpoint against the URL', async () => {
    const server = fakeServer('messages?sessionId=s2');
    const t = streamableHttp(URL_, { fetch: server.fetch });
    const s = open(t);
    t.send(initialize);
    await s.next();
    expect(server.seen[2]?.url).toBe('http://mcp.test/a/messages?sessionId=s2');
  });

  it('refuses an endpoint on another origin and answers initialize with the original refusal', async () => {
    const server = fakeServer('http://evil.test/messages');
    const warnings: string[] = [];
    const t = streamableHttp(URL_, { fetch: server.fetch, onWarning: (m) => warnings.push(m) });
    const s = open(t);
    t.send(initialize);
    expect(await s.next()).toMatchObject({ id: 1, error: { message: 'HTTP 405: Method Not Allowed' } });
    expect(server.seen.map((r) => r.url)).not.toContain('http://evil.test/messages');
    expect(server.state.get?.signal.aborted).toBe(true);
    expect(warnings.join()).toMatch(/another origin: http:\/\/evil\.test/);
  });

  it('keeps a 400 with a JSON-RPC body and does not GET', async () => {
    const error = { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'bad' } };
    const refusal = () => new Response(JSON.stringify(error), { status: 400 });
    const server = fakeServer('/messages', { refusal });
    const t = streamableHttp(URL_, { fetch: server.fetch });
    const s = open(t);
    t.send(initialize);
    expect(await s.next()).toEqual(error);
    expect(server.seen.map((r) => r.method)).toEqual(['POST']);
  });

  it('does not fall back when legacySseFallback is false', async () => {
    const server = fakeServer('/messages');
    const t = streamableHttp(URL_, { fetch: server.fetch, legacySseFallback: false });
    const s = open(t);
    t.send(initialize);
    expect(await s.next()).toMatchObject({ id: 1, error: { message: 'HTTP 405: Method Not Allowed' } });
    expect(server.seen.map((r) => r.method)).toEqual(['POST']);
  });

  it('cancels the GET stream on close', async () => {
    const server = fakeServer('/messages');
    const t = streamableHttp(URL_, { fetch: server.fetch });
    const s = open(t);
    t.send(initialize);
    await s.next();
    await t.close();
    expect(server.state.get?.signal.aborted).toBe(true);
    expect(s.ended).toEqual({ done: true, error: undefined });
  });
});

describe('sseTransport', () => {
  it('answers a request whose POST is refused with an error for its id', async () => {
    const post = () => new Response('no such session', { status: 404, statusText: 'Not Found' });
    const server = fakeServer('/messages', { post });
    const t = sseTransport(URL_, { fetch: server.fetch });
    const s = open(t);
    t.send(call(7, 'tools/list'));
    expect(await s.next()).toMatchObject({
      id: 7,
      error: { message: 'HTTP 404 Not Found: no such session' },
    });
    await t.close();
  });

  it('closes with an error when the GET stream breaks', async () => {
    const server = fakeServer('/messages');
    const t = sseTransport(URL_, { fetch: server.fetch });
    const s = open(t);
    t.send(call(1, 'ping'));
    await s.next();
    server.state.stream?.fail();
    await expect.poll(() => s.ended.done).toBe(true);
    expect(s.ended.error?.message).toMatch(/HTTP\+SSE stream ended: network error/);
  });

  it('closes with an error for a foreign-origin endpoint, without posting', async () => {
    const server = fakeServer('https://mcp.test/messages');
    const t = sseTransport(URL_, { fetch: server.fetch });
    const s = open(t);
    t.send(call(1, 'ping'));
    await expect.poll(() => s.ended.done).toBe(true);
    expect(s.ended.error?.message).toMatch(/another origin: https:\/\/mcp\.test/);
    expect(server.seen.map((r) => r.method)).toEqual(['GET']);
  });
});

describe('against the official v1 SDK SSEServerTransport (deprecated HTTP+SSE)', () => {
  function build(): McpServer {
    const server = new McpServer({ name: 'v1-sse', version: '1.32.2' });
    server.registerTool('echo', { description: 'Echo', inputSchema: { text: z.string() } }, ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    return server;
  }

  async function start(seen: string[]): Promise<string> {
    const transports = new Map<string, SSEServerTransport>();
    const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      seen.push(`${req.method} ${url.pathname}`);
      if (req.method === 'GET' && url.pathname === '/mcp') {
        const transport = new SSEServerTransport('/messages', res);
        transports.set(transport.sessionId, transport);
        res.on('close', () => transports.delete(transport.sessionId));
        return build().connect(transport);
      }
      const transport = transports.get(url.searchParams.get('sessionId') ?? '');
      if (req.method === 'POST' && url.pathname === '/messages' && transport) {
        return transport.handlePostMessage(req, res);
      }
      res.writeHead(req.method === 'POST' ? 405 : 404).end();
    };
    const server: Server = createServer(
      (req, res) => void handle(req, res).catch(() => res.writeHead(500).end()),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(
      () =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  }

  it('ends legacy after the refused probe and initialize, lists tools and calls one', async () => {
    const seen: string[] = [];
    const client = createClient({ name: 'sse', version: '1.0.0' });
    await client.connect(streamableHttp(await start(seen)));
    cleanup.push(() => client.close());
    expect(client.era).toBe('legacy');
    expect((await client.listTools()).map((t) => t.name)).toEqual(['echo']);
    const result = await client.callTool('echo', { text: 'hi' });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(seen.slice(0, 4)).toEqual(['POST /mcp', 'POST /mcp', 'GET /mcp', 'POST /messages']);
  });
});
