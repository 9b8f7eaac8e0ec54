import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer, modernPost, readAll } from '../../../test/support/http-harness.js';
import { sendTo } from '../../../test/support/retarget.js';
import { mcpFastify } from './index.js';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function start(maxBodyBytes?: number): Promise<string> {
  const app = Fastify({ bodyLimit: 1024 });
  await app.register(mcpFastify(buildServer(), maxBodyBytes === undefined ? {} : { maxBodyBytes }), {
    prefix: '/tools/mcp',
  });
  app.post('/api', async (request) => ({ got: request.body }));
  apps.push(app);
  return app.listen({ port: 0, host: '127.0.0.1' });
}

const echo = (text: string): Request => modernPost('tools/call', { name: 'echo', arguments: { text } });

describe('mcpFastify', () => {
  it('serves MCP at the plugin prefix while the app keeps its JSON parser', async () => {
    const base = await start();
    const response = await sendTo(echo('hi'), `${base}/tools/mcp`);
    expect(await readAll(response, '2026-07-28')).toMatchObject([{ result: { content: [{ text: 'hi' }] } }]);
    const api = await fetch(`${base}/api`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await api.json()).toEqual({ got: { a: 1 } });
  });

  it("reads MCP bodies past Fastify's bodyLimit, up to maxBodyBytes (then 413)", async () => {
    const base = await start(4000);
    const big = await sendTo(echo('y'.repeat(2000)), `${base}/tools/mcp`);
    expect(await readAll(big, '2026-07-28')).toMatchObject([
      { result: { content: [{ text: 'y'.repeat(2000) }] } },
    ]);
    expect((await sendTo(echo('y'.repeat(5000)), `${base}/tools/mcp`)).status).toBe(413);
  });

  it('answers a wrong content type with the endpoint’s 415, and streams progress', async () => {
    const base = await start();
    const request = echo('x');
    request.headers.set('content-type', 'text/plain');
    const wrong = await sendTo(request, `${base}/tools/mcp`);
    expect(wrong.status).toBe(415);
    const progress = modernPost('tools/call', { name: 'progress', _meta: { progressToken: 1 } });
    expect(await readAll(await sendTo(progress, `${base}/tools/mcp`), '2026-07-28')).toHaveLength(4);
  });
});
