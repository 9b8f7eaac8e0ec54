import { describe, expect, it } from 'vitest';
import { WireError } from '../../core/index.js';
import { createServer } from '../index.js';
import { createHttpHandler } from './index.js';
import {
  SseReader,
  buildServer,
  checked,
  errorOf,
  messagesOf,
  modernBody,
  modernHeaders,
  modernPost,
  post,
  readAll,
  until,
  type Observed,
} from '../../../test/support/http-harness.js';

const REV = '2026-07-28';

function setup() {
  const observed: Observed = { aborted: false };
  return { handler: createHttpHandler(buildServer(observed), { keepAliveMs: 0 }), observed };
}

describe('modern POST', () => {
  it('answers a request with JSON carrying resultType', async () => {
    const { handler } = setup();
    const response = await handler(modernPost('tools/call', { name: 'echo', arguments: { text: 'hi' } }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const [message] = await readAll(response, REV);
    expect(message).toMatchObject({ id: 1, result: { resultType: 'complete', content: [{ text: 'hi' }] } });
  });

  it('streams progress notifications first and the final response last', async () => {
    const { handler } = setup();
    const request = modernPost('tools/call', { name: 'progress', _meta: { progressToken: 'p1' } });
    const response = await handler(request);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const messages = await readAll(response, REV);
    expect(messages.map((m) => ('method' in m ? m.method : 'response'))).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'response',
    ]);
    expect(messages[3]).toMatchObject({ result: { resultType: 'complete' } });
  });

  it('streams log messages when the request sets a log level', async () => {
    const { handler } = setup();
    const request = modernPost('tools/call', {
      name: 'logger',
      _meta: { 'io.modelcontextprotocol/logLevel': 'info' },
    });
    const messages = await readAll(await handler(request), REV);
    expect(messages.filter((m) => 'method' in m && m.method === 'notifications/message')).toHaveLength(2);
  });

  it('answers a notification with 202 and no body', async () => {
    const { handler } = setup();
    const body = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    const response = await handler(post(body, { ...modernHeaders(body as never), 'mcp-method': 'x' }));
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
  });

  it('refuses GET and DELETE with 405', async () => {
    const { handler } = setup();
    for (const method of ['GET', 'DELETE']) {
      const headers = { 'mcp-protocol-version': REV, accept: 'text/event-stream' };
      const response = await handler(new Request('http://localhost/mcp', { method, headers }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('ignores Mcp-Session-Id and Last-Event-ID', async () => {
    const { handler } = setup();
    const extra = { 'mcp-session-id': 'nope', 'last-event-id': 'x_1' };
    const response = await handler(modernPost('tools/list', {}, extra));
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
  });

  it('answers three concurrent requests with 200 each', async () => {
    const { handler } = setup();
    const responses = await Promise.all([1, 2, 3].map(() => handler(modernPost('tools/list'))));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    for (const r of responses) await readAll(r, REV);
  });
});

describe('modern Accept header', () => {
  it.each([
    ['application/json', 406],
    ['text/event-stream', 406],
    ['application/json, text/event-stream;q=0', 406],
    ['application/json;q=0.5, text/event-stream;q=0.1', 200],
    ['*/*', 200],
    ['application/*, text/*', 200],
  ])('Accept %s → %i', async (accept, status) => {
    const { handler } = setup();
    expect((await handler(modernPost('tools/list', {}, { accept }))).status).toBe(status);
  });
});

describe('modern request metadata headers', () => {
  const call = { name: 'echo', arguments: { text: 'x' } };

  it.each([
    ['a missing Mcp-Method', 'tools/call', { 'mcp-method': null }],
    ['a wrong Mcp-Method', 'tools/call', { 'mcp-method': 'tools/list' }],
    ['a missing Mcp-Name', 'tools/call', { 'mcp-name': null }],
    ['a wrong Mcp-Name', 'tools/call', { 'mcp-name': 'other' }],
    ['a missing MCP-Protocol-Version', 'tools/call', { 'mcp-protocol-version': null }],
    ['a header version that disagrees with _meta', 'tools/call', { 'mcp-protocol-version': '2025-11-25' }],
    ['a malformed Base64 name', 'tools/call', { 'mcp-name': '=?base64?***?=' }],
  ])('rejects %s with 400 and -32020', async (_case, method, extra) => {
    const { handler } = setup();
    const response = await handler(modernPost(method, call, extra));
    expect(response.status).toBe(400);
    const body = await errorOf(response, REV);
    expect(body).toMatchObject({ id: 1, error: { code: -32020 } });
  });

  it('accepts header names in any case and values with surrounding whitespace', async () => {
    const { handler } = setup();
    const body = modernBody('tools/call', call);
    const headers = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'MCP-PROTOCOL-VERSION': ` ${REV} `,
      'mcp-METHOD': 'tools/call ',
      'Mcp-Name': '  echo',
    };
    expect((await handler(post(body, headers))).status).toBe(200);
  });

  it('decodes a Base64 Mcp-Name before comparing', async () => {
    const { handler } = setup();
    const extra = { 'mcp-name': `=?base64?${btoa('echo')}?=` };
    expect((await handler(modernPost('tools/call', call, extra))).status).toBe(200);
  });

  it('compares Mcp-Name with the uri of resources/read', async () => {
    const { handler } = setup();
    const response = await handler(
      modernPost('resources/read', { uri: 'test://a' }, { 'mcp-name': 'test://b' }),
    );
    expect((await errorOf(response, REV)).error.code).toBe(-32020);
  });
});

describe('modern errors and their HTTP status', () => {
  it('answers an unknown method with 404 and -32601', async () => {
    const { handler } = setup();
    const response = await handler(modernPost('initialize'));
    expect(response.status).toBe(404);
    expect((await errorOf(response, REV)).error.code).toBe(-32601);
  });

  it('answers an unsupported version with 400 and -32022 listing the supported ones', async () => {
    const { handler } = setup();
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' };
    const response = await handler(
      modernPost('tools/list', { _meta: meta }, { 'mcp-protocol-version': '2099-01-01' }),
    );
    expect(response.status).toBe(400);
    const { error } = await errorOf(response, REV);
    expect(error).toMatchObject({ code: -32022, data: { requested: '2099-01-01' } });
  });

  it('answers missing _meta fields with 400 and -32602', async () => {
    const { handler } = setup();
    const body = { jsonrpc: '2.0', id: 7, method: 'server/discover' };
    const response = await handler(post(body, { ...modernHeaders(body as never) }));
    expect(response.status).toBe(400);
    expect(await errorOf(response, REV)).toMatchObject({ id: 7, error: { code: -32602 } });
  });

  it('answers a missing client capability with 400 and -32021', async () => {
    const { handler } = setup();
    const response = await handler(modernPost('tools/call', { name: 'sample' }));
    expect(response.status).toBe(400);
    expect((await errorOf(response, REV)).error.code).toBe(-32021);
  });

  it('answers other JSON-RPC errors with 200', async () => {
    const { handler } = setup();
    const response = await handler(modernPost('tools/call', { name: 'nope' }));
    expect(response.status).toBe(200);
    expect((await errorOf(response, REV)).error.code).toBe(-32602);
  });

  it('refuses batches, responses, bad JSON and bad envelopes with 400', async () => {
    const { handler } = setup();
    const headers = modernHeaders(modernBody('tools/list'));
    const cases: [unknown, number][] = [
      [[modernBody('tools/list')], -32600],
      [{ jsonrpc: '2.0', id: 1, result: {} }, -32600],
      ['{not json', -32700],
      [
        {
          jsonrpc: '1.0',
          id: 1,
          method: 'tools/list',
          params: (modernBody('x') as { params?: unknown }).params,
        },
        -32600,
      ],
    ];
    for (const [body, code] of cases) {
      const response = await handler(post(body, headers));
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: number } }).error.code).toBe(code);
    }
  });
});

describe('modern cancellation', () => {
  it('cancels the handler and sends nothing more when the client closes the stream', async () => {
    const { handler, observed } = setup();
    const controller = new AbortController();
    const request = modernPost(
      'tools/call',
      { name: 'wait', _meta: { progressToken: 1 } },
      {},
      {
        signal: controller.signal,
      },
    );
    const reader = new SseReader(await handler(request));
    await reader.waitFor(1);
    controller.abort();
    await until(() => observed.aborted);
    await reader.finished();
    expect(messagesOf(reader.events, REV).map((m) => ('method' in m ? m.method : 'response'))).toEqual([
      'notifications/progress',
    ]);
  });

  it('cancels the handler when the response body is cancelled', async () => {
    const { handler, observed } = setup();
    const reader = new SseReader(
      await handler(modernPost('tools/call', { name: 'wait', _meta: { progressToken: 1 } })),
    );
    await reader.waitFor(1);
    await reader.cancel();
    await until(() => observed.aborted);
  });

  it('sends keep-alive comments on a quiet stream', async () => {
    const observed: Observed = { aborted: false };
    const handler = createHttpHandler(buildServer(observed), { keepAliveMs: 5 });
    const controller = new AbortController();
    const request = modernPost(
      'tools/call',
      { name: 'wait', _meta: { progressToken: 1 } },
      {},
      {
        signal: controller.signal,
      },
    );
    const reader = new SseReader(await handler(request));
    await until(() => reader.comments.length >= 2);
    controller.abort();
    checked(JSON.parse(reader.events[0]?.data ?? ''), REV);
  });
});

describe('modern 429 Retry-After', () => {
  // A refusal as the per-principal quota middleware throws it (data.retryAfterS), or without a wait.
  function refusing(data: Record<string, unknown> | undefined) {
    const server = createServer({ name: 't', version: '1' });
    server.use(() => () => {
      throw WireError.of('TooManyRequests', 'Too Many Requests: test', data);
    });
    return createHttpHandler(server, { keepAliveMs: 0 });
  }

  it("sends the refusal's data.retryAfterS as Retry-After", async () => {
    const response = await refusing({ retryAfterS: 42 })(modernPost('tools/list'));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('42');
  });

  it('sends Retry-After: 1 for a 429 that names no wait', async () => {
    const response = await refusing(undefined)(modernPost('tools/list'));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
  });
});
