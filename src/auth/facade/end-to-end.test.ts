/**
 * The authorization server façade end to end: a real OpenID provider upstream (oidc-provider,
 * dynamic registration off, one static client) and mcpkit's own OAuth client, which
 * registers at the façade, approves its consent page, signs in upstream, calls a tool as the
 * upstream user, reaches the upstream API through the upstream token held by the façade,
 * refreshes (rotation), and is refused once its grant is revoked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import { streamableHttp } from '../../client/http/index.js';
import { startFacade, type FacadeSetup } from '../../../test/support/facade.js';
import { browse } from '../../../test/support/oidc.js';
import { oauthClient } from '../index.js';

let setup: FacadeSetup;

beforeAll(async () => {
  setup = await startFacade();
});

afterAll(async () => {
  await setup?.close();
});

/** Status of a modern tools/list with `token`. */
async function callWith(token: string): Promise<number> {
  const response = await fetch(setup.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
        },
      },
    }),
  });
  await response.body?.cancel();
  return response.status;
}

/** Registers a client and runs the code flow by hand; the token answer and the client id. */
async function signIn() {
  const { registerClient, authorizeUrl, redeem } = await import('../../../test/support/facade.js');
  const client = await registerClient(setup.url);
  const flow = await authorizeUrl(setup.url, client.client_id);
  const back = await browse(flow.url, client.redirect_uri);
  return {
    ...(await redeem(setup.url, { clientId: client.client_id, back, verifier: flow.verifier })),
    clientId: client.client_id,
  };
}

function text(result: { content: unknown[] }): string {
  return (result.content[0] as { text: string }).text;
}

describe('the façade with mcpkit’s client and an OpenID provider without dynamic registration', () => {
  it('completes the flow, calls tools as the upstream user, and keeps the upstream token server-side', async () => {
    const seen: string[] = [];
    const fetcher: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input).endsWith('/oauth/token')) seen.push(await response.clone().text());
      return response;
    };
    const auth = oauthClient({
      redirect: (u) => browse(u, 'http://127.0.0.1/callback'),
      dpop: false,
      fetch: fetcher,
    });
    const client = createClient({ name: 'e2e', version: '1.0.0' });
    await client.connect(streamableHttp(setup.url, { auth }));
    const me = JSON.parse(text(await client.callTool('whoami', {})));
    expect(me.sub).toBe('alice');
    expect(me.scopes).toEqual(expect.arrayContaining(['mcp:read']));
    const upstreamMe = JSON.parse(text(await client.callTool('upstream-me', {})));
    expect(upstreamMe).toMatchObject({ sub: 'alice', email: 'alice@example.com' });
    // The MCP client saw only the façade's tokens: no upstream access or refresh token.
    const tokenAnswer = JSON.parse(seen[0]!);
    expect(tokenAnswer.access_token.split('.')).toHaveLength(3);
    expect(Object.keys(tokenAnswer).sort()).toEqual([
      'access_token',
      'expires_in',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    await client.close();

    // Refresh with rotation: the new refresh token works, the spent one is refused and
    // revokes the grant (the tokens it issued stop working).
    const clientId = JSON.parse(
      atob(tokenAnswer.access_token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')),
    ).client_id;
    const refresh = (token: string) =>
      fetch(new URL('/oauth/token', setup.url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: clientId }),
      });
    const rotated = await refresh(tokenAnswer.refresh_token);
    expect(rotated.status).toBe(200);
    const next = await rotated.json();
    expect(next.refresh_token).not.toBe(tokenAnswer.refresh_token);
    expect(await callWith(next.access_token)).toBe(200);
    expect((await refresh(tokenAnswer.refresh_token)).status).toBe(400);
    expect(await callWith(next.access_token)).toBe(401);
  });

  it('revokes a grant at the revocation endpoint (RFC 7009): its access token is refused', async () => {
    const tokens = await signIn();
    expect(await callWith(tokens.access_token)).toBe(200);
    const revoked = await fetch(new URL('/oauth/revoke', setup.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token, client_id: tokens.clientId }),
    });
    expect(revoked.status).toBe(200);
    expect(await callWith(tokens.access_token)).toBe(401);
  });
});
