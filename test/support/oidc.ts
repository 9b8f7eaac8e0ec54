/**
 * A real authorization server for tests: panva's oidc-provider, in-process on 127.0.0.1,
 * with PKCE, dynamic registration, resource indicators (JWT access tokens for resources
 * whose URL does not contain "opaque", opaque ones otherwise), introspection, client
 * credentials, refresh tokens and DPoP. `approve()` plays the user's browser headlessly:
 * it follows the authorization URL and submits the provider's own (development)
 * login and consent forms, then returns the redirect URI the browser would be sent to.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
// @ts-expect-error oidc-provider ships no type declarations
import Provider from 'oidc-provider';

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

async function keys() {
  const ec = await generateKeyPair('ES256', { extractable: true });
  const rsa = await generateKeyPair('RS256', { extractable: true });
  return [
    { ...(await exportJWK(ec.privateKey)), alg: 'ES256', use: 'sig', kid: 'ec' },
    { ...(await exportJWK(rsa.privateKey)), alg: 'RS256', use: 'sig', kid: 'rsa' },
  ];
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
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_q, s) => s.writeHead(503).end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, configuration(options, await keys()) as never);
  handler = provider.callback() as never;
  return {
    issuer,
    rs: { clientId: 'rs', clientSecret: 'rs-secret' },
    machine: { clientId: 'machine', clientSecret: 'machine-secret' },
    approve: (url, login = 'alice') => approve(url, login),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser in a loop: follow redirects, keep cookies, submit login then consent (dev interactions). */
export async function approve(start: URL, login = 'alice'): Promise<URL> {
  const redirectUri = start.searchParams.get('redirect_uri') ?? '';
  const jar = new Map<string, string>();
  let url = start;
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers,
      body: form ?? null,
      redirect: 'manual',
    });
    form = undefined;
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
    if (response.status !== 200)
      throw new Error(`authorization server answered ${response.status}: ${html.slice(0, 300)}`);
    form = html.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
      : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('the authorization flow did not come back to the redirect URI');
}
