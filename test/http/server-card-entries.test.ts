/**
 * The Server Card from every HTTP entry point mcpkit has: the web handler, node `serve`,
 * Express, Hono, Fastify and the Cloudflare Worker each answer `<endpoint>/server-card`
 * with the same valid card, its ETag honoured with 304, while the MCP endpoint still works.
 */
import { createServer as createNodeServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from '../../src/server/index.js';
import { createHttpHandler, type HttpHandlerOptions } from '../../src/server/http/index.js';
import { serve } from '../../src/integrations/node/index.js';
import { mcpExpress } from '../../src/integrations/express/index.js';
import { mcpHono } from '../../src/integrations/hono/index.js';
import { mcpFastify } from '../../src/integrations/fastify/index.js';
import { createWorker } from '../../src/integrations/cloudflare/index.js';
import { createClient, discoverServerCard, fetchServerCard, streamableHttp } from '../../src/client/index.js';

const OPTIONS: HttpHandlerOptions = { serverCard: true };
const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

function definition() {
  const server = createServer({
    name: 'com.example/entries',
    version: '1.0.0',
    description: 'One card everywhere.',
  });
  server.tool('ping', () => 'pong');
  return server;
}

async function listening(node: Server): Promise<string> {
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => (node.closeAllConnections(), node.close(resolve))));
  return `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
}

/** A fetch function served on loopback node:http, for the entry points that are fetch handlers. */
async function fetchOnLoopback(handle: (request: Request) => Promise<Response>): Promise<string> {
  const { toNodeListener } = await import('../../src/integrations/node/index.js');
  return listening(createNodeServer(toNodeListener(handle)));
}

const ENTRIES: Record<string, () => Promise<string>> = {
  'web handler': async () => `${await fetchOnLoopback(createHttpHandler(definition(), OPTIONS))}/mcp`,
  'node serve': async () => {
    const served = await serve(definition(), { port: 0, http: OPTIONS });
    closers.push(() => served.close());
    return served.url;
  },
  express: async () => {
    const app = express();
    const mcp = mcpExpress(definition(), OPTIONS);
    app.all(['/mcp', '/mcp/server-card', '/.well-known/mcp/server-card.json'], mcp);
    closers.push(() => mcp.close());
    return `${await listening(createNodeServer(app))}/mcp`;
  },
  hono: async () => {
    const app = new Hono();
    const mcp = mcpHono(definition(), OPTIONS);
    app.all('/mcp', mcp).all('/mcp/server-card', mcp).all('/.well-known/mcp/server-card.json', mcp);
    closers.push(() => mcp.close());
    return `${await fetchOnLoopback((request) => Promise.resolve(app.fetch(request)))}/mcp`;
  },
  fastify: async () => {
    const app = Fastify();
    await app.register(mcpFastify(definition(), OPTIONS), { prefix: '/mcp' });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    return `${base}/mcp`;
  },
  'cloudflare worker': async () => {
    const worker = createWorker(definition(), { ...OPTIONS, allowedHosts: ['127.0.0.1'] });
    const ctx = { waitUntil: () => undefined };
    return `${await fetchOnLoopback((request) => worker.fetch(request, {}, ctx))}/mcp`;
  },
};

describe('the Server Card on every HTTP entry point', () => {
  for (const [entry, start] of Object.entries(ENTRIES)) {
    it(`${entry}: serves the card beside a working endpoint, with ETag and 304`, async () => {
      const endpoint = await start();
      const fetched = await fetchServerCard(`${endpoint}/server-card`);
      if (fetched.status !== 'ok') throw new Error('expected a card');
      expect(fetched.card.remotes?.[0]?.url).toBe(endpoint);
      expect(fetched.card.name).toBe('com.example/entries');
      const again = await fetchServerCard(`${endpoint}/server-card`, { etag: fetched.etag! });
      expect(again.status).toBe('not-modified');
      const client = createClient({ name: 't', version: '1' });
      await client.connect(streamableHttp(endpoint));
      expect((await client.listTools()).map((t) => t.name)).toEqual(['ping']);
      await client.close();
    });
  }

  // Fastify's plugin routes only under its prefix; the others serve the well-known path too.
  for (const [entry, start] of Object.entries(ENTRIES).filter(([name]) => name !== 'fastify')) {
    it(`${entry}: serves the same card at /.well-known/mcp/server-card.json, and discoverServerCard finds it`, async () => {
      const endpoint = await start();
      const wellKnown = await fetchServerCard(new URL('/.well-known/mcp/server-card.json', endpoint));
      if (wellKnown.status !== 'ok') throw new Error('expected a card');
      expect(wellKnown.card.remotes?.[0]?.url).toBe(endpoint);
      const found = await discoverServerCard(endpoint);
      expect(found).toMatchObject({ status: 'ok', url: `${endpoint}/server-card` });
    });
  }
});
