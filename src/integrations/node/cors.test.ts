/**
 * The endpoint's `cors` option through every way it is served: `serve()`, Express, Hono
 * (on @hono/node-server) and Fastify, over real sockets: the preflight gets 204 (403 for
 * an origin not listed), and a call carries `Access-Control-Allow-Origin`.
 */
import type { Server } from 'node:http';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { serve as honoServe } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer, modernPost, readAll } from '../../../test/support/http-harness.js';
import { baseUrl, sendTo } from '../../../test/support/retarget.js';
import type { HttpHandlerOptions } from '../../server/http/index.js';
import { mcpExpress } from '../express/index.js';
import { mcpFastify } from '../fastify/index.js';
import { mcpHono } from '../hono/index.js';
import { serve } from './index.js';

const APP = 'http://localhost:5173';
const options: HttpHandlerOptions = { keepAliveMs: 0, cors: { origins: [APP] } };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function closing(server: Server, close: () => void): void {
  cleanups.push(() => {
    close();
    server.closeAllConnections();
    server.close();
  });
}

const ways: [string, () => Promise<string>][] = [
  [
    'serve()',
    async () => {
      const served = await serve(buildServer(), { port: 0, http: options });
      cleanups.push(() => served.close());
      return served.url;
    },
  ],
  [
    'mcpExpress',
    async () => {
      const mcp = mcpExpress(buildServer(), options);
      const app = express().all('/mcp', mcp);
      const server = await new Promise<Server>((resolve) => {
        const s = app.listen(0, '127.0.0.1', () => resolve(s));
      });
      closing(server, mcp.close);
      return `${baseUrl(server.address())}/mcp`;
    },
  ],
  [
    'mcpHono',
    async () => {
      const mcp = mcpHono(buildServer(), options);
      const app = new Hono().all('/mcp', mcp);
      const server = await new Promise<Server>((resolve) => {
        const s = honoServe({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server));
      });
      closing(server, mcp.close);
      return `${baseUrl(server.address())}/mcp`;
    },
  ],
  [
    'mcpFastify',
    async () => {
      const app = Fastify();
      await app.register(mcpFastify(buildServer(), options), { prefix: '/mcp' });
      cleanups.push(() => app.close());
      return `${await app.listen({ port: 0, host: '127.0.0.1' })}/mcp`;
    },
  ],
];

const preflight = (url: string, origin: string) =>
  fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'mcp-name',
    },
  });

describe.each(ways)('cors through %s', (_name, start) => {
  it('answers the preflight (403 for an origin not listed) and marks the call', async () => {
    const url = await start();
    const allowed = await preflight(url, APP);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(APP);
    expect(allowed.headers.get('access-control-allow-headers')).toBe('mcp-name');
    expect((await preflight(url, 'http://evil.example')).status).toBe(403);
    const call = modernPost('tools/call', { name: 'echo', arguments: { text: 'hi' } });
    const headers = new Headers(call.headers);
    headers.set('origin', APP);
    const response = await sendTo(call, url, { headers });
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-expose-headers')).toContain('Mcp-Session-Id');
    expect(await readAll(response, '2026-07-28')).toMatchObject([{ result: { content: [{ text: 'hi' }] } }]);
  });
});
