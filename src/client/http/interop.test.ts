/**
 * Our client over `streamableHttp()` against real servers on 127.0.0.1: the official v2
 * server (modern), the official v1 server (legacy, stateful, resumable) and our own.
 */
import { randomUUID } from 'node:crypto';
import {
  createServer as createNodeServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer as V1Server } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { McpServer as V2Server, createMcpHandler } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, type Client } from '../index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { buildServer, type Observed } from '../../../test/support/http-harness.js';
import { streamableHttp } from './index.js';
import { until } from '../../../test/support/wait.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function connect(
  url: string,
  options: Partial<Parameters<typeof createClient>[0]> = {},
): Promise<Client> {
  const client = createClient({
    name: 'interop',
    version: '1.0.0',
    handlers: { elicitation: async () => ({ action: 'accept', content: { name: 'Alice' } }) },
    ...options,
  });
  await client.connect(streamableHttp(url));
  cleanup.push(() => client.close());
  return client;
}

const textOf = (result: { content?: unknown }): string =>
  ((result.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('');

async function listen(server: Server): Promise<string> {
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

describe('against the official v2 server (modern)', () => {
  async function start(): Promise<string> {
    const handler = createMcpHandler(() => {
      const server = new V2Server({ name: 'v2', version: '2.4.0' });
      server.registerTool(
        'echo',
        { description: 'Echo', inputSchema: z.object({ text: z.string() }) },
        ({ text }) => ({
          content: [{ type: 'text', text }],
        }),
      );
      return server;
    });
    const served: Served = await serve((request) => handler.fetch(request), { port: 0 });
    cleanup.push(async () => {
      await handler.close();
      await served.close();
    });
    return served.url;
  }

  it('detects the modern era, lists tools and calls one', async () => {
    const client = await connect(await start());
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect((await client.listTools()).map((t) => t.name)).toEqual(['echo']);
    expect(textOf(await client.callTool('echo', { text: 'héllo' }))).toBe('héllo');
  });
});

describe('against the official v1 server (legacy, stateful)', () => {
  /** `seen` lists the requests the server received; the `reconnect` tool answers once a GET resumed. */
  function build(seen: string[]): V1Server {
    const server = new V1Server({ name: 'v1', version: '1.32.2' });
    server.registerTool('echo', { description: 'Echo', inputSchema: { text: z.string() } }, ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    server.registerTool('ask', { description: 'Elicits a name' }, async () => {
      const answer = await server.server.elicitInput({
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)}` }] };
    });
    server.registerTool('reconnect', { description: 'Closes its stream, then answers' }, async (extra) => {
      extra.closeSSEStream?.();
      await until(() => seen.some((s) => /^GET .+/.test(s)));
      return { content: [{ type: 'text', text: 'resumed' }] };
    });
    return server;
  }

  async function readJson(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
  }

  /** The README's sessionful wiring, with an event store so streams can be resumed. */
  async function start(seen: string[]): Promise<string> {
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      seen.push(`${req.method} ${req.headers['last-event-id'] ?? ''}`.trim());
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      const id = req.headers['mcp-session-id'];
      const existing = typeof id === 'string' ? sessions.get(id) : undefined;
      if (existing) return existing.handleRequest(req, res, body);
      if (!isInitializeRequest(body)) {
        const error = { code: -32000, message: 'Bad Request: No valid session ID provided' };
        res
          .writeHead(400, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error, id: null }));
        return;
      }
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new InMemoryEventStore(),
        retryInterval: 50,
        onsessioninitialized: (sid) => void sessions.set(sid, transport),
        onsessionclosed: (sid) => void sessions.delete(sid),
      });
      await build(seen).connect(transport);
      await transport.handleRequest(req, res, body);
    };
    return listen(
      createNodeServer((req, res) => void handle(req, res).catch(() => res.writeHead(500).end())),
    );
  }

  it('falls back to the legacy era after the refused probe, lists tools and calls one', async () => {
    const seen: string[] = [];
    const client = await connect(await start(seen));
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect((await client.listTools()).map((t) => t.name)).toEqual(['echo', 'ask', 'reconnect']);
    expect(textOf(await client.callTool('echo', { text: 'hi' }))).toBe('hi');
    await client.close();
    expect(seen.at(-1)).toBe('DELETE');
  });

  it('answers a server request on the request stream with a POST', async () => {
    const client = await connect(await start([]));
    expect(textOf(await client.callTool('ask', {}))).toBe('hello Alice');
  });

  it('resumes a stream the server closed, with Last-Event-ID', async () => {
    const seen: string[] = [];
    const client = await connect(await start(seen));
    expect(textOf(await client.callTool('reconnect', {}))).toBe('resumed');
    expect(seen.some((s) => /^GET .+/.test(s))).toBe(true);
  });
});

describe('against our own HTTP server (both eras on one endpoint)', () => {
  async function start(observed: Observed = { aborted: false }): Promise<string> {
    const served = await serve(buildServer(observed), { port: 0, http: { keepAliveMs: 0 } });
    cleanup.push(() => served.close());
    return served.url;
  }

  it('is modern by default and mirrors x-mcp-header parameters the server checks', async () => {
    const client = await connect(await start());
    expect(client.era).toBe('modern');
    const result = await client.callTool('sql', { region: 'Zürich', limit: 5, options: { dry: true } });
    expect(textOf(result)).toBe('ran');
  });

  it('cancels a modern call by closing its stream', async () => {
    const observed: Observed = { aborted: false };
    const client = await connect(await start(observed));
    const controller = new AbortController();
    const call = client.callTool(
      'wait',
      {},
      { signal: controller.signal, onprogress: () => controller.abort() },
    );
    await expect(call).rejects.toMatchObject({ code: 'ABORTED' });
    await expect.poll(() => observed.aborted).toBe(true);
  });

  it('speaks legacy when pinned, with server requests answered over POST', async () => {
    const client = await connect(await start(), { era: 'legacy' });
    expect(client.era).toBe('legacy');
    expect(textOf(await client.callTool('ask', {}))).toBe('hello Alice');
  });
});
