/**
 * A peer that accepts the connection and then stalls (before the headers, with no body,
 * halfway through the body, or in an open SSE stream) cannot hold the auth code: discovery,
 * token grants and token introspection each reject with an error naming the URL and the
 * bound, while calls to a healthy server go on; a peer that crashes mid-body is reported.
 * Fake timers move the bounds on once the stalled server got the request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STALLS, stallingServer, type StallingServer } from '../../test/support/stalling-server.js';
import { turns, until } from '../../test/support/wait.js';
import { discoverIssuer } from './client/discovery.js';
import { clientCredentialsGrant, type GrantContext } from './client/grants.js';
import { introspectionVerifier } from './server/verifiers.js';

const servers: Array<StallingServer> = [];
let healthy: Server;
let healthyBase = '';
beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
afterEach(() => void vi.useRealTimers());
afterAll(async () => {
  for (const s of servers) await s.close();
  await new Promise((r) => (healthy?.closeAllConnections(), healthy?.close(r)));
});

async function stalled(stall: Parameters<typeof stallingServer>[0]): Promise<StallingServer> {
  const server = await stallingServer(stall);
  servers.push(server);
  return server;
}

/** A server answering every path with its issuer metadata and every POST with a token. */
async function healthyServer(): Promise<string> {
  if (healthyBase) return healthyBase;
  healthy = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.method === 'POST') return void res.end('{"access_token":"t","token_type":"bearer"}');
    res.end(JSON.stringify({ issuer: healthyBase, token_endpoint: `${healthyBase}/token` }));
  });
  await new Promise<void>((r) => healthy.listen(0, '127.0.0.1', r));
  healthyBase = `http://127.0.0.1:${(healthy.address() as AddressInfo).port}`;
  return healthyBase;
}

const http = { fetch: (i: RequestInfo | URL, o?: RequestInit) => fetch(i, o), insecureOk: () => true };

function grantContext(base: string): GrantContext {
  return {
    as: { issuer: base, token_endpoint: `${base}/token` },
    identity: { client: { client_id: 'c' }, auth: oauth.None() },
    resource: 'http://127.0.0.1/mcp',
    scopes: [],
    fetch: http.fetch,
    insecure: true,
  };
}

/** Waits until `server` stalled `n` requests, lets the client read what it got, then passes `ms`. */
async function passBound(server: StallingServer, ms: number, n = 1): Promise<void> {
  await until(() => server.stalled >= n);
  await turns(5);
  vi.advanceTimersByTime(ms);
}

describe.each(STALLS)('a peer that stalls (%s)', (stall) => {
  it('fails authorization server discovery with the URL and the 30000 ms bound', async () => {
    const server = await stalled(stall);
    const failure = discoverIssuer(http, server.base).catch((e: unknown) => e);
    await passBound(server, 30_000);
    const error = (await failure) as Error & { code: string };
    expect(error.code).toBe('DISCOVERY_FAILED');
    expect(error.message).toContain(`${server.base}/.well-known/`);
    expect(error.message).toContain('no complete answer within 30000 ms');
  });

  it('fails a token request with the URL and the 30000 ms bound', async () => {
    const server = await stalled(stall);
    const failure = clientCredentialsGrant(grantContext(server.base)).catch((e: unknown) => e);
    await passBound(server, 30_000);
    const error = (await failure) as Error & { code: string };
    expect(error.code).toBe('TOKEN_REQUEST_FAILED');
    expect(error.message).toContain(`${server.base}/token: no complete answer within 30000 ms`);
  });

  it('fails token introspection with the URL and the 5000 ms bound', async () => {
    const server = await stalled(stall);
    const verify = introspectionVerifier({
      issuer: server.base,
      introspectionEndpoint: `${server.base}/introspect`,
      clientId: 'c',
      clientSecret: 's',
      audience: 'http://127.0.0.1/mcp',
    });
    const failure = verify('token').catch((e: unknown) => e);
    await passBound(server, 5000);
    const error = (await failure) as Error & { code: string };
    expect(error.code).toBe('VERIFIER_UNAVAILABLE');
    expect(error.message).toContain(`${server.base}/introspect: no complete answer within 5000 ms`);
  });
});

describe('one stalled authorization server', () => {
  it('does not hold up discovery and token requests to a healthy one meanwhile', async () => {
    const server = await stalled('half');
    const base = await healthyServer();
    const stuck = clientCredentialsGrant(grantContext(server.base)).catch((e: unknown) => e);
    const stuckDiscovery = discoverIssuer(http, server.base).catch((e: unknown) => e);
    await until(() => server.stalled >= 2);
    await expect(discoverIssuer(http, base)).resolves.toMatchObject({ issuer: base });
    await expect(clientCredentialsGrant(grantContext(base))).resolves.toMatchObject({ access_token: 't' });
    vi.advanceTimersByTime(30_000);
    await expect(stuck).resolves.toMatchObject({ code: 'TOKEN_REQUEST_FAILED' });
    await expect(stuckDiscovery).resolves.toMatchObject({ code: 'DISCOVERY_FAILED' });
  });
});

describe('a peer that crashes mid-body', () => {
  it('is reported as a failed token request, not waited on', async () => {
    const server = await stalled('reset');
    const error = (await clientCredentialsGrant(grantContext(server.base)).catch(
      (e: unknown) => e,
    )) as Error & {
      code: string;
    };
    expect(error.code).toBe('TOKEN_REQUEST_FAILED');
    expect(error.message).not.toContain('no complete answer');
  });

  it('is reported as failed discovery and failed introspection', async () => {
    const server = await stalled('reset');
    await expect(discoverIssuer(http, server.base)).rejects.toMatchObject({ code: 'DISCOVERY_FAILED' });
    const verify = introspectionVerifier({
      issuer: server.base,
      introspectionEndpoint: `${server.base}/introspect`,
      clientId: 'c',
      clientSecret: 's',
      audience: 'http://127.0.0.1/mcp',
    });
    await expect(verify('token')).rejects.toMatchObject({ code: 'VERIFIER_UNAVAILABLE' });
  });
});
