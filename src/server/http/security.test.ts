import { describe, expect, it } from 'vitest';
import { createHttpHandler, type HttpHandlerOptions } from './index.js';
import { buildServer, errorOf, modernBody, modernHeaders, post } from '../../../test/support/http-harness.js';

const REV = '2026-07-28';

function discover(
  headers: Record<string, string> = {},
  body: unknown = modernBody('server/discover'),
): Request {
  return post(body, { ...modernHeaders(body as never), ...headers });
}

const handlerWith = (options: HttpHandlerOptions = {}) =>
  createHttpHandler(buildServer(), { keepAliveMs: 0, ...options });

describe('DNS-rebinding protection', () => {
  it.each([
    ['a foreign Host', { host: 'evil.example.com' }],
    ['a foreign Host with a port', { host: 'evil.example.com:3000' }],
    ['a name glued after a bracketed loopback address', { host: '[::1]evil.example.com' }],
    ['a bracketed loopback address with a bad port', { host: '[::1]:80evil' }],
    ['a loopback name with a port that is not a number', { host: 'localhost:evil.example.com' }],
    ['a foreign Origin', { origin: 'http://evil.example.com' }],
    ['the null Origin', { origin: 'null' }],
  ])('refuses %s with 403 and a JSON-RPC error without id', async (_case, headers) => {
    const response = await handlerWith()(discover(headers));
    expect(response.status).toBe(403);
    const body = await errorOf(response, REV);
    expect(body.id).toBeUndefined();
  });

  it.each([
    [{ host: 'localhost:3000' }],
    [{ host: '127.0.0.1:9' }],
    [{ host: '[::1]:8080' }],
    [{ host: '[::1]' }],
    [{ host: 'LOCALHOST', origin: 'http://localhost:5173' }],
    [{ origin: 'http://127.0.0.1' }],
  ])('accepts loopback names with any port: %o', async (headers) => {
    expect((await handlerWith()(discover(headers))).status).toBe(200);
  });

  it('follows configured allow-lists, or none with false', async () => {
    const custom = handlerWith({
      allowedHosts: ['mcp.example.com'],
      allowedOrigins: ['https://app.example.com'],
    });
    expect(
      (await custom(discover({ host: 'mcp.example.com', origin: 'https://app.example.com' }))).status,
    ).toBe(200);
    expect((await custom(discover({ host: 'localhost' }))).status).toBe(403);
    expect(
      (await custom(discover({ host: 'mcp.example.com', origin: 'https://evil.example.com' }))).status,
    ).toBe(403);
    const open = handlerWith({ allowedHosts: false, allowedOrigins: false });
    expect(
      (await open(discover({ host: 'evil.example.com', origin: 'http://evil.example.com' }))).status,
    ).toBe(200);
  });

  it('checks legacy requests too', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {} },
    };
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    const response = await handlerWith()(post(init, { ...headers, host: 'evil.example.com' }));
    expect(response.status).toBe(403);
    expect(response.headers.get('mcp-session-id')).toBeNull();
  });
});

describe('request limits', () => {
  it('refuses a body over maxBodyBytes with 413', async () => {
    const big = modernBody('tools/call', { name: 'echo', arguments: { text: 'x'.repeat(2000) } });
    const response = await handlerWith({ maxBodyBytes: 1000 })(discover({}, big));
    expect(response.status).toBe(413);
  });

  it('refuses a body that is not application/json with 415', async () => {
    const response = await handlerWith()(discover({ 'content-type': 'text/plain' }));
    expect(response.status).toBe(415);
  });

  it('refuses other HTTP methods with 405', async () => {
    const response = await handlerWith()(new Request('http://localhost/mcp', { method: 'PUT' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST, DELETE');
  });
});
