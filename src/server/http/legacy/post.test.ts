import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonRpcMessage } from '../../../core/jsonrpc.js';
import { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from '../index.js';
import {
  SseReader,
  buildServer,
  errorOf,
  messagesOf,
  modernPost,
  post,
  readAll,
} from '../../../../test/support/http-harness.js';

afterEach(() => {
  vi.useRealTimers();
});

const REV = '2025-11-25';
const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/** A legacy client of one session over the handler. */
async function open(
  options: HttpHandlerOptions = {},
  version = REV,
  capabilities: object = { elicitation: {} },
) {
  const server = buildServer();
  const handler = createHttpHandler(server, { keepAliveMs: 0, ...options });
  const init = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: version, capabilities, clientInfo: { name: 't', version: '1' } },
  };
  const response = await handler(post(init, HEADERS));
  const sessionId = response.headers.get('mcp-session-id') ?? '';
  const [result] = await readAll(response, REV);
  const headers = { ...HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': version };
  const send = (body: unknown) => handler(post(body, headers));
  await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const get = (extra: Record<string, string> = {}) =>
    handler(
      new Request('http://localhost/mcp', { headers: { ...headers, accept: 'text/event-stream', ...extra } }),
    );
  return { server, handler, sessionId, result, headers, send, get };
}

const call = (id: number, name: string, meta: object = {}): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: name === 'echo' ? { text: 'hi' } : {}, _meta: meta },
});

describe('legacy sessions', () => {
  it('mints a visible-ASCII Mcp-Session-Id on initialize', async () => {
    const { sessionId, result } = await open();
    expect(sessionId).toMatch(/^[\x21-\x7E]+$/);
    expect(result).toMatchObject({
      id: 0,
      result: { protocolVersion: REV, serverInfo: { name: 'http-test' } },
    });
  });

  it('answers requests of the session with JSON', async () => {
    const { send } = await open();
    const response = await send(call(1, 'echo'));
    expect(response.status).toBe(200);
    expect(await readAll(response, REV)).toMatchObject([{ id: 1, result: { content: [{ text: 'hi' }] } }]);
  });

  it('refuses a request without a session id with 400 and an unknown one with 404', async () => {
    const { handler } = await open();
    expect((await handler(post(call(1, 'echo'), HEADERS))).status).toBe(400);
    const unknown = await handler(post(call(1, 'echo'), { ...HEADERS, 'mcp-session-id': 'nope' }));
    expect(unknown.status).toBe(404);
    await errorOf(unknown, REV);
  });

  it('answers JSON-RPC errors inside a session with 200', async () => {
    const { send } = await open();
    const response = await send({ jsonrpc: '2.0', id: 3, method: 'nope/nope' });
    expect(response.status).toBe(200);
    expect((await errorOf(response, REV)).error.code).toBe(-32601);
  });

  it('ends the session on DELETE, after which its id gets 404', async () => {
    const { handler, headers, send } = await open();
    const deleted = await handler(new Request('http://localhost/mcp', { method: 'DELETE', headers }));
    expect(deleted.status).toBe(200);
    expect((await send(call(1, 'echo'))).status).toBe(404);
  });

  it('ends an idle session after sessionIdleMs', async () => {
    const { send } = await open({ sessionIdleMs: 20 });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 40);
    expect((await send(call(1, 'echo'))).status).toBe(404);
  });

  it('refuses an unsupported MCP-Protocol-Version header with 400', async () => {
    const { handler, headers } = await open();
    const response = await handler(
      post(call(1, 'echo'), { ...headers, 'mcp-protocol-version': '1999-01-01' }),
    );
    expect(response.status).toBe(400);
  });

  it('answers a POST of only notifications with 202', async () => {
    const { send } = await open();
    expect((await send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' })).status).toBe(202);
  });
});

describe('legacy streams', () => {
  it('streams progress after a priming event, then the response', async () => {
    const { send } = await open();
    const reader = new SseReader(await send(call(1, 'progress', { progressToken: 'p' })));
    await reader.finished();
    expect(reader.events[0]).toMatchObject({ data: '' });
    expect(reader.events.every((e) => e.id !== undefined)).toBe(true);
    const kinds = messagesOf(reader.events, REV).map((m) => ('method' in m ? m.method : 'response'));
    expect(kinds).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'response',
    ]);
  });

  it('sends an elicitation on the POST stream and resolves it with the POSTed response', async () => {
    const { send } = await open();
    const reader = new SseReader(await send(call(1, 'ask')));
    await reader.waitFor(2);
    const [request] = messagesOf(reader.events, REV);
    expect(request).toMatchObject({ method: 'elicitation/create' });
    const answer = {
      jsonrpc: '2.0',
      id: (request as { id: number }).id,
      result: { action: 'accept', content: { name: 'Ada' } },
    };
    expect((await send(answer)).status).toBe(202);
    await reader.finished();
    expect(messagesOf(reader.events, REV).at(-1)).toMatchObject({
      id: 1,
      result: { content: [{ text: 'hello Ada' }] },
    });
  });

  it('opens one GET stream per session (409 for a second) and sends list changes on it', async () => {
    const { get, server } = await open();
    const stream = await get();
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    expect((await get()).status).toBe(409);
    const reader = new SseReader(stream);
    server.notifyToolsChanged();
    await reader.waitFor(2);
    expect(messagesOf(reader.events, REV)).toMatchObject([{ method: 'notifications/tools/list_changed' }]);
    await reader.cancel();
  });

  it('resumes a POST stream after a disconnect with Last-Event-ID on GET', async () => {
    const { send, get } = await open();
    const first = new SseReader(await send(call(1, 'progress', { progressToken: 'p' })));
    await first.waitFor(2);
    const lastId = first.events[1]?.id ?? '';
    await first.cancel();
    const resumed = new SseReader(await get({ 'last-event-id': lastId }));
    await resumed.finished();
    const kinds = messagesOf(resumed.events, REV).map((m) => ('method' in m ? m.method : 'response'));
    expect(kinds).toEqual(['notifications/progress', 'notifications/progress', 'response']);
  });

  it('cancels a request on notifications/cancelled', async () => {
    const { send } = await open();
    const pending = send(call(5, 'wait', { progressToken: 1 }));
    const reader = new SseReader(await pending);
    await reader.waitFor(2);
    await send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } });
    await reader.finished();
    expect(messagesOf(reader.events, REV).every((m) => 'method' in m)).toBe(true);
  });
});

describe('legacy batches', () => {
  it('refuses a batch in a 2025-11-25 session with 400 and -32600', async () => {
    const { send } = await open();
    const response = await send([call(1, 'echo'), call(2, 'echo')]);
    expect(response.status).toBe(400);
    expect((await errorOf(response, REV)).error.code).toBe(-32600);
  });

  it('answers a batch in a 2025-03-26 session with an array', async () => {
    const { send } = await open({}, '2025-03-26');
    const response = await send([call(1, 'echo'), call(2, 'echo')]);
    const body = (await response.json()) as { id: number }[];
    expect(body.map((m) => m.id).sort()).toEqual([1, 2]);
  });
});

describe('one endpoint for both eras', () => {
  it('serves a modern request next to a legacy session', async () => {
    const { handler, sessionId } = await open();
    const response = await handler(modernPost('tools/list', {}, { 'mcp-session-id': sessionId }));
    const [message] = await readAll(response, '2026-07-28');
    expect(message).toMatchObject({ result: { resultType: 'complete' } });
  });

  it('closes every session on close()', async () => {
    const { handler, send } = await open();
    await (handler as HttpHandler).close();
    expect((await send(call(1, 'echo'))).status).toBe(503);
  });
});
