/**
 * The authorization server façade for tests: an upstream OpenID provider (oidc-provider,
 * in-process on 127.0.0.1, dynamic registration OFF, one static confidential client for the
 * façade), and an mcpkit server behind `authorizationFacade` on another random loopback port.
 * The user's browser is `browse()` of ./oidc.ts (it answers the façade's consent page too).
 */
// @ts-expect-error oidc-provider ships no type declarations
import Provider from 'oidc-provider';
import {
  authorizationFacade,
  oidcUpstream,
  type AuthorizationFacade,
  type AuthorizationFacadeOptions,
} from '../../src/auth/index.js';
import { toNodeListener } from '../../src/integrations/node/index.js';
import type { McpServer } from '../../src/server/index.js';
import { lateServer, signingKey } from './oidc.js';
import { protectedDefinition } from './protected-server.js';

/** A running upstream OpenID provider with the façade's static client. */
export interface TestUpstream {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** Starts the upstream; `redirectUris` are the façade callbacks registered for its client. */
export async function startUpstream(redirectUris: string[]): Promise<TestUpstream> {
  const http = await lateServer();
  const provider = new Provider(http.origin, {
    jwks: { keys: [await signingKey('RS256', 'up')] },
    cookies: { keys: ['upstream-cookie-key'] },
    clients: [
      {
        client_id: 'facade',
        client_secret: 'facade-secret',
        redirect_uris: redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    scopes: ['openid', 'offline_access', 'email', 'profile'],
    claims: { openid: ['sub'], email: ['email'], profile: ['name'] },
    ttl: {
      AccessToken: 3600,
      RefreshToken: 86400,
      IdToken: 3600,
      Grant: 86400,
      Interaction: 600,
      Session: 86400,
    },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true }, registration: { enabled: false } },
    issueRefreshToken: () => true,
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({ sub, email: `${sub}@example.com`, name: sub.toUpperCase() }),
    }),
  } as never);
  http.set(provider.callback() as never);
  return { issuer: http.origin, clientId: 'facade', clientSecret: 'facade-secret', close: http.close };
}

/** The façade, the upstream and the MCP endpoint behind them. */
export interface FacadeSetup {
  /** The MCP endpoint URL. */
  url: string;
  facade: AuthorizationFacade;
  upstream: TestUpstream;
  close(): Promise<void>;
}

/**
 * Starts the upstream and an MCP server behind the façade. The server is the protected test
 * server plus `upstream-me`, which calls the upstream's userinfo with the upstream token.
 */
export async function startFacade(
  options: Partial<AuthorizationFacadeOptions> = {},
  server: McpServer = protectedDefinition(),
): Promise<FacadeSetup> {
  const http = await lateServer();
  const upstream = await startUpstream([`${http.origin}/oauth/callback`]);
  const facade = authorizationFacade({
    resource: `${http.origin}/mcp`,
    upstream: oidcUpstream({
      issuer: upstream.issuer,
      clientId: 'facade',
      clientSecret: 'facade-secret',
      scopes: ['openid', 'email', 'offline_access'],
    }),
    scopes: ['mcp:read', 'mcp:write'],
    allowLoopbackClientMetadata: true,
    ...options,
  });
  server.tool('upstream-me', { description: 'The upstream userinfo' }, async (_args, ctx) => {
    const token = await facade.upstreamToken(ctx.auth);
    const me = await fetch(`${upstream.issuer}/me`, { headers: { authorization: `Bearer ${token}` } });
    return { content: [{ type: 'text', text: await me.text() }] };
  });
  const endpoint = toNodeListener(server, { auth: facade });
  http.set(endpoint);
  return {
    url: `${http.origin}/mcp`,
    facade,
    upstream,
    close: async () => {
      await endpoint.close();
      await http.close();
      await upstream.close();
    },
  };
}

/** Registers a public client at the façade of `mcpUrl` (redirect `http://127.0.0.1:9/cb`). */
export async function registerClient(mcpUrl: string, redirectUris = ['http://127.0.0.1:9/cb']) {
  const response = await fetch(new URL('/oauth/register', mcpUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test client', redirect_uris: redirectUris }),
  });
  if (response.status !== 201)
    throw new Error(`registration failed: ${response.status} ${await response.text()}`);
  const client = (await response.json()) as { client_id: string; redirect_uris: string[] };
  return { client_id: client.client_id, redirect_uri: client.redirect_uris[0]! };
}

/** An authorization URL of the façade with PKCE S256, and its verifier and state. */
export async function authorizeUrl(mcpUrl: string, clientId: string, extra: Record<string, string> = {}) {
  const verifier = crypto.randomUUID() + crypto.randomUUID();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  const challenge = Buffer.from(digest).toString('base64url');
  const url = new URL('/oauth/authorize', mcpUrl);
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: 'http://127.0.0.1:9/cb',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'client-state',
    resource: mcpUrl,
    scope: 'mcp:read',
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return { url, verifier };
}

/** Redeems the code of the authorization response `back`; the token endpoint's JSON (throws on an error). */
export async function redeem(
  mcpUrl: string,
  of: { clientId: string; back: URL; verifier: string; redirectUri?: string },
) {
  const response = await redeemRaw(mcpUrl, of);
  if (response.status !== 200)
    throw new Error(`token request failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    scope: string;
  };
}

/** The token endpoint's response to the code of `back`. */
export function redeemRaw(
  mcpUrl: string,
  of: { clientId: string; back: URL; verifier: string; redirectUri?: string; resource?: string },
) {
  return fetch(new URL('/oauth/token', mcpUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: of.back.searchParams.get('code') ?? '',
      client_id: of.clientId,
      redirect_uri: of.redirectUri ?? 'http://127.0.0.1:9/cb',
      code_verifier: of.verifier,
      resource: of.resource ?? mcpUrl,
    }),
  });
}
