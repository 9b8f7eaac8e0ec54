/**
 * The authorization server façade and `ctx.userState` on Workers, under `wrangler dev`
 * (workerd from npm, no nodejs_compat), with both stores in Durable Objects: a client
 * registers in one request and is found in the next ones, the whole flow (consent, sign-in
 * at a real OpenID provider upstream, callback, code redeemed once) runs across requests that
 * share only the `McpFacade` objects, and a note set by one call is read, after workerd
 * restarted on the same state, from the caller's `McpUserState` object (and not by another
 * user); the tokens still verify then because their grants are in `McpFacade` objects.
 * Source: 2026-07-28 basic/authorization; developers.cloudflare.com/durable-objects/api.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authorizeUrl,
  redeem,
  redeemRaw,
  registerClient,
  startUpstream,
  type TestUpstream,
} from '../support/facade.js';
import { browse } from '../support/oidc.js';
import { callTool } from '../support/user-state.js';
import { startWranglerDev, type WranglerDev } from '../support/wrangler.js';

let upstream: TestUpstream | undefined;
let wrangler: WranglerDev | undefined;
let url = '';
let restart: () => Promise<void>;

/** A free loopback port: the upstream must know the façade's callback before wrangler starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  upstream = await startUpstream([`${origin}/oauth/callback`]);
  const vars = {
    MCP_RESOURCE: `${origin}/mcp`,
    UPSTREAM_ISSUER: upstream.issuer,
    FACADE_SECRET: 'a Worker test secret of at least thirty-two characters',
  };
  wrangler = await startWranglerDev('test/runtimes/facade-worker.jsonc', { port, vars });
  url = `${wrangler.origin}/mcp`;
  // A new workerd on the same state: only what the Durable Objects persisted is left.
  restart = async () => {
    const state = wrangler!.state;
    await wrangler!.stop();
    wrangler = await startWranglerDev('test/runtimes/facade-worker.jsonc', { port, vars, state });
  };
}, 120_000);

afterAll(async () => {
  await wrangler?.stop();
  await upstream?.close();
});

/** Signs `login` in through the Worker's façade: register, authorize, consent, upstream, redeem. */
async function signIn(login: string) {
  const client = await registerClient(url);
  const flow = await authorizeUrl(url, client.client_id);
  const back = await browse(flow.url, client.redirect_uri, { login });
  expect(back.searchParams.get('iss')).toBe(wrangler!.origin);
  return {
    client,
    flow,
    back,
    tokens: await redeem(url, { clientId: client.client_id, back, verifier: flow.verifier }),
  };
}

describe('the façade on Workers, its store in Durable Objects', () => {
  it('finds a client registered in an earlier request, completes the flow, and spends a code once', async () => {
    const { client, flow, back, tokens } = await signIn('heidi');
    expect(tokens.access_token).toBeTruthy();
    const again = await redeemRaw(url, { clientId: client.client_id, back, verifier: flow.verifier });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe('invalid_grant');
  }, 60_000);

  it('refuses a client id that no Durable Object holds', async () => {
    const flow = await authorizeUrl(url, 'never-registered');
    const response = await fetch(flow.url, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('unknown client_id');
  });
});

describe('ctx.userState on Workers, in Durable Objects', () => {
  it('reads the note an earlier request set, after a restart, for the same user only', async () => {
    const ivan = (await signIn('ivan')).tokens.access_token;
    const judy = (await signIn('judy')).tokens.access_token;
    const set = await callTool(
      url,
      { token: ivan },
      { name: 'note_set', args: { key: 'k', value: { n: 1 } } },
    );
    expect(set.text).toBe('kept');
    // The grants (McpFacade) and the note (McpUserState) must outlive the isolate.
    await restart();
    const got = await callTool(url, { token: ivan }, { name: 'note_get', args: { key: 'k' } });
    expect(JSON.parse(got.text!)).toEqual({ n: 1 });
    const other = await callTool(url, { token: judy }, { name: 'note_get', args: { key: 'k' } });
    expect(JSON.parse(other.text!)).toBeNull();
  }, 120_000);
});
