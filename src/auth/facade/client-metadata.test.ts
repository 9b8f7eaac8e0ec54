/**
 * Client ID Metadata Documents at the façade, fetched for real: a local HTTPS server (the
 * tests' CA, which the façade is told to trust) serves the documents. A client whose
 * `client_id` is the document's URL completes the flow; the document fetch refuses
 * loopback, private, link-local and metadata addresses (literal or by name, before
 * connecting), redirects, a document over the size bound or the time bound, and a
 * `client_id` that is not the URL; it caches as the document's HTTP caching headers say,
 * within the bound.
 * Source: 2026-07-28 basic/authorization/client-registration "Client ID Metadata Documents";
 * security-considerations "Client ID Metadata Document Security"; RFC 9111 §4.2.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../test/support/cli.js';
import { authorizeUrl, redeem, startFacade, type FacadeSetup } from '../../../test/support/facade.js';
import { browse } from '../../../test/support/oidc.js';
import { freshnessOf } from './documents.js';
import { authorizationFacade, type AuthorizationFacadeOptions } from './facade.js';
import { oidcUpstream } from './presets.js';
import { memoryFacadeStore } from './store.js';

const TLS = join(ROOT, 'test', 'support', 'fixtures', 'tls');
const CA = readFileSync(join(TLS, 'test-ca.pem'), 'utf8');
const REDIRECT = 'http://127.0.0.1:9/cb';
const loopback = (address: string) => address === '127.0.0.1' || address === '::1';

let documents: Server;
let port = 0;
/** Requests the document server received, by path. */
const hits = new Map<string, number>();

function documentFor(path: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    client_id: `https://localhost:${port}${path}`,
    client_name: 'Metadata document client',
    redirect_uris: [REDIRECT],
    ...extra,
  });
}

beforeAll(async () => {
  documents = createServer(
    {
      cert: readFileSync(join(TLS, 'localhost-cert.pem')),
      key: readFileSync(join(TLS, 'localhost-key.pem')),
    },
    (request, response) => {
      const path = new URL(request.url ?? '/', 'https://localhost').pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const json = { 'content-type': 'application/json' };
      if (path === '/redirect') return void response.writeHead(302, { location: '/client.json' }).end();
      if (path === '/hang') return; // never answers
      if (path === '/big')
        return void response.writeHead(200, json).end(documentFor(path, { padding: 'x'.repeat(20_000) }));
      if (path === '/big-chunked') {
        response.writeHead(200, json);
        response.write(documentFor(path).slice(0, -1));
        return void response.end(`,"padding":"${'x'.repeat(20_000)}"}`);
      }
      if (path === '/wrong-id')
        return void response
          .writeHead(200, json)
          .end(documentFor(path, { client_id: 'https://elsewhere.example/c' }));
      const cache: Record<string, string> = {
        '/client.json': 'max-age=300',
        '/max-age-60': 'max-age=60',
        '/no-store': 'no-store',
        '/year': 'max-age=31536000',
      };
      if (!(path in cache)) return void response.writeHead(404).end();
      response.writeHead(200, { ...json, 'cache-control': cache[path]! }).end(documentFor(path));
    },
  );
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  port = (documents.address() as AddressInfo).port;
});

afterAll(async () => {
  documents.closeAllConnections();
  await new Promise<void>((resolve) => documents.close(() => resolve()));
});

describe('a client identified by its metadata document', () => {
  let setup: FacadeSetup;
  beforeAll(async () => {
    setup = await startFacade({
      allowLoopbackClientMetadata: false,
      clientMetadata: { ca: CA, allowAddress: loopback },
    });
  });
  afterAll(async () => {
    await setup?.close();
  });

  it('completes the flow: the façade fetches the document over HTTPS and honours its redirect URIs', async () => {
    const clientId = `https://localhost:${port}/client.json`;
    const flow = await authorizeUrl(setup.url, clientId);
    const back = await browse(flow.url, REDIRECT, { login: 'frank' });
    expect(back.searchParams.get('code')).toBeTruthy();
    const tokens = await redeem(setup.url, { clientId, back, verifier: flow.verifier });
    expect(tokens.access_token).toBeTruthy();
    expect(hits.get('/client.json')).toBeGreaterThanOrEqual(1);
  });
});

describe('the document fetch', () => {
  const ttls = new Map<string, number>();
  const memory = memoryFacadeStore();
  const store = {
    ...memory,
    set: (k: string, v: string, ttl: number) => (ttls.set(k, ttl), memory.set(k, v, ttl)),
  };

  function facade(options: Partial<AuthorizationFacadeOptions> = {}) {
    return authorizationFacade({
      resource: 'https://mcp.example.com/mcp',
      upstream: oidcUpstream({ issuer: 'https://upstream.invalid', clientId: 'x', clientSecret: 'y' }),
      store,
      ...options,
      clientMetadata: { ca: CA, allowAddress: loopback, timeoutMs: 1500, ...options.clientMetadata },
    });
  }

  /** Whether the façade accepts `clientId` at its authorization endpoint (consent page, not "unknown client"). */
  async function accepted(f: ReturnType<typeof facade>, clientId: string): Promise<boolean> {
    const url = new URL('https://mcp.example.com/oauth/authorize');
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state: 's',
      resource: 'https://mcp.example.com/mcp',
    }))
      url.searchParams.set(k, v);
    const response = await f.serve({
      method: 'GET',
      url: url.href,
      headers: new Headers(),
      signal: new AbortController().signal,
      remoteAddress: '192.0.2.1',
    });
    const body = typeof response?.body === 'string' ? response.body : '';
    return response?.status === 200 && !body.includes('unknown client_id');
  }

  it('refuses loopback, private, link-local and metadata addresses without connecting', async () => {
    const strict = facade({ clientMetadata: { allowAddress: () => false } });
    const before = hits.get('/client.json') ?? 0;
    for (const host of [
      `localhost:${port}`, // a name resolving to loopback
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      `[::ffff:127.0.0.1]:${port}`,
      `0x7f.1:${port}`,
      '10.0.0.1',
      '192.168.1.1',
      '169.254.169.254', // cloud metadata
      '[fe80::1]',
      '[fd00::1]',
      '[64:ff9b::a9fe:a9fe]', // metadata through NAT64
    ])
      expect(await accepted(strict, `https://${host}/client.json`), host).toBe(false);
    expect(hits.get('/client.json') ?? 0).toBe(before);
  });

  it('takes the same document when loopback is allowed (the refusals above are the filter)', async () => {
    expect(await accepted(facade(), `https://localhost:${port}/max-age-60`)).toBe(true);
  });

  it('refuses a redirect instead of following it', async () => {
    const before = hits.get('/client.json') ?? 0;
    expect(await accepted(facade(), `https://localhost:${port}/redirect`)).toBe(false);
    expect(hits.get('/redirect')).toBe(1);
    expect(hits.get('/client.json') ?? 0).toBe(before);
  });

  it('refuses a document over the size bound, announced or streamed', async () => {
    expect(await accepted(facade(), `https://localhost:${port}/big`)).toBe(false);
    expect(await accepted(facade(), `https://localhost:${port}/big-chunked`)).toBe(false);
  });

  it('gives up on a document that does not come within the time bound', async () => {
    const started = Date.now();
    expect(
      await accepted(facade({ clientMetadata: { timeoutMs: 300 } }), `https://localhost:${port}/hang`),
    ).toBe(false);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a certificate it was not told to trust, and a client_id that is not the URL', async () => {
    expect(await accepted(facade({ clientMetadata: { ca: [] } }), `https://localhost:${port}/no-store`)).toBe(
      false,
    );
    expect(await accepted(facade(), `https://localhost:${port}/wrong-id`)).toBe(false);
  });

  it('caches as the headers say: max-age once, no-store every time, a year only up to the bound', async () => {
    const f = facade({ clientMetadata: { maxCacheSec: 120 } });
    for (let i = 0; i < 2; i++) {
      expect(await accepted(f, `https://localhost:${port}/no-store`)).toBe(true);
      expect(await accepted(f, `https://localhost:${port}/year`)).toBe(true);
    }
    expect(hits.get('/no-store')).toBe(2); // the untrusted certificate ended the other before any request
    expect(hits.get('/year')).toBe(1);
    const cimdTtls = [...ttls].filter(([k]) => k.startsWith('cimd:')).map(([, ttl]) => ttl);
    expect(cimdTtls).toContain(120_000);
    expect(cimdTtls).toContain(60_000); // /max-age-60
  });
});

describe('freshness (RFC 9111 §4.2)', () => {
  const headers = (h: Record<string, string>) => (name: string) => h[name];
  it.each([
    [{ 'cache-control': 'max-age=600' }, 600],
    [{ 'cache-control': 'public, max-age=600', age: '100' }, 500],
    [{ 'cache-control': 'no-cache, max-age=600' }, 0],
    [{ 'cache-control': 'no-store' }, 0],
    [{ expires: 'Mon, 07 Dec 2026 12:10:00 GMT', date: 'Mon, 07 Dec 2026 12:00:00 GMT' }, 600],
    [{ expires: '0' }, 0],
    [{}, 3600],
    [{ 'cache-control': 'max-age=999999999' }, 86_400],
  ])('%o → %i s', (h, seconds) => {
    expect(freshnessOf(headers(h), 86_400)).toBe(seconds);
  });
});
