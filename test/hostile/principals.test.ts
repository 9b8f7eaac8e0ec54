/**
 * Per-principal bounds on the HTTP endpoint: one client flooding requests, holding many
 * streams or opening many legacy sessions gets 429 with Retry-After, while another client
 * keeps being served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHandler, type HttpHandler } from '../../src/server/http/index.js';
import { serve, type Served } from '../../src/integrations/node/index.js';
import { createServer } from '../../src/server/index.js';
import { buildServer, modernBody, modernHeaders, modernPost, post, until } from '../support/http-harness.js';
import { bounded } from '../support/watchdog.js';

const echo = (text: string) => modernPost('tools/call', { name: 'echo', arguments: { text } });

async function statusOf(response: Response): Promise<number> {
  await response.body?.cancel();
  return response.status;
}

describe('requests per second, per principal', () => {
  const handler = createHttpHandler(buildServer(), { principals: { requestsPerSecond: 1, burst: 3 } });
  afterAll(() => handler?.close());

  it('a flood from one address gets 429 with Retry-After and a -32600 body; another address is served', async () => {
    const { value: statuses } = await bounded({ withinMs: 5000 }, () =>
      Promise.all(
        Array.from({ length: 20 }, () => handler(echo('x'), { remoteAddress: '10.0.0.1' }).then(statusOf)),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
    const refused = await handler(echo('x'), { remoteAddress: '10.0.0.1' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.stringContaining('requestsPerSecond') },
    });
    const other = await handler(echo('still here'), { remoteAddress: '10.0.0.2' });
    expect(other.status).toBe(200);
    expect(await other.json()).toMatchObject({ result: { content: [{ text: 'still here' }] } });
  });

  it('an unidentified caller (no address, no auth) is held only to the global bounds', async () => {
    const statuses = await Promise.all(Array.from({ length: 6 }, () => handler(echo('x')).then(statusOf)));
    expect(statuses.every((s) => s === 200)).toBe(true);
  });
});

describe('requests in progress, per principal', () => {
  const handler = createHttpHandler(buildServer(), {
    principals: {
      maxConcurrentRequests: 2,
      maxQueuedRequests: 0,
      principal: (r) => r.headers.get('x-tenant') ?? undefined,
    },
  });
  afterAll(() => handler?.close());
  const wait = (tenant: string, signal?: AbortSignal) =>
    handler(
      modernPost(
        'tools/call',
        { name: 'wait', arguments: {}, _meta: { progressToken: tenant } },
        { 'x-tenant': tenant },
        { signal: signal ?? null },
      ),
    );

  it('open SSE streams count until they end; the third is 429 and frees up once one closes', async () => {
    const first = new AbortController();
    const streams = [await wait('a', first.signal), await wait('a')];
    expect(streams.map((r) => r.headers.get('content-type'))).toEqual([
      'text/event-stream',
      'text/event-stream',
    ]);
    const third = await wait('a');
    expect(third.status).toBe(429);
    expect(await third.text()).toContain('maxConcurrentRequests');
    const otherTenant = await handler(
      modernPost('tools/call', { name: 'echo', arguments: { text: 'b' } }, { 'x-tenant': 'b' }),
    );
    expect(otherTenant.status).toBe(200);
    await streams[0]!.body!.cancel();
    first.abort();
    let again: Response | undefined;
    await until(async () => {
      again = await handler(
        modernPost('tools/call', { name: 'echo', arguments: { text: 'a' } }, { 'x-tenant': 'a' }),
      );
      return again.status === 200;
    });
    expect(await again!.json()).toMatchObject({ result: { content: [{ text: 'a' }] } });
    await streams[1]!.body!.cancel();
  });
});

describe('legacy sessions, per principal', () => {
  let handler: HttpHandler;
  beforeAll(() => {
    handler = createHttpHandler(buildServer(), { maxSessions: 10, principals: { maxSessions: 2 } });
  });
  afterAll(() => handler?.close());
  const init = (address: string) =>
    handler(
      post(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'c', version: '1' },
          },
        },
        { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      ),
      { remoteAddress: address },
    );

  it('a third session from one address is 429 naming the limit; another address still opens one; DELETE frees a slot', async () => {
    const opened = [await init('10.1.1.1'), await init('10.1.1.1')];
    expect(opened.map((r) => r.status)).toEqual([200, 200]);
    const refused = await init('10.1.1.1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.json()).toMatchObject({
      id: 1,
      error: { message: expect.stringContaining('principals.maxSessions') },
    });
    expect((await init('10.1.1.2')).status).toBe(200);
    const id = opened[0]!.headers.get('mcp-session-id')!;
    const deleted = await handler(
      new Request('http://localhost:3000/mcp', { method: 'DELETE', headers: { 'mcp-session-id': id } }),
      { remoteAddress: '10.1.1.1' },
    );
    expect(deleted.status).toBe(200);
    expect((await init('10.1.1.1')).status).toBe(200);
  });
});

describe('serve() keys anonymous callers by their address', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve(buildServer(), {
      port: 0,
      http: { principals: { requestsPerSecond: 1, burst: 2 } },
    });
  });
  afterAll(() => served?.close());

  it('a flood over a real socket gets 429 with Retry-After', async () => {
    const body = modernBody('tools/call', { name: 'echo', arguments: { text: 'x' } });
    const send = () =>
      fetch(served.url, { method: 'POST', headers: modernHeaders(body), body: JSON.stringify(body) }).then(
        statusOf,
      );
    const statuses = await Promise.all(Array.from({ length: 8 }, send));
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
  });
});

describe('listen streams per principal over HTTP', () => {
  it('a second listen stream of one tenant is 429 with Retry-After; another tenant listens', async () => {
    const server = createServer({ name: 'l', version: '1', limits: { maxListenStreamsPerPrincipal: 1 } });
    server.tool('t', {}, () => 't');
    const handler = createHttpHandler(server, {
      principals: { principal: (r) => r.headers.get('x-tenant') ?? undefined },
    });
    const listen = (tenant: string) =>
      handler(
        modernPost(
          'subscriptions/listen',
          { notifications: { toolsListChanged: true } },
          { 'x-tenant': tenant },
        ),
      );
    const first = await listen('a');
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    const second = await listen('a');
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(await second.json()).toMatchObject({
      error: { code: -32600, message: expect.stringContaining('maxListenStreamsPerPrincipal') },
    });
    const other = await listen('b');
    expect(other.headers.get('content-type')).toBe('text/event-stream');
    await Promise.all([first.body!.cancel(), other.body!.cancel()]);
    handler.close();
  });
});
