/**
 * The façade on Redis across a fleet: two façade instances share one real redis-server
 * (bench/harness/redis.ts) and one secret; a client registers and starts its authorization
 * on instance A, the browser's consent and the upstream's callback land on B, the code is
 * redeemed on A, the token works on B, and a refresh on B rotates what A issued. A code two
 * instances race for never yields two usable token sets.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../../../bench/harness/redis.js';
import {
  authorizeUrl,
  redeemRaw,
  registerClient,
  startUpstream,
  type TestUpstream,
} from '../../../test/support/facade.js';
import { browse, lateServer } from '../../../test/support/oidc.js';
import { protectedDefinition } from '../../../test/support/protected-server.js';
import { authorizationFacade, oidcUpstream } from '../../auth/index.js';
import { toNodeListener } from '../node/index.js';
import { connectRedis, createRedisFacadeStore } from './index.js';

let redis: TestRedis;
let upstream: TestUpstream;
const connections: Redis[] = [];
const closers: (() => Promise<void>)[] = [];
const instances: string[] = [];

beforeAll(async () => {
  redis = await startRedis();
  // Two instances behind one public origin would share a URL; here each has its own port, so
  // the façade's issuer and resource are one public name (A's), and the test routes by hand.
  const a = await lateServer();
  const b = await lateServer();
  upstream = await startUpstream([`${a.origin}/oauth/callback`]);
  for (const http of [a, b]) {
    const connection = await connectRedis(redis.url);
    connections.push(connection);
    const facade = authorizationFacade({
      resource: `${a.origin}/mcp`,
      upstream: oidcUpstream({
        issuer: upstream.issuer,
        clientId: 'facade',
        clientSecret: 'facade-secret',
        scopes: ['openid'],
      }),
      secret: 'the secret every instance of the fleet shares!',
      store: createRedisFacadeStore(connection, { prefix: 'test:facade:' }),
      scopes: ['mcp:read'],
    });
    const endpoint = toNodeListener(protectedDefinition(), { auth: facade, allowedHosts: false });
    http.set(endpoint);
    instances.push(http.origin);
    closers.push(async () => {
      await endpoint.close();
      await http.close();
    });
  }
});

afterAll(async () => {
  for (const close of closers) await close();
  for (const c of connections) c.disconnect();
  await upstream?.close();
  await redis?.stop();
});

/** The same URL on instance `i` (same path and query). */
function on(i: number, url: URL | string): URL {
  const u = new URL(url);
  return new URL(u.pathname + u.search, instances[i]);
}

/** A modern tools/call of `whoami` at `origin` with `token`. */
const call = (origin: string, token: string) =>
  fetch(`${origin}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'whoami',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'whoami',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
        },
      },
    }),
  });

describe('the façade on Redis across a fleet', () => {
  it('finishes on one instance a flow started on another, and refreshes across instances', async () => {
    const [a, b] = instances as [string, string];
    const client = await registerClient(`${a}/mcp`);
    const flow = await authorizeUrl(`${a}/mcp`, client.client_id);
    // The browser: the consent page from A, its form posted to B; the upstream calls back A's
    // public URL, which the balancer sends to B.
    let hops = 0;
    const balanced: typeof fetch = (input, init) => {
      const url = new URL(String(input));
      const local = instances.includes(url.origin);
      return fetch(local ? on(hops++ % 2, url) : url, init);
    };
    const back = await browse(flow.url, client.redirect_uri, { fetch: balanced });
    expect(hops).toBeGreaterThanOrEqual(3);
    const tokens = await (
      await redeemRaw(`${b}/mcp`, {
        clientId: client.client_id,
        back,
        verifier: flow.verifier,
        resource: `${a}/mcp`,
      })
    ).json();
    expect(tokens.access_token).toBeTruthy();
    const answer = await (await call(a, tokens.access_token)).json();
    expect(JSON.parse(answer.result.content[0].text).sub).toBe('alice');
    const refreshed = await fetch(`${b}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: client.client_id,
      }),
    });
    const next = await refreshed.json();
    expect((await call(b, next.access_token)).status).toBe(200);
    const reuse = await fetch(`${a}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: client.client_id,
      }),
    });
    expect(reuse.status).toBe(400);
  });

  it('never redeems a code twice when two instances race for it', async () => {
    const [a, b] = instances as [string, string];
    const client = await registerClient(`${a}/mcp`);
    const flow = await authorizeUrl(`${a}/mcp`, client.client_id);
    const back = await browse(flow.url, client.redirect_uri);
    const answers = await Promise.all(
      [a, b].map((origin) =>
        redeemRaw(`${origin}/mcp`, {
          clientId: client.client_id,
          back,
          verifier: flow.verifier,
          resource: `${a}/mcp`,
        }),
      ),
    );
    const bodies = await Promise.all(answers.map((r) => r.json()));
    // GETDEL lets one instance take the code; the other sees it spent, which is a replay:
    // the grant is revoked, so no access token from this code stays usable.
    expect(answers.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    expect(bodies.some((body) => body.error === 'invalid_grant')).toBe(true);
    for (const body of bodies.filter((x) => x.access_token))
      expect((await call(b, body.access_token)).status).toBe(401);
  });
});
