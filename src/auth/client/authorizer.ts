/**
 * Obtaining tokens for one MCP endpoint: discovery (Protected Resource Metadata, then the
 * authorization server's), client identity, scope selection and the configured grant, plus
 * refresh. Keeps the current tokens; {@link OAuthClient} decides when to call it.
 * Source: 2026-07-28 basic/authorization "Authorization Flow Steps", "Scope Selection
 * Strategy", "Refresh Tokens"; authorization-server-discovery "Authorization Server Binding".
 */
import * as oauth from 'oauth4webapi';
import { AuthError } from '../errors.js';
import type { AuthChallenge } from './challenge.js';
import { canonicalResource, discoverIssuer, discoverResource, requireS256 } from './discovery.js';
import {
  clientCredentialsGrant,
  finishCodeFlow,
  genericGrant,
  refreshGrant,
  startCodeFlow,
  toStored,
  type GrantContext,
  type PendingAuthorization,
} from './grants.js';
import { obtainClient } from './identity.js';
import { insecureAllowed, type OAuthClientOptions } from './options.js';
import { loadTokens, memoryStore, tokensKey, type AuthStore, type StoredTokens } from './store.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';

function union(...lists: (readonly string[] | undefined)[]): string[] {
  return [...new Set(lists.flatMap((l) => l ?? []))];
}

/** Tokens and the steps that obtain them, for the MCP endpoint `endpoint`. */
export class Authorizer {
  readonly #o: OAuthClientOptions;
  readonly #store: AuthStore;
  readonly #fetch: typeof fetch;
  readonly #endpoint: URL;
  readonly #servers = new Map<string, oauth.AuthorizationServer>();
  #resource: string;
  #tokens: StoredTokens | undefined;
  #loaded = false;
  #dpop: Promise<oauth.DPoPHandle> | undefined;
  #pending: { ctx: GrantContext; flow: PendingAuthorization } | undefined;
  /** Whether the resource server takes DPoP (its challenge or its metadata says so). */
  #resourceDpop = false;

  constructor(options: OAuthClientOptions, endpoint: URL, fetcher: typeof fetch) {
    this.#o = options;
    this.#store = options.store ?? memoryStore();
    this.#fetch = options.fetch ?? fetcher;
    this.#endpoint = endpoint;
    this.#resource = canonicalResource(endpoint);
  }

  /** The current tokens (loaded from the store on first use). */
  async tokens(): Promise<StoredTokens | undefined> {
    if (!this.#loaded) {
      this.#loaded = true;
      const stored = await loadTokens(this.#store, this.#resource);
      if (stored && (stored.token_type !== 'dpop' || this.#dpop)) this.#tokens = stored;
    }
    return this.#tokens;
  }

  /** The current tokens as last loaded or obtained (no store read). */
  get current(): StoredTokens | undefined {
    return this.#tokens;
  }

  /** The DPoP handle, when the current tokens are DPoP-bound. */
  async dpopFor(tokens: StoredTokens): Promise<oauth.DPoPHandle | undefined> {
    return tokens.token_type === 'dpop' ? this.#dpop : undefined;
  }

  /** Whether plain http may be used to reach `url`. */
  insecureOk(url: URL): boolean {
    return insecureAllowed(url, this.#o.allowInsecureHttp);
  }

  /**
   * Runs discovery and the configured grant, asking for the challenge's scopes (else the
   * metadata's `scopes_supported`, else none) plus `previous` (step-up keeps what it had).
   */
  async authorize(challenge: AuthChallenge | undefined, previous: readonly string[] = []): Promise<void> {
    const http = { fetch: this.#fetch, insecureOk: (u: URL) => this.insecureOk(u) };
    const prm = await discoverResource(http, this.#endpoint, challenge);
    this.#resource = prm?.resource ?? canonicalResource(this.#endpoint);
    this.#resourceDpop =
      challenge?.scheme === 'dpop' || Array.isArray(prm?.dpop_signing_alg_values_supported);
    const issuer = prm?.authorization_servers?.[0] ?? this.#endpoint.origin;
    const as = await this.#server(issuer);
    const ctx = await this.#context(
      as,
      this.#scopes(as, challenge?.scope ?? prm?.scopes_supported, previous),
    );
    await this.#save(ctx, await this.#grant(ctx));
  }

  /** Spends the refresh token of `used`; false when there is none or the server refused. */
  async refresh(used: StoredTokens): Promise<boolean> {
    if (!used.refresh_token) return false;
    try {
      const ctx = await this.#context(await this.#server(used.issuer), used.scopes);
      await this.#save(ctx, await refreshGrant(ctx, used.refresh_token), used);
      return true;
    } catch {
      return false;
    }
  }

  /** Completes a code flow left waiting for the user (see `redirect`). */
  async finishAuth(callback: URL): Promise<void> {
    const pending = this.#pending;
    if (!pending) throw new AuthError('INVALID_OPTIONS', 'no authorization is waiting for a callback');
    this.#pending = undefined;
    await this.#save(pending.ctx, await finishCodeFlow(pending.ctx, pending.flow, callback));
  }

  /** Forgets the tokens (and the store's copy). */
  async forget(): Promise<void> {
    this.#tokens = undefined;
    await this.#store.delete(tokensKey(this.#resource));
  }

  /** The scopes to ask for: `previous`, those `named` by the challenge or the resource, and the configured ones. */
  #scopes(
    as: oauth.AuthorizationServer,
    named: readonly string[] | undefined,
    previous: readonly string[],
  ): string[] {
    const scopes = union(previous, named, this.#o.scopes).filter((s) => s !== 'offline_access');
    const code = (this.#o.grant?.type ?? 'authorization_code') === 'authorization_code';
    // `offline_access` goes with the resource's scopes, never alone: with no scope named
    // anywhere the request carries none (authorization "Scope Selection Strategy"), and a
    // request for a refresh grant only is refused by servers such as oidc-provider.
    const refresh = this.#o.refreshTokens !== false && as.scopes_supported?.includes('offline_access');
    if (code && refresh && scopes.length > 0) scopes.push('offline_access');
    return scopes;
  }

  async #server(issuer: string): Promise<oauth.AuthorizationServer> {
    const known = this.#servers.get(issuer);
    if (known) return known;
    const http = { fetch: this.#fetch, insecureOk: (u: URL) => this.insecureOk(u) };
    const as = await discoverIssuer(http, issuer);
    this.#servers.set(issuer, as);
    return as;
  }

  async #context(as: oauth.AuthorizationServer, scopes: string[]): Promise<GrantContext> {
    const insecure = this.insecureOk(new URL(as.issuer));
    const code = (this.#o.grant?.type ?? 'authorization_code') === 'authorization_code';
    const refresh =
      as.grant_types_supported === undefined || as.grant_types_supported.includes('refresh_token');
    const identity = await obtainClient(as, {
      store: this.#store,
      http: { fetch: this.#fetch, insecure },
      credentials: this.#o.credentials,
      clientMetadataUrl: this.#o.clientMetadataUrl,
      initialAccessToken: this.#o.initialAccessToken,
      clientName: this.#o.clientName ?? 'mcpkit',
      redirectUri: code ? this.#redirectUri() : undefined,
      grantTypes: code
        ? refresh && this.#o.refreshTokens !== false
          ? ['authorization_code', 'refresh_token']
          : ['authorization_code']
        : [this.#grantType()],
    });
    const dpop = await this.#dpopHandle(as);
    return { as, identity, resource: this.#resource, scopes, fetch: this.#fetch, insecure, dpop };
  }

  #redirectUri(): string {
    return this.#o.redirectUri ?? 'http://127.0.0.1/callback';
  }

  #grantType(): string {
    const type = this.#o.grant?.type;
    if (type === 'client_credentials') return 'client_credentials';
    return JWT_BEARER;
  }

  async #dpopHandle(as: oauth.AuthorizationServer): Promise<oauth.DPoPHandle | undefined> {
    const want = this.#o.dpop ?? 'auto';
    if (want === false) return undefined;
    const supported = as.dpop_signing_alg_values_supported?.includes('ES256') && this.#resourceDpop;
    if (want === 'auto' && !supported) return undefined;
    this.#dpop ??= oauth.generateKeyPair('ES256').then((keys) => oauth.DPoP({}, keys));
    return this.#dpop;
  }

  async #grant(ctx: GrantContext): Promise<oauth.TokenEndpointResponse> {
    const grant = this.#o.grant ?? { type: 'authorization_code' };
    switch (grant.type) {
      case 'client_credentials':
        return clientCredentialsGrant(ctx);
      case 'jwt_bearer':
        return genericGrant(ctx, JWT_BEARER, { assertion: await grant.assertion() });
      case 'enterprise':
        return genericGrant(ctx, JWT_BEARER, { assertion: await this.#idJag(ctx, grant) });
      default:
        return this.#codeFlow(ctx);
    }
  }

  /** Exchanges the enterprise IdP's ID token for an ID-JAG naming this resource and server. */
  async #idJag(ctx: GrantContext, grant: Extract<OAuthClientOptions['grant'], { type: 'enterprise' }>) {
    const { idp } = grant;
    const idpAs: oauth.AuthorizationServer = {
      issuer: idp.issuer ?? new URL(idp.tokenEndpoint).origin,
      token_endpoint: idp.tokenEndpoint,
    };
    const auth = idp.clientSecret ? oauth.ClientSecretBasic(idp.clientSecret) : oauth.None();
    const idpCtx: GrantContext = {
      ...ctx,
      as: idpAs,
      identity: { client: { client_id: idp.clientId }, auth },
      insecure: this.insecureOk(new URL(idp.tokenEndpoint)),
      dpop: undefined,
    };
    const answer = await genericGrant(idpCtx, TOKEN_EXCHANGE, {
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: ctx.as.issuer,
      subject_token: await grant.idToken(),
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
    });
    return answer.access_token;
  }

  async #codeFlow(ctx: GrantContext): Promise<oauth.TokenEndpointResponse> {
    requireS256(ctx.as);
    if (!ctx.as.authorization_endpoint)
      throw new AuthError(
        'UNSUPPORTED_SERVER',
        `authorization server ${ctx.as.issuer} has no authorization endpoint`,
      );
    const flow = await startCodeFlow(ctx, this.#redirectUri());
    const back = await this.#o.redirect?.(flow.url);
    if (back === undefined || back === null || back === '') {
      this.#pending = { ctx, flow };
      throw new AuthError(
        'INTERACTION_REQUIRED',
        `authorization needed: visit the authorization URL of ${ctx.as.issuer}`,
        {
          authorizationUrl: flow.url,
        },
      );
    }
    return finishCodeFlow(ctx, flow, new URL(back));
  }

  async #save(
    ctx: GrantContext,
    answer: oauth.TokenEndpointResponse,
    previous?: StoredTokens,
  ): Promise<void> {
    this.#tokens = toStored(ctx, answer, previous);
    this.#loaded = true;
    await this.#store.set(tokensKey(this.#resource), this.#tokens);
  }
}
