/**
 * CORS on the endpoint: the preflight answered before auth without reaching the server,
 * 403 for an origin not listed, every MCP request header allowed (Mcp-Param-* by
 * reflection), the headers a client reads exposed, and the Origin check agreeing.
 */
import { describe, expect, it } from 'vitest';
import { createServer } from '../index.js';
import { createHttpHandler, type HttpAuthGuard, type HttpHandlerOptions } from './index.js';
import { buildServer, modernBody, modernHeaders, post } from '../../../test/support/http-harness.js';

const APP = 'http://127.0.0.1:5173';

function preflight(origin: string, requestHeaders?: string, url = 'http://127.0.0.1:3000/mcp'): Request {
  const headers: Record<string, string> = { origin, 'access-control-request-method': 'POST' };
  if (requestHeaders !== undefined) headers['access-control-request-headers'] = requestHeaders;
  return new Request(url, { method: 'OPTIONS', headers });
}

function discover(headers: Record<string, string> = {}): Request {
  const body = modernBody('server/discover');
  return post(body, { ...modernHeaders(body), ...headers });
}

/** A server whose every request is counted by a middleware, and a guard that counts too. */
function counted(options: HttpHandlerOptions) {
  const seen = { server: 0, auth: 0 };
  const server = createServer({ name: 'cors', version: '1.0.0' });
  server.use((next) => (message, ctx) => (seen.server++, next(message, ctx)));
  const guard: HttpAuthGuard = {
    paths: ['/.well-known/oauth-protected-resource/mcp'],
    serve: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }),
    authenticate: () => {
      seen.auth++;
      return Promise.resolve({
        response: { status: 401, headers: { 'www-authenticate': 'Bearer realm="mcp"' }, body: null },
      });
    },
    insufficientScope: () => ({ status: 403, headers: {}, body: null }),
  };
  return { seen, handler: createHttpHandler(server, { auth: guard, keepAliveMs: 0, ...options }) };
}

describe('CORS preflight', () => {
  it('is answered before auth and without reaching the server, allowing the MCP headers', async () => {
    const { seen, handler } = counted({ cors: { origins: [APP] } });
    const asked = 'content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-region, authorization';
    const response = await handler(preflight(APP, asked));
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE');
    expect(response.headers.get('access-control-allow-headers')).toBe(asked);
    expect(response.headers.get('access-control-max-age')).toBe('600');
    expect(response.headers.get('vary')).toBe('Origin');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(seen).toEqual({ server: 0, auth: 0 });
    handler.close();
  });

  it('refuses an origin not on the list with 403, still without reaching the server', async () => {
    const { seen, handler } = counted({ cors: { origins: [APP] } });
    for (const origin of ['http://evil.example', 'null', 'http://127.0.0.1:5174']) {
      const response = await handler(preflight(origin, 'content-type'));
      expect(response.status).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
        'CORS origin not allowed',
      );
    }
    expect(seen).toEqual({ server: 0, auth: 0 });
    handler.close();
  });

  it('lists the fixed MCP names when a requested header is not one an MCP client sends', async () => {
    const { handler } = counted({ cors: { origins: [APP], allowHeaders: ['X-Tenant'] } });
    const allowed = (await handler(preflight(APP, 'content-type, x-secret'))).headers.get(
      'access-control-allow-headers',
    );
    expect(allowed?.split(', ')).toEqual(
      expect.arrayContaining(['mcp-session-id', 'last-event-id', 'authorization', 'x-tenant']),
    );
    expect(allowed).not.toContain('x-secret');
    expect((await handler(preflight(APP, 'X-Tenant'))).headers.get('access-control-allow-headers')).toBe(
      'x-tenant',
    );
    handler.close();
  });

  it('takes a predicate, and answers the protected resource metadata path too', async () => {
    const { handler } = counted({ cors: { origins: (origin) => origin.endsWith('.example.com') } });
    const url = 'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp';
    expect((await handler(preflight('https://app.example.com', 'authorization', url))).status).toBe(204);
    expect((await handler(preflight('https://example.org', undefined, url))).status).toBe(403);
    const metadata = await handler(new Request(url, { headers: { origin: 'https://app.example.com' } }));
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    handler.close();
  });
});

describe('CORS on responses', () => {
  it('exposes the headers a client reads, on the 401 challenge as on results', async () => {
    const { handler } = counted({ cors: { origins: [APP] } });
    const refused = await handler(discover({ origin: APP }));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(APP);
    expect(refused.headers.get('access-control-expose-headers')).toBe(
      'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate',
    );
    const open = createHttpHandler(buildServer(), { keepAliveMs: 0, cors: { origins: ['*'] } });
    const answered = await open(discover({ origin: APP }));
    expect(answered.status).toBe(200);
    expect(answered.headers.get('access-control-allow-origin')).toBe('*');
    const foreign = createHttpHandler(buildServer(), { keepAliveMs: 0, cors: { origins: [APP] } });
    const other = await foreign(discover({ origin: 'http://localhost:9999' }));
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    handler.close();
    open.close();
    foreign.close();
  });

  it('lets the listed origins pass the Origin check, and no others', async () => {
    const options: HttpHandlerOptions = {
      keepAliveMs: 0,
      bindAddress: '0.0.0.0',
      cors: { origins: ['https://app.example.com'], credentials: true },
    };
    const handler = createHttpHandler(buildServer(), options);
    const host = { host: 'mcp.example.net' };
    const allowed = await handler(discover({ ...host, origin: 'https://app.example.com' }));
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect((await handler(discover({ ...host, origin: 'https://evil.example.com' }))).status).toBe(403);
    handler.close();
  });

  it('refuses credentials with the * origin, and entries that are not origins', () => {
    expect(() => createHttpHandler(buildServer(), { cors: { origins: ['*'], credentials: true } })).toThrow(
      /credentials/,
    );
    expect(() => createHttpHandler(buildServer(), { cors: { origins: ['http://a.example/'] } })).toThrow(
      /not an origin/,
    );
  });
});
