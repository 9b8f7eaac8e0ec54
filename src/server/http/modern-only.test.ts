import { describe, expect, it } from 'vitest';
import { createServer } from '../server.js';
import { createHttpHandler } from './index.js';

const URL_ = 'http://127.0.0.1:3000/mcp';

function modernOnly() {
  const server = createServer({ name: 'm', version: '1', eras: ['modern'] });
  server.tool('echo', {}, () => 'ok');
  return createHttpHandler(server);
}

describe('a modern-only server over HTTP', () => {
  it('answers GET and DELETE with 405 even without a modern header', async () => {
    const handler = modernOnly();
    for (const method of ['GET', 'DELETE']) {
      const response = await handler(
        new Request(URL_, { method, headers: { 'mcp-session-id': 'x', accept: 'text/event-stream' } }),
      );
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('refuses a legacy initialize with a 400, never opening a session', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    });
    const response = await modernOnly()(
      new Request(URL_, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      }),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    // 2026-07-28 basic/versioning.mdx: the error to initialize names the versions spoken.
    expect((await response.json()) as object).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32600,
        message: 'initialize is not supported: this server speaks only 2026-07-28 (no initialize handshake)',
        data: { supported: ['2026-07-28'] },
      },
    });
  });
});

describe('Origin checks', () => {
  it('accepts only the same origin when asked to', async () => {
    const server = createServer({ name: 'm', version: '1' });
    const handler = createHttpHandler(server, { allowedHosts: false, allowedOrigins: 'same-origin' });
    const probe = (origin: string) =>
      handler(
        new Request('http://mcp.example.com/mcp', {
          method: 'DELETE',
          headers: { host: 'mcp.example.com', origin },
        }),
      );
    expect((await probe('https://evil.example.com')).status).toBe(403);
    expect((await probe('https://mcp.example.com')).status).not.toBe(403);
  });
});

describe('legacy session limit', () => {
  it('answers initialize with 503 once maxSessions sessions are open', async () => {
    const server = createServer({ name: 'm', version: '1' });
    const handler = createHttpHandler(server, { maxSessions: 2 });
    const init = () =>
      handler(
        new Request(URL_, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-11-25',
              capabilities: {},
              clientInfo: { name: 'c', version: '1' },
            },
          }),
        }),
      );
    expect((await init()).status).toBe(200);
    expect((await init()).status).toBe(200);
    const refused = await init();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ id: 1, error: { code: -32603 } });
    handler.close();
  });
});
