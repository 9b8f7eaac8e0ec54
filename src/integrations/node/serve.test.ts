import { request as nodeRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpHandler, type HttpHandlerOptions } from '../../server/http/index.js';
import {
  SseReader,
  buildServer,
  messagesOf,
  modernPost,
  readAll,
  until,
  type Observed,
} from '../../../test/support/http-harness.js';
import { serve, type Served } from './index.js';

const running: Served[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
});

async function start(observed: Observed = { aborted: false }): Promise<Served> {
  const served = await serve(buildServer(observed), { port: 0, http: { keepAliveMs: 0 } });
  running.push(served);
  return served;
}

/** Re-targets a built Request at the served URL (fetch sets Host itself). */
function toUrl(request: Request, url: string, init: RequestInit = {}): Request {
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    duplex: 'half',
    ...init,
  } as RequestInit);
}

describe('serve()', () => {
  it('listens on 127.0.0.1 at /mcp and answers a modern request', async () => {
    const { url } = await start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const response = await fetch(
      toUrl(modernPost('tools/call', { name: 'echo', arguments: { text: 'hi' } }), url),
    );
    expect(response.status).toBe(200);
    expect(await readAll(response, '2026-07-28')).toMatchObject([{ result: { content: [{ text: 'hi' }] } }]);
  });

  it('streams SSE events as they happen', async () => {
    const { url } = await start();
    const request = modernPost('tools/call', { name: 'progress', _meta: { progressToken: 1 } });
    const messages = await readAll(await fetch(toUrl(request, url)), '2026-07-28');
    expect(messages).toHaveLength(4);
  });

  it('aborts the request signal when the client disconnects', async () => {
    const observed: Observed = { aborted: false };
    const { url } = await start(observed);
    const controller = new AbortController();
    const request = modernPost('tools/call', { name: 'wait', _meta: { progressToken: 1 } });
    const response = await fetch(toUrl(request, url, { signal: controller.signal }));
    const reader = new SseReader(response);
    await reader.waitFor(1);
    expect(messagesOf(reader.events, '2026-07-28')).toHaveLength(1);
    controller.abort();
    await until(() => observed.aborted);
  });

  it('answers other paths with 404 and refuses foreign hosts', async () => {
    const { url } = await start();
    expect((await fetch(url.replace('/mcp', '/other'))).status).toBe(404);
    const evil = await fetch(
      toUrl(modernPost('server/discover'), url, { headers: { origin: 'http://evil.example.com' } }),
    );
    expect(evil.status).toBe(403);
  });

  it('serves a ready-made handler', async () => {
    const served = await serve(createHttpHandler(buildServer()), { port: 0, path: '/x' });
    running.push(served);
    expect(served.url.endsWith('/x')).toBe(true);
    expect((await fetch(served.url, { method: 'PUT' })).status).toBe(405);
  });
});

/** Status of a modern POST sent over a raw node request, so `Host` is exactly `headers.host`. */
async function rawStatus(url: string, headers: Record<string, string>): Promise<number> {
  const request = modernPost('server/discover');
  const body = await request.text();
  const all: Record<string, string> = {};
  request.headers.forEach((value, name) => (all[name] = value));
  Object.assign(all, headers);
  return new Promise((resolve, reject) => {
    const req = nodeRequest(url, { method: 'POST', headers: all }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('serve() and createHttpHandler()', () => {
  const cases: [string, Record<string, string>][] = [
    ['a loopback Host', { host: 'localhost:1' }],
    ['a foreign Host', { host: 'evil.example.com' }],
    ['a foreign Origin', { host: '127.0.0.1:1', origin: 'http://evil.example.com' }],
    ['a same-origin Origin on a foreign Host', { host: 'app.example.com', origin: 'http://app.example.com' }],
  ];
  const configs: [string, HttpHandlerOptions, number[]][] = [
    ['loopback defaults', {}, [200, 403, 403, 403]],
    ['a public bind address', { bindAddress: '192.0.2.1' }, [200, 200, 403, 200]],
    [
      'explicit lists',
      { allowedHosts: ['app.example.com'], allowedOrigins: ['http://app.example.com'] },
      [403, 403, 403, 200],
    ],
  ];

  it.each(configs)('give the same request the same answer (%s)', async (_name, http, expected) => {
    const served = await serve(buildServer(), { port: 0, http: { keepAliveMs: 0, ...http } });
    running.push(served);
    const handler = createHttpHandler(buildServer(), { keepAliveMs: 0, ...http });
    const answers: number[] = [];
    for (const [what, headers] of cases) {
      const request = modernPost('server/discover', {}, headers);
      const viaHandler = (await handler(new Request(`http://${headers.host}/mcp`, request))).status;
      expect([what, await rawStatus(served.url, headers)]).toEqual([what, viaHandler]);
      answers.push(viaHandler);
    }
    handler.close();
    expect(answers).toEqual(expected);
  });
});
