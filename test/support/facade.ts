/**
 * The authorization server façade for tests: an upstream OpenID provider (oidc-provider,
 * in-process on 127.0.0.1, dynamic registration OFF, one static confidential client for the
 * façade), and an mcpkit server behind `authorizationFacade` on another random loopback port.
 * `browse()` plays the user's browser: it follows redirects with a cookie jar, approves (or
 * denies) the façade's consent page, and signs in and consents at the upstream.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
// @ts-expect-error oidc-provider ships no type declarations
import Provider from 'oidc-provider';
import {
  authorizationFacade,
  oidcUpstream,
  type AuthorizationFacade,
  type AuthorizationFacadeOptions,
} from '../../src/auth/index.js';
import { toNodeListener, type NodeListener } from '../../src/integrations/node/index.js';
import type { McpServer } from '../../src/server/index.js';
import { protectedDefinition } from './protected-server.js';

/** A listening node:http server whose handler is set after it listens (its URL is needed first). */
export async function lateServer(): Promise<{
  origin: string;
  set(h: NodeListener): void;
  close(): Promise<void>;
}> {
  let handler: NodeListener = (_q, s) => void s.writeHead(503).end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set: (h) => void (handler = h),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

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
  const key = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(http.origin, {
    jwks: { keys: [{ ...(await exportJWK(key.privateKey)), alg: 'RS256', use: 'sig', kid: 'up' }] },
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

/** A browser's cookies, by name (one test browser; hosts are all 127.0.0.1). */
export type CookieJar = Map<string, string>;

/** What the simulated user does. */
export interface BrowseOptions {
  /** The upstream login (default `alice`). */
  login?: string;
  /** The answer on the façade's consent page (default approve). */
  decision?: 'approve' | 'deny';
  /** The browser's cookies, kept across flows (default a new jar). */
  jar?: CookieJar;
  /** The browser's fetch (default the global one). */
  fetch?: typeof fetch;
  /** Called with each page the façade or upstream shows (status, headers, HTML). */
  onPage?: (page: { url: URL; status: number; headers: Headers; html: string }) => void;
}

function hidden(html: string, name: string): string {
  return new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
}

/** Follows `start` like a browser until it is sent to `redirectUri`; returns that URL. */
export async function browse(start: URL, redirectUri: string, options: BrowseOptions = {}): Promise<URL> {
  const jar = options.jar ?? new Map<string, string>();
  let url = start;
  let post: { to: URL; form: URLSearchParams } | undefined;
  for (let step = 0; step < 25; step++) {
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (post) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (post) url = post.to;
    const response = await (options.fetch ?? fetch)(url, {
      method: post ? 'POST' : 'GET',
      headers,
      body: post?.form ?? null,
      redirect: 'manual',
    });
    post = undefined;
    for (const c of response.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (location) {
      await response.body?.cancel();
      url = new URL(location, url);
      if (url.href.startsWith(redirectUri)) return url;
      continue;
    }
    const html = await response.text();
    options.onPage?.({ url, status: response.status, headers: response.headers, html });
    if (response.status !== 200)
      throw new Error(`${url.host} answered ${response.status}: ${html.slice(0, 300)}`);
    if (html.includes('name="decision"')) {
      const action = new URL(/action="([^"]+)"/.exec(html)![1]!.replace(/&#38;/g, '&'), url);
      const form = new URLSearchParams({
        pending: hidden(html, 'pending'),
        csrf: hidden(html, 'csrf'),
        decision: options.decision ?? 'approve',
      });
      post = { to: action, form };
    } else {
      const form = html.includes('name="login"')
        ? new URLSearchParams({ prompt: 'login', login: options.login ?? 'alice', password: 'any' })
        : new URLSearchParams({ prompt: 'consent' });
      post = { to: url, form };
    }
  }
  throw new Error('the authorization flow did not come back to the redirect URI');
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
