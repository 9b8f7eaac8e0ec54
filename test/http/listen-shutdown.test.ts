/**
 * Every close() path ends the listen streams it owns gracefully: the client holding an
 * acknowledged `subscriptions/listen` open gets the completion result (2026-07-28
 * basic/patterns/subscriptions "Graceful Closure"), then its stream ends, and the host's
 * own `http.Server.close()` finishes (a listen kept open would hold it forever).
 */
import { spawn } from 'node:child_process';
import { createServer as createNodeServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as serveHono } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { META, type JsonRpcMessage } from '../../src/core/index.js';
import { mcpExpress } from '../../src/integrations/express/index.js';
import { mcpFastify } from '../../src/integrations/fastify/index.js';
import { mcpHono } from '../../src/integrations/hono/index.js';
import { serve, toNodeListener } from '../../src/integrations/node/index.js';
import { createHttpHandler } from '../../src/server/http/index.js';
import { createGateway, createHost } from '../../src/host/index.js';
import { createServer, type McpServer } from '../../src/server/index.js';
import { CLI, ROOT } from '../support/cli.js';
import { messagesOf, modernBody, modernHeaders, SseReader } from '../support/http-harness.js';

/** A running host of one MCP endpoint and the shutdown its docs prescribe. */
interface Hosted {
  url: string;
  shutdown(): Promise<void>;
}

function listenOn(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`),
    ),
  );
}

const closed = (server: Server): Promise<void> =>
  new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));

const HOSTS: Record<string, (server: McpServer) => Promise<Hosted>> = {
  'createHttpHandler(...).close()': async (server) => {
    const handler = createHttpHandler(server);
    const http = createNodeServer(toNodeListener(handler));
    const url = await listenOn(http);
    return { url, shutdown: async () => (await handler.close(), await closed(http)) };
  },
  'serve(server).close()': async (server) => {
    const served = await serve(server, { port: 0 });
    return { url: served.url, shutdown: () => served.close() };
  },
  'toNodeListener(server).close()': async (server) => {
    const listener = toNodeListener(server);
    const http = createNodeServer(listener);
    const url = await listenOn(http);
    return { url, shutdown: async () => (await listener.close(), await closed(http)) };
  },
  'mcpExpress: await mcp.close(), then httpServer.close()': async (server) => {
    const mcp = mcpExpress(server);
    const app = express();
    app.all('/mcp', mcp);
    const http = createNodeServer(app);
    const url = await listenOn(http);
    return { url, shutdown: async () => (await mcp.close(), await closed(http)) };
  },
  'mcpHono on @hono/node-server': async (server) => {
    const mcp = mcpHono(server);
    const app = new Hono().all('/mcp', mcp);
    const http = await new Promise<Server>((resolve) => {
      const s = serveHono({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
    });
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    return { url, shutdown: async () => (await mcp.close(), await closed(http)) };
  },
  'mcpFastify: app.close()': async (server) => {
    const app = Fastify();
    await app.register(mcpFastify(server), { prefix: '/mcp' });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    return { url: `${address}/mcp`, shutdown: () => app.close() };
  },
};

function buildServer(): McpServer {
  const server = createServer({ name: 'shutdown', version: '1' });
  server.tool('echo', {}, () => 'hi');
  return server;
}

/** Opens a listen for tool list changes and waits for its acknowledgment. */
async function openListen(url: string, id = 7): Promise<SseReader> {
  const body = modernBody('subscriptions/listen', { notifications: { toolsListChanged: true } }, id);
  const response = await fetch(url, {
    method: 'POST',
    headers: modernHeaders(body),
    body: JSON.stringify(body),
  });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = new SseReader(response);
  await reader.waitFor(1);
  return reader;
}

const completion = (id: number): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id,
  result: { resultType: 'complete', _meta: { [META.subscriptionId]: id } },
});

let running: Hosted | undefined;
afterEach(async () => {
  await running?.shutdown().catch(() => undefined);
  running = undefined;
});

describe('close() with an acknowledged listen open', () => {
  for (const [name, host] of Object.entries(HOSTS)) {
    it(`${name} answers the listen with its completion result and the http server closes`, async () => {
      const hosted = (running = await host(buildServer()));
      const reader = await openListen(hosted.url);
      await hosted.shutdown();
      running = undefined;
      await reader.finished();
      const messages = messagesOf(reader.events, '2026-07-28');
      expect(messages[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
      expect(messages.at(-1)).toMatchObject(completion(7));
    });
  }
});

describe('SIGTERM to `mcpkit serve everything --port 0`', () => {
  it('answers an open listen with its completion result, then exits 0', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', 'everything', '--port', '0'], { cwd: ROOT });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve) =>
        child.stderr.on('data', (chunk: Buffer) => {
          const found = /http:\/\/\S+\/mcp/.exec(chunk.toString());
          if (found) resolve(found[0]);
        }),
      );
      const reader = await openListen(url, 11);
      child.kill('SIGTERM');
      await reader.finished();
      expect(messagesOf(reader.events, '2026-07-28').at(-1)).toMatchObject(completion(11));
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('gateway.close()', () => {
  it('answers the listen of a gateway client with its completion result', async () => {
    const backend = await serve(buildServer(), { port: 0 });
    const host = createHost({ servers: { one: { url: backend.url } } });
    await host.start();
    const gateway = createGateway(host);
    const front = await serve(gateway.server, { port: 0 });
    try {
      const reader = await openListen(front.url, 12);
      gateway.close();
      await reader.finished();
      expect(messagesOf(reader.events, '2026-07-28').at(-1)).toMatchObject(completion(12));
    } finally {
      await front.close();
      await host.close();
      await backend.close();
    }
  });
});
