import { describe, expect, it, vi } from 'vitest';
import type { JsonRpcMessage } from '../../core/jsonrpc.js';
import type { Transport } from '../../core/transport.js';
import { createClient } from '../index.js';
import { streamableHttp } from './index.js';
import { turn, turns, until } from '../../../test/support/wait.js';

const URL_ = 'http://mcp.test/mcp';
const MODERN = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
/** What the client's connection tells the transport of a modern request. */
const AS_MODERN = { modernVersion: '2026-07-28' };

type Handler = (request: Request, seen: Request[]) => Response | Promise<Response>;

/** A fetch answering with `handler`, recording every request. */
function fakeFetch(handler: Handler): { fetch: typeof fetch; seen: Request[] } {
  const seen: Request[] = [];
  const fake = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    seen.push(request.clone());
    return handler(request, seen);
  };
  return { fetch: fake as typeof fetch, seen };
}

const json = (value: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(value), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

/** An SSE response whose stream stays open until `end()`, and errors when the fetch is aborted. */
function sse(request: Request, events: string[], keepOpen = false): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const event of events) controller.enqueue(new TextEncoder().encode(event));
      if (!keepOpen) controller.close();
      request.signal.addEventListener('abort', () => controller.error(new Error('aborted')));
    },
  });
  return new Response(stream, { headers: { 'Content-Type': 'text/event-stream' } });
}

function open(transport: Transport): { frames: unknown[]; next(): Promise<unknown>; closed: () => boolean } {
  const frames: unknown[] = [];
  const waiting: ((f: unknown) => void)[] = [];
  let closed = false;
  void transport.start({
    frame: (text) => {
      const value: unknown = JSON.parse(text);
      const wake = waiting.shift();
      if (wake) wake(value);
      else frames.push(value);
    },
    closed: () => void (closed = true),
  });
  return {
    frames,
    next: () => (frames.length > 0 ? Promise.resolve(frames.shift()) : new Promise((r) => waiting.push(r))),
    closed: () => closed,
  };
}

const request = (id: number, method: string, params: object = {}): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params },
});

describe('streamableHttp on the modern wire', () => {
  it('posts a request with the request metadata headers and delivers the JSON answer', async () => {
    const { fetch, seen } = fakeFetch(() => json({ jsonrpc: '2.0', id: 1, result: { ok: true } }));
    const t = streamableHttp(URL_, { fetch, headers: async () => ({ Authorization: 'Bearer t' }) });
    const s = open(t);
    t.send(request(1, 'tools/call', { name: 'get weather', _meta: MODERN }), AS_MODERN);
    expect(await s.next()).toEqual({ jsonrpc: '2.0', id: 1, result: { ok: true } });
    const sent = seen[0] as Request;
    expect(sent.method).toBe('POST');
    expect(sent.headers.get('accept')).toBe('application/json, text/event-stream');
    expect(sent.headers.get('content-type')).toBe('application/json');
    expect(sent.headers.get('mcp-protocol-version')).toBe('2026-07-28');
    expect(sent.headers.get('mcp-method')).toBe('tools/call');
    expect(sent.headers.get('mcp-name')).toBe('get weather');
    expect(sent.headers.get('authorization')).toBe('Bearer t');
    expect(sent.headers.get('mcp-session-id')).toBeNull();
  });

  it('names the resource of resources/read in Mcp-Name, Base64 when not plain ASCII', async () => {
    const { fetch, seen } = fakeFetch(() => json({ jsonrpc: '2.0', id: 1, result: {} }));
    const t = streamableHttp(URL_, { fetch });
    const s = open(t);
    t.send(request(1, 'resources/read', { uri: 'file:///é', _meta: MODERN }), AS_MODERN);
    await s.next();
    expect(seen[0]?.headers.get('mcp-name')).toBe('=?base64?ZmlsZTovLy/DqQ==?=');
  });

  it('sends the headers given with a message, under the protocol headers', async () => {
    const { fetch, seen } = fakeFetch(async (r) => {
      const body = (await r.json()) as { id: number };
      return json({ jsonrpc: '2.0', id: body.id, result: { content: [] } });
    });
    const t = streamableHttp(URL_, { fetch });
    const s = open(t);
    const headers = { 'Mcp-Param-Region': '=?base64?IGV1IA==?=', 'Mcp-Method': 'forged' };
    t.send(request(2, 'tools/call', { name: 'valid', arguments: { region: ' eu ' }, _meta: MODERN }), {
      headers,
      ...AS_MODERN,
    });
    await s.next();
    expect(seen[0]?.headers.get('mcp-param-region')).toBe('=?base64?IGV1IA==?=');
    expect(seen[0]?.headers.get('mcp-method')).toBe('tools/call');
  });

  it('delivers the JSON-RPC error body of an HTTP 400 as is', async () => {
    const error = {
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: ['2026-07-28'] },
    };
    const { fetch } = fakeFetch(() => json({ jsonrpc: '2.0', id: 1, error }, 400));
    const t = streamableHttp(URL_, { fetch });
    const s = open(t);
    t.send(request(1, 'server/discover', { _meta: MODERN }), AS_MODERN);
    expect(await s.next()).toEqual({ jsonrpc: '2.0', id: 1, error });
  });

  it('gives an id-less error body the id of the request it answers', async () => {
    const error = { code: -32000, message: 'Bad Request: Server not initialized' };
    const { fetch } = fakeFetch(() => json({ jsonrpc: '2.0', id: null, error }, 400));
    const t = streamableHttp(URL_, { fetch });
    const s = open(t);
    t.send(request(7, 'server/discover', { _meta: MODERN }), AS_MODERN);
    expect(await s.next()).toEqual({ jsonrpc: '2.0', id: 7, error });
  });

  it.each([
    [404, -32601],
    [405, -32601],
    [400, -32600],
    [502, -32603],
  ])('answers a bare HTTP %i with a non-modern error %i for that request', async (status, code) => {
    const { fetch } = fakeFetch(() => new Response('nope', { status }));
    const t = streamableHttp(URL_, { fetch });
    const s = open(t);
    t.send(request(3, 'server/discover', { _meta: MODERN }), AS_MODERN);
    const frame = (await s.next()) as { id: number; error: { code: number; message: string } };
    expect(frame.id).toBe(3);
    expect(frame.error.code).toBe(code);
    expect(frame.error.message).toContain(`HTTP ${status}`);
  });

  it('delivers every SSE event of a response stream as a frame', async () => {
    const { fetch } = fakeFetch((r) =>
      sse(r, [
        'data: {"jsonrpc":"2.0","method":"notifications/progress",\ndata: "params":{"progressToken":1,"progress":1}}\n\n',
        'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
      ]),
    );
    const t = streamableHttp(URL_, { fetch });
    const s = open(t);
    t.send(request(1, 'tools/call', { name: 'slow', _meta: MODERN }), AS_MODERN);
    expect(await s.next()).toMatchObject({ method: 'notifications/progress', params: { progress: 1 } });
    expect(await s.next()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('fails a request whose stream ends before the response', async () => {
    const { fetch } = fakeFetch((r) => sse(r, ['id: 1\nretry: 10\ndata: \n\n']));
    const t = streamableHttp(URL_, { fetch });
    const s = open(t);
    t.send(request(1, 'tools/call', { name: 'x', _meta: MODERN }), AS_MODERN);
    expect(await s.next()).toMatchObject({ id: 1, error: { code: -32603 } });
  });

  it('cancels by aborting the fetch and does not post notifications/cancelled', async () => {
    const { fetch, seen } = fakeFetch((r) => sse(r, [': open\n\n'], true));
    const t = streamableHttp(URL_, { fetch });
    const s = open(t);
    t.send(request(1, 'tools/call', { name: 'wait', _meta: MODERN }), AS_MODERN);
    await until(() => seen.length === 1);
    t.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    await until(() => seen[0]?.signal.aborted === true);
    await turn();
    expect(seen).toHaveLength(1);
    expect(seen[0]?.signal.aborted).toBe(true);
    expect(s.frames).toEqual([]);
  });
});

describe('streamableHttp on the legacy wire', () => {
  function legacyServer(extra: Handler = () => new Response(null, { status: 405 })) {
    return fakeFetch(async (r, seen) => {
      if (r.method !== 'POST') return extra(r, seen);
      const body = (await r.json()) as { id?: number; method?: string };
      if (body.method === 'initialize') {
        const result = {
          protocolVersion: '2025-11-25',
          capabilities: {},
          serverInfo: { name: 's', version: '1' },
        };
        return json({ jsonrpc: '2.0', id: body.id, result }, 200, { 'Mcp-Session-Id': 'sess-1' });
      }
      if (body.id === undefined || body.method === undefined) return new Response(null, { status: 202 });
      return extra(r, seen);
    });
  }

  it('sends the session id and version after initialize, opens the GET stream, and DELETEs on close', async () => {
    const { fetch, seen } = legacyServer(async (r) =>
      r.method === 'POST'
        ? json({ jsonrpc: '2.0', id: 1, result: { tools: [] } })
        : new Response(null, { status: 405 }),
    );
    const t = streamableHttp(URL_, { fetch });
    const s = open(t);
    t.send(request(0, 'initialize', { protocolVersion: '2025-11-25' }));
    await s.next();
    t.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    t.send(request(1, 'tools/list'));
    await s.next();
    await t.close();
    expect(seen.map((r) => r.method)).toEqual(['POST', 'POST', 'GET', 'POST', 'DELETE']);
    expect(seen[0]?.headers.get('mcp-session-id')).toBeNull();
    for (const later of seen.slice(1)) {
      expect(later.headers.get('mcp-session-id')).toBe('sess-1');
      expect(later.headers.get('mcp-protocol-version')).toBe('2025-11-25');
      expect(later.headers.get('mcp-method')).toBeNull();
    }
    expect(seen[2]?.headers.get('accept')).toBe('text/event-stream');
    expect(s.closed()).toBe(true);
  });

  it('resumes a broken stream with GET and Last-Event-ID after the retry interval', async () => {
    let closedAt = 0;
    const { fetch, seen } = legacyServer((r) => {
      if (r.method === 'POST') {
        closedAt = Date.now();
        return sse(r, ['id: e1\nretry: 60\ndata: \n\n']);
      }
      if (!r.headers.has('last-event-id')) return new Response(null, { status: 405 });
      return sse(r, ['id: e2\ndata: {"jsonrpc":"2.0","id":1,"result":{"done":true}}\n\n'], true);
    });
    const t = streamableHttp(URL_, { fetch });
    const s = open(t);
    t.send(request(0, 'initialize', { protocolVersion: '2025-11-25' }));
    await s.next();
    t.send(request(1, 'tools/call', { name: 'test_reconnection' }));
    expect(await s.next()).toEqual({ jsonrpc: '2.0', id: 1, result: { done: true } });
    const resumed = seen.find((r) => r.headers.has('last-event-id'));
    expect(resumed?.method).toBe('GET');
    expect(resumed?.headers.get('last-event-id')).toBe('e1');
    expect(resumed?.headers.get('mcp-session-id')).toBe('sess-1');
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(55);
    await t.close();
  });

  it('does not resume after 1 ms when the server asks for a retry beyond a timer (10^14 ms)', async () => {
    // The stream's end is read when the transport pulls past its one event.
    let drained = false;
    const { fetch, seen } = legacyServer((r) => {
      if (r.method === 'POST') {
        const event = new TextEncoder().encode('id: e1\nretry: 100000000000000\ndata: \n\n');
        let sent = false;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (sent) return void ((drained = true), controller.close());
            sent = true;
            controller.enqueue(event);
          },
        });
        return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
      }
      return new Response(null, { status: 405 });
    });
    const t = streamableHttp(URL_, { fetch });
    const s = open(t);
    t.send(request(0, 'initialize', { protocolVersion: '2025-11-25' }));
    await s.next();
    // Fake timers: an overflowed delay (1 ms) would fire when the clock moves 30 ms on.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      t.send(request(1, 'tools/call', { name: 'test_reconnection' }));
      await until(() => drained);
      await turns(3);
      // Well past the 1 ms a timer overflow would have used: no GET resumes the stream.
      await vi.advanceTimersByTimeAsync(30);
      await turns(3);
      expect(seen.some((r) => r.headers.has('last-event-id'))).toBe(false);
    } finally {
      vi.useRealTimers();
    }
    await t.close();
  });

  it('posts notifications/cancelled and stops reading the stream', async () => {
    const { fetch, seen } = legacyServer((r) => sse(r, [': open\n\n'], true));
    const t = streamableHttp(URL_, { fetch });
    const s = open(t);
    t.send(request(0, 'initialize', { protocolVersion: '2025-11-25' }));
    await s.next();
    t.send(request(1, 'tools/call', { name: 'wait' }));
    await until(() => seen.length === 2);
    t.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    await until(() => seen.length === 3 && seen[1]?.signal.aborted === true);
    await turn();
    expect(seen.map((r) => r.method)).toEqual(['POST', 'POST', 'POST']);
    expect(await seen[2]?.json()).toMatchObject({ method: 'notifications/cancelled' });
    expect(seen[1]?.signal.aborted).toBe(true);
    await t.close();
  });

  it('renews a lost session once per request, and stays open when that does not help', async () => {
    const { fetch, seen } = legacyServer(() => new Response('gone', { status: 404 }));
    const t = streamableHttp(URL_, { fetch });
    const s = open(t);
    t.send(request(0, 'initialize', { protocolVersion: '2025-11-25' }));
    await s.next();
    t.send(request(1, 'tools/list'));
    expect(await s.next()).toMatchObject({ id: 1, error: { code: -32601, data: { httpStatus: 404 } } });
    const posts = await Promise.all(
      seen.filter((r) => r.method === 'POST').map(async (r) => r.clone().json()),
    );
    const methods = posts.map((m) => (m as { method: string }).method);
    expect(methods).toEqual([
      'initialize',
      'tools/list',
      'initialize',
      'notifications/initialized',
      'tools/list',
    ]);
    expect(s.closed()).toBe(false);
    await t.close();
  });
});

describe('era detection over streamableHttp', () => {
  it.each([400, 404, 405])(
    'falls back to initialize when the modern probe gets a bare HTTP %i',
    async (status) => {
      const { fetch, seen } = fakeFetch(async (r) => {
        if (r.method !== 'POST') return new Response(null, { status: 405 });
        const body = (await r.json()) as { id?: number; method: string };
        if (body.method === 'server/discover') return new Response('Not Found', { status });
        if (body.method === 'initialize') {
          const result = {
            protocolVersion: '2025-11-25',
            capabilities: {},
            serverInfo: { name: 's', version: '1' },
          };
          return json({ jsonrpc: '2.0', id: body.id, result });
        }
        return new Response(null, { status: 202 });
      });
      const client = createClient({ name: 'c', version: '1' });
      await client.connect(streamableHttp(URL_, { fetch }));
      expect(client.era).toBe('legacy');
      expect(seen[0]?.headers.get('mcp-method')).toBe('server/discover');
      await client.close();
    },
  );
});

describe('an unreachable server', () => {
  it('is a local CONNECTION_CLOSED error naming the cause, not a server error', async () => {
    const refused = async (): Promise<Response> => {
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    };
    const client = createClient({ name: 't', version: '1' });
    const error = await client.connect(streamableHttp(URL_, { fetch: refused })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(String((error as Error).message)).toContain('could not reach http://mcp.test/mcp: ECONNREFUSED');
  });

  it('does not echo the password of a URL with credentials in the error', async () => {
    const client = createClient({ name: 't', version: '1' });
    const error = await client
      .connect(streamableHttp('http://alice:s3cret@127.0.0.1:1/mcp'))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(String((error as Error).message)).toContain('could not reach http://127.0.0.1:1/mcp');
    expect(String((error as Error).message)).not.toContain('s3cret');
  });
});
