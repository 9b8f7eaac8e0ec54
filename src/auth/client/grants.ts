/**
 * Token endpoint requests, each through oauth4webapi: authorization code (with PKCE, the
 * `resource` indicator and the RFC 9207 `iss` check), refresh, client credentials,
 * JWT bearer (RFC 7523) and token exchange (RFC 8693). A DPoP `use_dpop_nonce` answer is
 * retried once with the server's nonce (RFC 9449 §8).
 * Source: 2026-07-28 basic/authorization; RFC 8707; RFC 9207; RFC 9449.
 */
import * as oauth from 'oauth4webapi';
import { AuthError, describe } from '../errors.js';
import { splitScope } from './challenge.js';
import { boundedFetch } from './discovery.js';
import type { ClientIdentity } from './identity.js';
import type { StoredTokens } from './store.js';

/** What every token request needs. */
export interface GrantContext {
  as: oauth.AuthorizationServer;
  identity: ClientIdentity;
  resource: string;
  scopes: string[];
  fetch: typeof fetch;
  insecure: boolean;
  dpop?: oauth.DPoPHandle | undefined;
}

/** Longest wait, in milliseconds, for a token endpoint's answer: headers and body. */
const TOKEN_TIMEOUT_MS = 30_000;

/** Token types we accept besides bearer and DPoP (`N_A` of RFC 8693 ID-JAG answers). */
const EXTRA_TOKEN_TYPES: oauth.RecognizedTokenTypes = { n_a: () => undefined };

function requestOptions(ctx: GrantContext, withResource = true): oauth.TokenEndpointRequestOptions {
  return {
    ...(withResource ? { additionalParameters: { resource: ctx.resource } } : {}),
    ...(ctx.dpop ? { DPoP: ctx.dpop } : {}),
    [oauth.customFetch]: boundedFetch(ctx.fetch, TOKEN_TIMEOUT_MS),
    [oauth.allowInsecureRequests]: ctx.insecure,
  };
}

/** Runs a request and its processing, once more when the server asks for a DPoP nonce. */
async function withNonceRetry(
  ctx: GrantContext,
  what: string,
  run: () => Promise<oauth.TokenEndpointResponse>,
): Promise<oauth.TokenEndpointResponse> {
  try {
    try {
      return await run();
    } catch (error) {
      if (!ctx.dpop || !oauth.isDPoPNonceError(error)) throw error;
      return await run();
    }
  } catch (error) {
    throw new AuthError('TOKEN_REQUEST_FAILED', `${what} at ${ctx.as.issuer} failed: ${describe(error)}`, {
      cause: error,
    });
  }
}

/** The stored form of a token response. */
export function toStored(
  ctx: GrantContext,
  r: oauth.TokenEndpointResponse,
  previous?: StoredTokens,
): StoredTokens {
  const out: StoredTokens = {
    access_token: r.access_token,
    token_type: (r.token_type ?? 'bearer').toLowerCase(),
    scopes: r.scope ? splitScope(r.scope) : ctx.scopes,
    issuer: ctx.as.issuer,
  };
  const refresh = r.refresh_token ?? previous?.refresh_token;
  if (refresh) out.refresh_token = refresh;
  if (typeof r.expires_in === 'number') out.expires_at = Date.now() + r.expires_in * 1000;
  return out;
}

/** A pending authorization code flow: what `finish` needs once the user comes back. */
export interface PendingAuthorization {
  url: URL;
  state: string;
  verifier: string;
  redirectUri: string;
}

/** Builds the authorization URL with PKCE S256, `state`, `resource` and the scopes. */
export async function startCodeFlow(ctx: GrantContext, redirectUri: string): Promise<PendingAuthorization> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(ctx.as.authorization_endpoint!);
  url.searchParams.set('client_id', ctx.identity.client.client_id);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  url.searchParams.set('resource', ctx.resource);
  if (ctx.scopes.length > 0) url.searchParams.set('scope', ctx.scopes.join(' '));
  if (ctx.dpop) url.searchParams.set('dpop_jkt', await ctx.dpop.calculateThumbprint());
  return { url, state, verifier, redirectUri };
}

/**
 * Checks the authorization response (`state`; `iss` compared by plain string equality,
 * required when the server advertises it) and redeems the code.
 * @throws AuthError `AUTHORIZATION_REJECTED` or `TOKEN_REQUEST_FAILED`.
 */
export async function finishCodeFlow(ctx: GrantContext, pending: PendingAuthorization, callback: URL) {
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(ctx.as, ctx.identity.client, callback, pending.state);
  } catch (error) {
    throw new AuthError(
      'AUTHORIZATION_REJECTED',
      `the authorization response was refused: ${describe(error)}`,
    );
  }
  const { as, identity } = ctx;
  return withNonceRetry(ctx, 'the authorization code exchange', async () => {
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      identity.client,
      identity.auth,
      params,
      pending.redirectUri,
      pending.verifier,
      requestOptions(ctx),
    );
    return oauth.processAuthorizationCodeResponse(as, identity.client, response, {
      recognizedTokenTypes: EXTRA_TOKEN_TYPES,
    });
  });
}

/** Spends a refresh token (with `resource`, and the same scopes). */
export function refreshGrant(ctx: GrantContext, refreshToken: string) {
  const { as, identity } = ctx;
  return withNonceRetry(ctx, 'the refresh', async () => {
    const response = await oauth.refreshTokenGrantRequest(
      as,
      identity.client,
      identity.auth,
      refreshToken,
      requestOptions(ctx),
    );
    return oauth.processRefreshTokenResponse(as, identity.client, response, {
      recognizedTokenTypes: EXTRA_TOKEN_TYPES,
    });
  });
}

/** The client credentials grant (OAuth 2.1 §4.2). */
export function clientCredentialsGrant(ctx: GrantContext) {
  const { as, identity } = ctx;
  const params = new URLSearchParams({ resource: ctx.resource });
  if (ctx.scopes.length > 0) params.set('scope', ctx.scopes.join(' '));
  return withNonceRetry(ctx, 'the client credentials grant', async () => {
    const options = requestOptions(ctx, false);
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      identity.client,
      identity.auth,
      params,
      options,
    );
    return oauth.processClientCredentialsResponse(as, identity.client, response, {
      recognizedTokenTypes: EXTRA_TOKEN_TYPES,
    });
  });
}

/** A grant by type with extra parameters: JWT bearer (RFC 7523), token exchange (RFC 8693). */
export function genericGrant(ctx: GrantContext, grantType: string, parameters: Record<string, string>) {
  const { as, identity } = ctx;
  const params = new URLSearchParams({ resource: ctx.resource, ...parameters });
  if (ctx.scopes.length > 0 && !params.has('scope')) params.set('scope', ctx.scopes.join(' '));
  return withNonceRetry(ctx, `the ${grantType} grant`, async () => {
    const options = requestOptions(ctx, false);
    const response = await oauth.genericTokenEndpointRequest(
      as,
      identity.client,
      identity.auth,
      grantType,
      params,
      options,
    );
    return oauth.processGenericTokenEndpointResponse(as, identity.client, response, {
      recognizedTokenTypes: EXTRA_TOKEN_TYPES,
    });
  });
}
