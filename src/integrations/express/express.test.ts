import type { Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer, modernPost, readAll } from '../../../test/support/http-harness.js';
import { baseUrl, sendTo } from '../../../test/support/retarget.js';
import { mcpExpress } from './index.js';

const open: { server: Server; close: () => void }[] = [];
afterEach(() => {
  for (const { server, close } of open.splice(0)) {
    close();
    server.closeAllConnections();
    server.close();
  }
});

async function listen(app: express.Express, close: () => void): Promise<string> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  open.push({ server, close });
  return baseUrl(server.address());
}

const echo = (text: string): Request => modernPost('tools/call', { name: 'echo', arguments: { text } });

describe('mcpExpress', () => {
  it('serves MCP at a mounted path before the body parser, and the app keeps its JSON routes', async () => {
    const mcp = mcpExpress(buildServer());
    const app = express();
    app.all('/tools/mcp', mcp);
    app.use(express.json());
    app.post('/api', (req, res) => void res.json({ got: req.body }));
    const base = await listen(app, mcp.close);
    const response = await sendTo(echo('hi'), `${base}/tools/mcp`);
    expect(await readAll(response, '2026-07-28')).toMatchObject([{ result: { content: [{ text: 'hi' }] } }]);
    const api = await fetch(`${base}/api`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await api.json()).toEqual({ got: { a: 1 } });
  });

  it('uses the body express.json() already parsed, still bounded by maxBodyBytes', async () => {
    const mcp = mcpExpress(buildServer(), { maxBodyBytes: 400 });
    const app = express();
    app.use(express.json());
    app.all('/mcp', mcp);
    const base = await listen(app, mcp.close);
    const small = await sendTo(echo('parsed'), `${base}/mcp`);
    expect(await readAll(small, '2026-07-28')).toMatchObject([{ result: { content: [{ text: 'parsed' }] } }]);
    const large = await sendTo(echo('x'.repeat(500)), `${base}/mcp`);
    expect(large.status).toBe(413);
  });

  it('refuses a body over maxBodyBytes read from the stream with 413', async () => {
    const mcp = mcpExpress(buildServer(), { maxBodyBytes: 400 });
    const app = express();
    app.all('/mcp', mcp);
    const base = await listen(app, mcp.close);
    expect((await sendTo(echo('x'.repeat(500)), `${base}/mcp`)).status).toBe(413);
  });

  it('streams progress as SSE events', async () => {
    const mcp = mcpExpress(buildServer());
    const app = express();
    app.all('/mcp', mcp);
    const base = await listen(app, mcp.close);
    const request = modernPost('tools/call', { name: 'progress', _meta: { progressToken: 1 } });
    const response = await sendTo(request, `${base}/mcp`);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await readAll(response, '2026-07-28')).toHaveLength(4);
  });
});
