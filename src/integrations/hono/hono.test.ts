import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { describe, expect, it } from 'vitest';
import { buildServer, modernPost, readAll } from '../../../test/support/http-harness.js';
import { mcpHono } from './index.js';

const echo = (text: string, url = 'http://localhost/mcp'): Request => {
  const built = modernPost('tools/call', { name: 'echo', arguments: { text } });
  return new Request(url, {
    method: 'POST',
    headers: built.headers,
    body: built.body,
    duplex: 'half',
  } as RequestInit);
};

describe('mcpHono', () => {
  it('serves MCP at a mounted path of a Hono app', async () => {
    const mcp = mcpHono(buildServer());
    const app = new Hono().all('/v1/mcp', mcp);
    const response = await app.fetch(echo('hi', 'http://localhost/v1/mcp'));
    expect(await readAll(response, '2026-07-28')).toMatchObject([{ result: { content: [{ text: 'hi' }] } }]);
    mcp.close();
  });

  it('still serves a request whose body a middleware already read', async () => {
    const mcp = mcpHono(buildServer());
    const seen: unknown[] = [];
    const app = new Hono();
    app.use('/mcp', async (c, next) => {
      seen.push(await c.req.json());
      await next();
    });
    app.all('/mcp', mcp);
    const response = await app.fetch(echo('twice read'));
    expect(seen).toMatchObject([{ method: 'tools/call' }]);
    expect(await readAll(response, '2026-07-28')).toMatchObject([
      { result: { content: [{ text: 'twice read' }] } },
    ]);
    mcp.close();
  });

  it('refuses a body over maxBodyBytes, or over a bodyLimit middleware in front', async () => {
    const mcp = mcpHono(buildServer(), { maxBodyBytes: 400 });
    const app = new Hono();
    app.use('/limited', bodyLimit({ maxSize: 300 }));
    app.all('/mcp', mcp).all('/limited', mcp);
    expect((await app.fetch(echo('x'.repeat(500)))).status).toBe(413);
    expect((await app.fetch(echo('x'.repeat(350), 'http://localhost/limited'))).status).toBe(413);
    mcp.close();
  });
});
