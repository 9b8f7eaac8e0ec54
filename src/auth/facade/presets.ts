/**
 * Upstream providers for the façade: GitHub (plain OAuth; the user from its REST API),
 * Google and Microsoft Entra ID (OpenID Connect), and any OpenID provider by discovery.
 * Each needs the static client registered at the provider, with the façade's
 * `callbackUrl` as its redirect URI.
 * Source: GitHub "Authorizing OAuth apps"; Google "OpenID Connect"; Microsoft identity
 * platform "OpenID Connect on the Microsoft identity platform".
 */
import { AuthError } from '../errors.js';
import { readJson } from '../client/discovery.js';
import type { UpstreamIdentity, UpstreamProvider, UpstreamTokens } from './upstream.js';

/** The static client at the upstream. */
export interface UpstreamClient {
  clientId: string;
  clientSecret: string;
  /** Scopes asked of the upstream (each preset has a default). */
  scopes?: string[];
}

/**
 * GitHub (an OAuth app or a GitHub App's user authorization): the authorization code flow with
 * PKCE; the principal is the GitHub user id (`sub`), with `login` and `name` as claims.
 * Default scopes: `read:user`.
 */
export function githubUpstream(client: UpstreamClient): UpstreamProvider {
  return {
    issuer: 'https://github.com',
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    clientAuth: 'post',
    scopes: client.scopes ?? ['read:user'],
    metadata: {
      issuer: 'https://github.com',
      authorization_endpoint: 'https://github.com/login/oauth/authorize',
      token_endpoint: 'https://github.com/login/oauth/access_token',
    },
    identity: githubUser,
  };
}

/** The GitHub user of an access token (`GET https://api.github.com/user`). @throws AuthError `AUTHORIZATION_REJECTED`. */
async function githubUser(tokens: UpstreamTokens, fetcher: typeof fetch): Promise<UpstreamIdentity> {
  const response = await fetcher('https://api.github.com/user', {
    headers: {
      authorization: `Bearer ${tokens.accessToken}`,
      accept: 'application/vnd.github+json',
      'user-agent': 'mcpkit',
    },
  });
  const user = response.ok ? await readJson(response) : undefined;
  if (typeof user?.id !== 'number' || typeof user.login !== 'string')
    throw new AuthError('AUTHORIZATION_REJECTED', 'the GitHub user could not be read');
  return {
    subject: String(user.id),
    claims: {
      login: user.login,
      ...(typeof user.name === 'string' ? { name: user.name.slice(0, 256) } : {}),
    },
  };
}

/**
 * Google (OpenID Connect): the principal is the Google account's `sub`, with `email` and
 * `name`. Asks for offline access so handlers can keep calling Google APIs. Default scopes:
 * `openid email profile`.
 */
export function googleUpstream(client: UpstreamClient): UpstreamProvider {
  return {
    issuer: 'https://accounts.google.com',
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    scopes: client.scopes ?? ['openid', 'email', 'profile'],
    authorizationParams: { access_type: 'offline', prompt: 'consent' },
  };
}

/**
 * Microsoft Entra ID (OpenID Connect, v2.0 endpoints) of one tenant (its id or domain; a
 * multi-tenant issuer is not a single issuer and is refused by discovery). Default scopes:
 * `openid profile email offline_access`.
 */
export function entraUpstream(client: UpstreamClient & { tenant: string }): UpstreamProvider {
  return {
    issuer: `https://login.microsoftonline.com/${encodeURIComponent(client.tenant)}/v2.0`,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    scopes: client.scopes ?? ['openid', 'profile', 'email', 'offline_access'],
  };
}

/**
 * Any OpenID provider, by discovery of `issuer` (`/.well-known/openid-configuration`).
 * Default scopes: `openid email profile`.
 */
export function oidcUpstream(
  client: UpstreamClient & { issuer: string; allowInsecureHttp?: boolean },
): UpstreamProvider {
  return {
    issuer: client.issuer,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    scopes: client.scopes ?? ['openid', 'email', 'profile'],
    ...(client.allowInsecureHttp ? { allowInsecureHttp: true } : {}),
  };
}
