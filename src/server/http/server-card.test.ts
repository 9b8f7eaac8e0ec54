/**
 * The served Server Card: valid against the extension's own schema, built from the
 * definition, public (before auth, any origin) with the draft's CORS headers, cached by
 * ETag (304), refusing other methods and foreign Hosts; mcpkit's card schema agrees with
 * the extension's on every official example.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createServer } from '../index.js';
import { createHttpHandler, type HttpAuthGuard, type HttpHandlerOptions } from './index.js';
import { buildServerCard } from './server-card.js';
import { SERVER_CARD_JSON_SCHEMA, type ServerCard } from '../../core/server-card.js';
import { compileJsonSchema } from '../../validation/index.js';

const SPEC = join(import.meta.dirname, '../../../test/spec/extensions/server-card');
const official = (() => {
  const ajv = new Ajv2020({ strict: false });
  addFormats.default(ajv);
  ajv.addSchema(JSON.parse(readFileSync(join(SPEC, 'schema.json'), 'utf8')) as object, 'card');
  return ajv.compile({ $ref: 'card#/$defs/ServerCard' });
})();

const CARD_URL = 'http://127.0.0.1:3000/mcp/server-card';

function weather(options: HttpHandlerOptions = {}) {
  const server = createServer({
    name: 'com.example/weather',
    title: 'Weather',
    version: '1.2.0',
    description: 'Forecasts by city.',
    websiteUrl: 'https://example.com/weather',
    icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }],
  });
  server.tool('forecast', () => 'sunny');
  return { server, handler: createHttpHandler(server, { serverCard: true, ...options }) };
}

function get(headers: Record<string, string> = {}, method = 'GET', url = CARD_URL): Request {
  return new Request(url, { method, headers });
}

const refusing: HttpAuthGuard = {
  paths: ['/.well-known/oauth-protected-resource/mcp'],
  serve: () => undefined,
  authenticate: () => Promise.resolve({ response: { status: 401, headers: {}, body: null } }),
  insufficientScope: () => ({ status: 403, headers: {}, body: null }),
};

describe('the served Server Card', () => {
  it('is a valid card built from the definition, naming the endpoint and every revision served', async () => {
    const { server, handler } = weather();
    const response = await handler(get({ accept: 'application/mcp-server-card+json' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/mcp-server-card+json');
    const card = (await response.json()) as ServerCard;
    expect(official(card), JSON.stringify(official.errors)).toBe(true);
    expect(card).toMatchObject({
      name: 'com.example/weather',
      title: 'Weather',
      version: '1.2.0',
      description: 'Forecasts by city.',
      websiteUrl: 'https://example.com/weather',
      icons: server.info.icons,
      remotes: [
        {
          type: 'streamable-http',
          url: 'http://127.0.0.1:3000/mcp',
          supportedProtocolVersions: server.supportedVersions,
        },
      ],
    });
    expect(card.remotes?.[0]?.supportedProtocolVersions).toContain('2025-11-25');
    expect(JSON.stringify(card)).not.toMatch(/forecast|capabilities|tools/);
  });

  it('names only the modern revisions for a modern-only server, and the url given in place of the request', async () => {
    const server = createServer({
      name: 'com.example/m',
      version: '1.0.0',
      description: 'd',
      eras: ['modern'],
    });
    const handler = createHttpHandler(server, { serverCard: { url: 'https://mcp.example.com/mcp' } });
    const card = (await (await handler(get())).json()) as ServerCard;
    expect(card.remotes).toEqual([
      {
        type: 'streamable-http',
        url: 'https://mcp.example.com/mcp',
        supportedProtocolVersions: ['2026-07-28'],
      },
    ]);
  });

  it('carries the draft CORS and caching headers, and answers 304 to its own ETag', async () => {
    const { handler } = weather();
    const first = await handler(get({ origin: 'https://elsewhere.example' }));
    expect(first.status).toBe(200);
    const headers: Record<string, string> = {};
    first.headers.forEach((value, name) => (headers[name] = value));
    expect(headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET',
      'access-control-allow-headers': 'Content-Type, If-None-Match',
      'access-control-expose-headers': 'ETag',
      'cache-control': 'public, max-age=3600',
    });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await handler(get({ 'if-none-match': `W/"other", ${etag}` }));
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await handler(get({ 'if-none-match': '"stale"' }))).status).toBe(200);
    const head = await handler(get({}, 'HEAD'));
    expect([head.status, head.headers.get('etag'), await head.text()]).toEqual([200, etag, '']);
  });

  it('answers the preflight and refuses methods other than GET, HEAD and OPTIONS', async () => {
    const { handler } = weather();
    const preflight = await handler(
      get({ origin: 'https://a.example', 'access-control-request-method': 'GET' }, 'OPTIONS'),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const posted = await handler(get({ 'content-type': 'application/json' }, 'POST'));
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('is public on a protected endpoint, and declares the Authorization header it needs', async () => {
    const { handler } = weather({ auth: refusing });
    expect((await handler(new Request('http://127.0.0.1:3000/mcp', { method: 'POST' }))).status).toBe(401);
    const response = await handler(get());
    expect(response.status).toBe(200);
    const card = (await response.json()) as ServerCard;
    expect(official(card)).toBe(true);
    expect(card.remotes?.[0]?.headers).toEqual([
      expect.objectContaining({
        name: 'Authorization',
        isRequired: true,
        isSecret: true,
        value: 'Bearer {token}',
      }),
    ]);
    expect(card.remotes?.[0]?.headers?.[0]?.description).toContain(
      'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp',
    );
  });

  it('keeps the Host check: a rebinding name gets 403', async () => {
    const { handler } = weather();
    const response = await handler(get({ host: 'evil.example' }));
    expect(response.status).toBe(403);
  });

  it('is served at /.well-known/mcp/server-card.json too, naming the endpoint at endpointPath', async () => {
    const { handler } = weather({ serverCard: { endpointPath: '/api/mcp' } });
    const wellKnown = 'http://127.0.0.1:3000/.well-known/mcp/server-card.json';
    const response = await handler(get({}, 'GET', wellKnown));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/mcp-server-card+json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const card = (await response.json()) as ServerCard;
    expect(official(card), JSON.stringify(official.errors)).toBe(true);
    expect(card.remotes?.[0]?.url).toBe('http://127.0.0.1:3000/api/mcp');
    const byDefault = await weather().handler(get({}, 'GET', wellKnown));
    expect(((await byDefault.json()) as ServerCard).remotes?.[0]?.url).toBe('http://127.0.0.1:3000/mcp');
  });

  it('is not served without the option: the path is the MCP endpoint as before', async () => {
    const server = createServer({ name: 'com.example/x', version: '1', description: 'd' });
    const response = await createHttpHandler(server)(get());
    expect(response.status).not.toBe(200); // the endpoint's own answer to a bare GET
    expect(response.headers.get('content-type')).not.toBe('application/mcp-server-card+json');
  });

  it('refuses a definition the card cannot describe when the handler is built', () => {
    const plain = createServer({ name: 'plain-name', version: '1.0.0', description: 'd' });
    expect(() => createHttpHandler(plain, { serverCard: true })).toThrow(/reverse-DNS/);
    const long = createServer({ name: 'a.b/c', version: '1', description: 'x'.repeat(101) });
    expect(() => createHttpHandler(long, { serverCard: true })).toThrow(/description/);
    const none = createServer({ name: 'a.b/c', version: '1' });
    expect(() => createHttpHandler(none, { serverCard: true })).toThrow(/description/);
    expect(() => createHttpHandler(none, { serverCard: { description: 'given here' } })).not.toThrow();
    expect(() => buildServerCard(none, { description: 'd', url: 'ftp://x/mcp' })).toThrow(/http/);
  });
});

describe("mcpkit's card schema", () => {
  const ours = compileJsonSchema(SERVER_CARD_JSON_SCHEMA);
  for (const kind of ['valid', 'invalid'] as const) {
    for (const file of readdirSync(join(SPEC, 'examples', kind))) {
      it(`agrees with the extension's schema on ${kind}/${file}`, async () => {
        const example = JSON.parse(readFileSync(join(SPEC, 'examples', kind, file), 'utf8')) as unknown;
        expect(official(example)).toBe(kind === 'valid');
        expect((await ours(example)).ok).toBe(kind === 'valid');
      });
    }
  }
});
