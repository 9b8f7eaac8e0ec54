import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '../../server/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { createClient, type Client } from '../index.js';
import { streamableHttp } from './index.js';
import { retryDelayMs } from './retry.js';

let served: Served | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await served?.close();
  client = served = undefined;
});

/** A real server that lets each client address make one request per second (no burst). */
async function throttled(): Promise<Served> {
  const server = createServer({ name: 'throttled', version: '1' });
  server.tool('echo', { inputSchema: { type: 'object' } }, (args) => String(args.text));
  return (served = await serve(server, {
    port: 0,
    http: { principals: { requestsPerSecond: 1, burst: 1 } },
  }));
}

async function connected(retry?: { maxRetries?: number; maxDelayMs?: number }): Promise<Client> {
  const { url } = await throttled();
  client = createClient({ name: 'c', version: '1' });
  await client.connect(streamableHttp(url, retry ? { retry } : {}));
  return client;
}

describe('429 Too Many Requests', () => {
  it('the client waits for Retry-After and sends again: every call succeeds', async () => {
    const c = await connected();
    const started = performance.now();
    const texts = [];
    for (const text of ['a', 'b']) texts.push((await c.callTool('echo', { text })).content);
    expect(texts).toEqual([[{ type: 'text', text: 'a' }], [{ type: 'text', text: 'b' }]]);
    // The server refused at least once and asked for 1 s: the client honoured it.
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('with retries off, the call fails with the server JSON-RPC error naming the limit', async () => {
    const c = await connected({ maxRetries: 0 });
    await c.callTool('echo', { text: 'a' }).catch(() => undefined);
    await expect(c.callTool('echo', { text: 'b' })).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining('Too Many Requests'),
    });
  });

  it('a Retry-After longer than maxDelayMs fails at once instead of waiting', async () => {
    const c = await connected({ maxDelayMs: 100 });
    await c.callTool('echo', { text: 'a' }).catch(() => undefined);
    const started = performance.now();
    await expect(c.callTool('echo', { text: 'b' })).rejects.toMatchObject({ code: -32600 });
    expect(performance.now() - started).toBeLessThan(900);
  });

  it.each([
    [{ 'retry-after': '3' }, 0, 3000],
    [{ 'retry-after': new Date(Date.UTC(2030, 0, 1, 0, 0, 5)).toUTCString() }, 0, 5000],
    [{}, 0, 1000],
    [{}, 2, 4000],
  ])('Retry-After %j on attempt %i → %i ms', (headers, attempt, ms) => {
    const response = new Response(null, { status: 429, headers });
    expect(retryDelayMs(response, attempt, Date.UTC(2030, 0, 1))).toBe(ms);
  });
});
