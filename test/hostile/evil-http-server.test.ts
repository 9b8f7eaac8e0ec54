/**
 * A scripted hostile Streamable HTTP server (node:http, in this process) against mcpkit's
 * client: SSE that drips or never ends, bodies and events without end. Each case asserts a
 * time bound under a watchdog, the specific error, and that a normal call still works.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, streamableHttp, type Client } from '../../src/client/index.js';
import { until } from '../support/wait.js';
import { bounded } from '../support/watchdog.js';

type Message = { id?: number; method: string; params?: { name?: string } };
const streams = new Set<ServerResponse>();

function json(res: ServerResponse, id: number | undefined, result: Record<string, unknown>): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', ...result } }));
}

/** Writes `chunk` every `ms` until the client goes away. */
function drip(res: ServerResponse, contentType: string, chunk: string, ms: number): void {
  res.writeHead(200, { 'content-type': contentType });
  streams.add(res);
  const timer = setInterval(() => res.write(chunk), ms);
  res.on('close', () => {
    clearInterval(timer);
    streams.delete(res);
  });
}

const tools: Record<string, (res: ServerResponse, m: Message) => void> = {
  echo: (res, m) => json(res, m.id, { content: [{ type: 'text', text: 'still here' }] }),
  drip: (res) => {
    drip(res, 'text/event-stream', 'd', 20);
    res.write('data: {"jsonrpc":"2.0",');
  },
  endless: (res) => drip(res, 'text/event-stream', ': keep-alive\n\n', 20),
  'huge-json': (res) => drip(res, 'application/json', `[${'0,'.repeat(32 * 1024)}`, 1),
  'huge-event': (res) => {
    drip(res, 'text/event-stream', 'x'.repeat(64 * 1024), 1);
    res.write('data: ');
  },
};

function answer(req: IncomingMessage, res: ServerResponse, body: string): void {
  const m = JSON.parse(body) as Message;
  if (m.id === undefined) return void res.writeHead(202).end();
  if (m.method === 'server/discover') {
    return json(res, m.id, {
      supportedVersions: ['2026-07-28'],
      capabilities: { tools: {} },
      ttlMs: 0,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'evil-http', version: '6.6.6' } },
    });
  }
  if (m.method === 'tools/list') {
    const list = Object.keys(tools).map((name) => ({ name, inputSchema: { type: 'object' } }));
    return json(res, m.id, { tools: list, ttlMs: 0, cacheScope: 'public' });
  }
  const tool = tools[m.params?.name ?? ''];
  if (m.method === 'tools/call' && tool) return tool(res, m);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'not found' } }));
}

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => answer(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function connectEvil(): Promise<Client> {
  const client = createClient({ name: 'victim', version: '1.0.0', era: 'modern' });
  open.push(client);
  await client.connect(streamableHttp(url, { maxMessageBytes: 1024 * 1024 }));
  return client;
}

async function stillWorks(client: Client): Promise<void> {
  const result = await client.callTool('echo');
  expect(result.content).toEqual([{ type: 'text', text: 'still here' }]);
}

describe('a hostile HTTP server cannot hang or exhaust the client', () => {
  it('an SSE response dripping one byte at a time times out and its stream is closed', async () => {
    const client = await connectEvil();
    await bounded({ withinMs: 5000 }, () =>
      expect(client.callTool('drip', {}, { timeoutMs: 400 })).rejects.toMatchObject({ code: 'TIMEOUT' }),
    );
    await bounded({ withinMs: 3000 }, () => until(() => streams.size === 0, 3000));
    await stillWorks(client);
  });

  it('an SSE response that never ends (keep-alives only) times out', async () => {
    const client = await connectEvil();
    await bounded({ withinMs: 5000 }, () =>
      expect(client.callTool('endless', {}, { timeoutMs: 400 })).rejects.toMatchObject({ code: 'TIMEOUT' }),
    );
    await stillWorks(client);
  });

  it('a JSON body without end fails the call once it passes maxMessageBytes', async () => {
    const client = await connectEvil();
    await bounded({ withinMs: 5000 }, () =>
      expect(client.callTool('huge-json')).rejects.toThrow(/larger than 1048576 bytes \(maxMessageBytes\)/),
    );
    await stillWorks(client);
  });

  it('an SSE event without end fails the call once it passes maxMessageBytes', async () => {
    const client = await connectEvil();
    await bounded({ withinMs: 5000 }, () =>
      expect(client.callTool('huge-event')).rejects.toThrow(/larger than 1048576 bytes \(maxMessageBytes\)/),
    );
    await stillWorks(client);
  });
});
