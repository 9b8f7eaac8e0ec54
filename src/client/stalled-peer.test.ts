/**
 * A peer that accepts the connection and then stalls (before the headers, with no body,
 * halfway through the body, or in an open SSE stream) cannot hold the client: Server Card
 * fetches, Streamable HTTP requests and POSTed notifications, the legacy session's DELETE
 * and HTTP+SSE POSTs each end with an error naming the URL and the bound, while other
 * requests of the same client go on; a peer that crashes mid-body is reported.
 * Fake timers move the bounds on once the stalled server got the request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  STALLS,
  stallingServer,
  type Stall,
  type StallingServer,
} from '../../test/support/stalling-server.js';
import { deferred, turns, until } from '../../test/support/wait.js';
import type { TransportSink } from '../core/index.js';
import { serve, type Served } from '../integrations/node/index.js';
import { createServer } from '../server/index.js';
import { createClient, fetchServerCard, sseTransport, streamableHttp } from './index.js';

const open: Array<{ close(): Promise<void> }> = [];
beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
afterEach(() => void vi.useRealTimers());
afterAll(async () => {
  for (const s of open) await s.close();
});

async function stalled(
  stall: Stall,
  route?: (req: IncomingMessage, res: ServerResponse) => boolean,
): Promise<StallingServer> {
  const server = await stallingServer(stall, route);
  open.push(server);
  return server;
}

async function passBound(server: StallingServer, ms: number, n = 1): Promise<void> {
  await until(() => server.stalled >= n);
  await turns(5);
  vi.advanceTimersByTime(ms);
}

/** A sink that records frames, warnings aside, and says when the transport closed and why. */
function recorder(): TransportSink & { frames: string[]; ended: Promise<Error | undefined> } {
  const ended = deferred<Error | undefined>();
  const frames: string[] = [];
  return {
    frames,
    ended: ended.promise,
    frame: (f: string) => void frames.push(f),
    closed: (e?: Error) => ended.resolve(e),
  };
}

/** An HTTP+SSE server: the GET gives the endpoint, POSTs go to `post` (which may answer on the stream). */
async function sseServer(
  stall: Stall,
  post: (send: (message: object) => void, req: IncomingMessage, res: ServerResponse) => boolean,
): Promise<StallingServer> {
  let stream: ServerResponse | undefined;
  const send = (message: object): void => void stream?.write(`data: ${JSON.stringify(message)}\n\n`);
  return stalled(stall, (req, res) => {
    if (req.method !== 'GET') return post(send, req, res);
    stream = res;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: endpoint\ndata: /messages\n\n');
    return true;
  });
}

describe.each(STALLS)('a peer that stalls (%s)', (stall) => {
  it('fails fetchServerCard with the URL and its timeoutMs', async () => {
    const server = await stalled(stall);
    const failure = fetchServerCard(`${server.base}/server-card`, { timeoutMs: 1000 }).catch(
      (e: unknown) => e,
    );
    await passBound(server, 1000);
    await expect(failure).resolves.toMatchObject({
      code: 'TIMEOUT',
      message: `${server.base}/server-card: no complete answer within 1000 ms`,
    });
  });

  it('fails an HTTP+SSE POST with the URL and 10000 ms, and the next POST goes out', async () => {
    let posts = 0;
    const server = await sseServer(stall, (send, req, res) => {
      if (++posts === 1) return false;
      res.writeHead(202).end();
      send({ jsonrpc: '2.0', id: 2, result: {} });
      return true;
    });
    const sink = recorder();
    const transport = sseTransport(`${server.base}/sse`);
    transport.start(sink);
    transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    transport.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await passBound(server, 10_000);
    await until(() => sink.frames.length === 2);
    const first = JSON.parse(sink.frames[0]!) as { id: number; error: { message: string } };
    expect(first.id).toBe(1);
    expect(first.error.message).toContain(`${server.base}/messages: no complete answer within 10000 ms`);
    expect(JSON.parse(sink.frames[1]!)).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    await transport.close();
  });
});

describe('Streamable HTTP with one stalled exchange', () => {
  it('warns about a POSTed notification never answered, with the URL and 10000 ms', async () => {
    const server = await stalled('headers');
    const warned = deferred<string>();
    const transport = streamableHttp(`${server.base}/mcp`, { onWarning: warned.resolve });
    transport.start(recorder());
    transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 1 } });
    await passBound(server, 10_000);
    expect(await warned.promise).toBe(
      `notifications/message: ${server.base}/mcp: no complete answer within 10000 ms`,
    );
    await transport.close();
  });

  it("fails the stalled call at its timeoutMs while the client's other calls are answered", async () => {
    const mcp = createServer({ name: 's', version: '1' });
    mcp.tool('echo', { inputSchema: { type: 'object' } }, () => 'ok');
    const served: Served = await serve(mcp, { port: 0 });
    open.push(served);
    const silent = await stalled('sse');
    // Every tools/call goes to the stalled server; everything else to the real one.
    const routed: typeof fetch = (input, init) => {
      const method = new Headers(init?.headers).get('mcp-method');
      return fetch(method === 'tools/call' ? `${silent.base}/mcp` : input, init);
    };
    const client = createClient({ name: 'c', version: '1', timeoutMs: 2000 });
    vi.useRealTimers();
    await client.connect(streamableHttp(served.url, { fetch: routed }));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stuck = client.callTool('echo', {}).catch((e: unknown) => e);
    await until(() => silent.stalled >= 1);
    await expect(client.listTools()).resolves.toMatchObject([{ name: 'echo' }]);
    await passBound(silent, 2000);
    await expect(stuck).resolves.toMatchObject({ code: 'TIMEOUT' });
    vi.useRealTimers();
    await client.close();
  });

  it("ends close() when the legacy session's DELETE stalls, after 5000 ms", async () => {
    const server = await stalled('headers', (req, res) => {
      if (req.method === 'DELETE') return false;
      if (req.method === 'GET') return (void res.writeHead(405).end(), true);
      const result = {
        protocolVersion: '2025-11-25',
        capabilities: {},
        serverInfo: { name: 's', version: '1' },
      };
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result }));
      return true;
    });
    const sink = recorder();
    const transport = streamableHttp(`${server.base}/mcp`);
    transport.start(sink);
    const params = {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    };
    transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params });
    await until(() => sink.frames.length === 1);
    const closed = transport.close();
    await passBound(server, 5000);
    await closed;
    expect(await sink.ended).toBeUndefined();
  });
});

describe('an HTTP+SSE server that never answers the GET', () => {
  it('closes the transport with the URL and 10000 ms', async () => {
    const server = await stalled('headers');
    const sink = recorder();
    sseTransport(`${server.base}/sse`).start(sink);
    await passBound(server, 10_000);
    expect(await sink.ended).toMatchObject({
      code: 'TIMEOUT',
      message: `${server.base}/sse: no complete answer within 10000 ms`,
    });
  });
});

describe('a peer that crashes mid-body', () => {
  it('is reported by fetchServerCard, not waited on', async () => {
    const server = await stalled('reset');
    await expect(fetchServerCard(`${server.base}/server-card`)).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
    });
  });

  it('closes an HTTP+SSE transport whose stream breaks, with why', async () => {
    const server = await stalled('headers', (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: endpoint\ndata: /messages\n\n', () => res.socket?.destroy());
      return true;
    });
    const sink = recorder();
    sseTransport(`${server.base}/sse`).start(sink);
    expect(await sink.ended).toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('fails the Streamable HTTP call it was answering', async () => {
    const server = await stalled('reset', (req, res) => {
      if (req.headers['mcp-method'] === 'tools/call') return false;
      res.writeHead(404).end();
      return true;
    });
    const sink = recorder();
    const transport = streamableHttp(`${server.base}/mcp`);
    transport.start(sink);
    const call = { jsonrpc: '2.0' as const, id: 9, method: 'tools/call', params: { name: 'x' } };
    transport.send(call, { modernVersion: '2026-07-28' });
    await until(() => sink.frames.length === 1);
    expect(sink.frames[0]).toContain('"id":9');
    await transport.close();
  });
});
