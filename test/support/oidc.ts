/**
 * A real authorization server for tests: panva's oidc-provider, in-process on 127.0.0.1,
 * with PKCE, dynamic registration, resource indicators (JWT access tokens for resources
 * whose URL does not contain "opaque", opaque ones otherwise), introspection, client
 * credentials, refresh tokens and DPoP. `approve()` plays the user's browser headlessly:
 * it follows the authorization URL and submits the provider's own (development)
 * login and consent forms, then returns the redirect URI the browser would be sent to.
 * `browse()` is that browser with more to do (the façade's consent page, a kept cookie jar).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
// @ts-expect-error oidc-provider ships no type declarations
import Provider from 'oidc-provider';
import type { NodeListener } from '../../src/integrations/node/index.js';

/** A running authorization server. */
export interface TestIssuer {
  issuer: string;
  /** Credentials of the resource server, for introspection. */
  rs: { clientId: string; clientSecret: string };
  /** A confidential client allowed the client credentials grant. */
  machine: { clientId: string; clientSecret: string };
  /** Follows an authorization URL as user `login`, consenting; returns the callback URL. */
  approve(url: URL, login?: string): Promise<URL>;
  close(): Promise<void>;
}

/** Options of {@link startIssuer}. */
export interface IssuerOptions {
  /** Access token lifetime in seconds (default 3600). */
  accessTokenTtl?: number;
  /** Scopes each resource offers (default `mcp:read mcp:write`). */
  scopes?: string;
}

/** A new private signing JWK for a provider's `jwks`. */
export async function signingKey(alg: 'ES256' | 'RS256', kid: string) {
  const pair = await generateKeyPair(alg, { extractable: true });
  return { ...(await exportJWK(pair.privateKey)), alg, use: 'sig', kid };
}

async function keys() {
  return [await signingKey('ES256', 'ec'), await signingKey('RS256', 'rsa')];
}

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

function configuration(options: IssuerOptions, jwks: object[]) {
  const scope = options.scopes ?? 'mcp:read mcp:write';
  return {
    jwks: { keys: jwks },
    cookies: { keys: ['test-cookie-key'] },
    clients: [
      { client_id: 'rs', client_secret: 'rs-secret', grant_types: [], redirect_uris: [], response_types: [] },
      {
        client_id: 'machine',
        client_secret: 'machine-secret',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      },
    ],
    scopes: ['openid', 'offline_access', ...scope.split(' ')],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      introspection: { enabled: true },
      clientCredentials: { enabled: true },
      dPoP: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope,
          audience: resource,
          accessTokenTTL: options.accessTokenTtl ?? 3600,
          accessTokenFormat: resource.includes('opaque') ? 'opaque' : 'jwt',
          ...(resource.includes('opaque') ? {} : { jwt: { sign: { alg: 'ES256' } } }),
        }),
      },
    },
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    clientBasedCORS: () => true,
  };
}

/** Starts an authorization server on a random loopback port. */
export async function startIssuer(options: IssuerOptions = {}): Promise<TestIssuer> {
  const http = await lateServer();
  const issuer = http.origin;
  const provider = new Provider(issuer, configuration(options, await keys()) as never);
  http.set(provider.callback() as never);
  return {
    issuer,
    rs: { clientId: 'rs', clientSecret: 'rs-secret' },
    machine: { clientId: 'machine', clientSecret: 'machine-secret' },
    approve: (url, login = 'alice') => approve(url, login),
    close: http.close,
  };
}

/** A browser that signs in as `login` and consents; returns the URL it is sent to at the authorization's `redirect_uri`. */
export function approve(start: URL, login = 'alice'): Promise<URL> {
  return browse(start, start.searchParams.get('redirect_uri') ?? '', { login });
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
