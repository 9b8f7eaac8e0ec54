/**
 * The façade as an OAuth client of its upstream provider (oauth4webapi): one static client,
 * the authorization code flow with its own PKCE (S256) and state, the provider's identity
 * (ID token claims for OpenID Connect, a user API for plain OAuth such as GitHub), and
 * refresh of the upstream token when a handler asks for it.
 * Source: OAuth 2.1 §4.1 and §7.5.2; RFC 9207; OpenID Connect Core §3.1.
 */
import * as oauth from 'oauth4webapi';
import { AuthError, describe } from '../errors.js';
import { boundedFetch } from '../client/discovery.js';
import { insecureAllowed } from '../client/options.js';

/** Longest wait, in milliseconds, for one exchange with the upstream. */
const UPSTREAM_TIMEOUT_MS = 15_000;

/** Who the user is at the upstream: its stable subject and the claims the principal carries. */
export interface UpstreamIdentity {
  /** The upstream's stable user id (`sub`, or GitHub's numeric id). */
  subject: string;
  /** Extra claims for `ctx.auth.claims` (name, email, login…; kept small). */
  claims?: Record<string, string>;
}

/** The upstream tokens, as the façade keeps them (encrypted at rest). */
export interface UpstreamTokens {
  accessToken: string;
  refreshToken?: string;
  /** Seconds since the epoch. */
  expiresAt?: number;
  idToken?: string;
}

/** The upstream provider: see `githubUpstream`, `googleUpstream`, `entraUpstream`, `oidcUpstream`. */
export interface UpstreamProvider {
  /** The issuer: OpenID Connect discovery runs on it unless `metadata` is given. */
  issuer: string;
  /** The static client registered at the upstream. */
  clientId: string;
  /** Its secret (a confidential client; `client_secret_basic` unless `clientAuth` says post). */
  clientSecret?: string;
  /** How the secret is sent (default `basic`). */
  clientAuth?: 'basic' | 'post';
  /** Scopes asked of the upstream (e.g. `openid email profile`). */
  scopes: string[];
  /** The upstream's endpoints when it has no discovery (GitHub). */
  metadata?: oauth.AuthorizationServer;
  /** Extra parameters of the upstream authorization request (e.g. Google's `access_type=offline`). */
  authorizationParams?: Record<string, string>;
  /**
   * The identity of a token response; default: the claims of the OpenID Connect ID token.
   * @throws to refuse the sign-in.
   */
  identity?: (tokens: UpstreamTokens, fetcher: typeof fetch) => Promise<UpstreamIdentity>;
  /** Allow plain http to a non-loopback upstream (default false). */
  allowInsecureHttp?: boolean;
}

/** What the façade keeps of an upstream authorization in flight. */
export interface UpstreamPending {
  state: string;
  verifier: string;
  nonce?: string;
}

/** The upstream client of one provider: metadata discovered once, requests bounded. */
export class Upstream {
  readonly #p: UpstreamProvider;
  readonly #fetch: typeof fetch;
  readonly #client: oauth.Client;
  readonly #auth: oauth.ClientAuth;
  #as: Promise<oauth.AuthorizationServer> | undefined;

  constructor(provider: UpstreamProvider, fetcher: typeof fetch) {
    this.#p = provider;
    this.#fetch = boundedFetch(fetcher, UPSTREAM_TIMEOUT_MS);
    this.#client = { client_id: provider.clientId };
    const secret = provider.clientSecret;
    this.#auth =
      secret === undefined
        ? oauth.None()
        : provider.clientAuth === 'post'
          ? oauth.ClientSecretPost(secret)
          : oauth.ClientSecretBasic(secret);
  }

  /** The upstream's host, shown on the consent page. */
  get name(): string {
    return new URL(this.#p.issuer).host;
  }

  #options(url: string): oauth.TokenEndpointRequestOptions {
    return {
      [oauth.customFetch]: this.#fetch,
      [oauth.allowInsecureRequests]: insecureAllowed(new URL(url), this.#p.allowInsecureHttp),
    };
  }

  /** The upstream's metadata (given, or discovered once; a failure is retried next time). */
  metadata(): Promise<oauth.AuthorizationServer> {
    if (this.#p.metadata) return Promise.resolve(this.#p.metadata);
    this.#as ??= (async () => {
      const issuer = new URL(this.#p.issuer);
      const response = await oauth.discoveryRequest(issuer, {
        algorithm: 'oidc',
        [oauth.customFetch]: this.#fetch as never,
        [oauth.allowInsecureRequests]: insecureAllowed(issuer, this.#p.allowInsecureHttp),
      });
      return oauth.processDiscoveryResponse(issuer, response);
    })().catch((error: unknown) => {
      this.#as = undefined;
      throw new AuthError(
        'DISCOVERY_FAILED',
        `the upstream ${this.#p.issuer} could not be discovered: ${describe(error)}`,
      );
    });
    return this.#as;
  }

  /** The upstream authorization URL for `redirectUri`, and what to keep until the callback. */
  async authorizationUrl(
    redirectUri: string,
    state: string,
  ): Promise<{ url: URL; pending: UpstreamPending }> {
    const as = await this.metadata();
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(as.authorization_endpoint!);
    const oidc = this.#p.scopes.includes('openid');
    const nonce = oidc ? oauth.generateRandomNonce() : undefined;
    const params = {
      ...this.#p.authorizationParams,
      client_id: this.#p.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: this.#p.scopes.join(' '),
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...(nonce ? { nonce } : {}),
    };
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return { url, pending: { state, verifier, ...(nonce ? { nonce } : {}) } };
  }

  /**
   * Checks the upstream's authorization response (state, `iss` when it sends one) and redeems
   * its code. @throws AuthError `AUTHORIZATION_REJECTED` or `TOKEN_REQUEST_FAILED`.
   */
  async redeem(
    callback: URL,
    pending: UpstreamPending,
    redirectUri: string,
  ): Promise<{ tokens: UpstreamTokens; identity: UpstreamIdentity }> {
    const as = await this.metadata();
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(as, this.#client, callback, pending.state);
    } catch (error) {
      throw new AuthError('AUTHORIZATION_REJECTED', `the upstream refused: ${describe(error)}`);
    }
    try {
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        this.#client,
        this.#auth,
        params,
        redirectUri,
        pending.verifier,
        this.#options(as.token_endpoint!),
      );
      const answer = await oauth.processAuthorizationCodeResponse(as, this.#client, response, {
        ...(pending.nonce ? { expectedNonce: pending.nonce, requireIdToken: true } : {}),
      });
      const tokens = tokensOf(answer);
      const identity = await (this.#p.identity ?? idTokenIdentity(answer))(tokens, this.#fetch);
      return { tokens, identity };
    } catch (error) {
      if (error instanceof AuthError) throw error;
      throw new AuthError('TOKEN_REQUEST_FAILED', `the upstream code exchange failed: ${describe(error)}`);
    }
  }

  /** Spends the upstream refresh token. @throws AuthError `TOKEN_REQUEST_FAILED`. */
  async refresh(tokens: UpstreamTokens): Promise<UpstreamTokens> {
    const as = await this.metadata();
    try {
      const response = await oauth.refreshTokenGrantRequest(
        as,
        this.#client,
        this.#auth,
        tokens.refreshToken!,
        this.#options(as.token_endpoint!),
      );
      const fresh = tokensOf(await oauth.processRefreshTokenResponse(as, this.#client, response));
      return { ...fresh, refreshToken: fresh.refreshToken ?? tokens.refreshToken! };
    } catch (error) {
      throw new AuthError('TOKEN_REQUEST_FAILED', `the upstream refresh failed: ${describe(error)}`);
    }
  }
}

function tokensOf(answer: oauth.TokenEndpointResponse): UpstreamTokens {
  return {
    accessToken: answer.access_token,
    ...(answer.refresh_token ? { refreshToken: answer.refresh_token } : {}),
    ...(typeof answer.expires_in === 'number'
      ? { expiresAt: Math.floor(Date.now() / 1000) + answer.expires_in }
      : {}),
    ...(answer.id_token ? { idToken: answer.id_token } : {}),
  };
}

const KEPT_CLAIMS = ['name', 'email', 'preferred_username', 'email_verified'];

/** The identity of an OpenID Connect answer: its validated ID token's `sub` and a few claims. */
function idTokenIdentity(answer: oauth.TokenEndpointResponse) {
  return async (): Promise<UpstreamIdentity> => {
    const claims = oauth.getValidatedIdTokenClaims(answer);
    if (!claims)
      throw new AuthError(
        'AUTHORIZATION_REJECTED',
        'the upstream sent no ID token (ask for the openid scope)',
      );
    const kept: Record<string, string> = {};
    for (const name of KEPT_CLAIMS)
      if (claims[name] !== undefined) kept[name] = String(claims[name]).slice(0, 256);
    return { subject: claims.sub, claims: kept };
  };
}
