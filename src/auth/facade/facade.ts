/**
 * `authorizationFacade(options)`: an OAuth authorization server in front of an upstream
 * provider that has no dynamic registration (GitHub, Google, Microsoft Entra, an OpenID
 * provider with one static client). MCP clients register here (RFC 7591, or a Client ID
 * Metadata Document), consent on the façade's own page, sign in at the upstream, and get
 * the façade's tokens, bound to the MCP endpoint; the upstream tokens stay here, encrypted,
 * for handlers that call the upstream API ({@link AuthorizationFacade.upstreamToken}).
 * It is also the endpoint's guard: `createHttpHandler(server, { auth: facade })` or
 * `serve(server, { http: { auth: facade } })` answers its endpoints, the Protected Resource
 * Metadata naming it, and verifies its tokens (the principal is `ctx.auth`).
 * Source: 2026-07-28 basic/authorization (all pages); RFC 8414; RFC 7591; RFC 7009;
 * RFC 8707; RFC 9207; RFC 9728.
 */
import type { AuthInfo } from '../../server/index.js';
import type { GuardRequest, GuardResponse, HttpAuthGuard } from '../../server/http/index.js';
import { AuthError } from '../errors.js';
import { protectedResource } from '../server/resource-server.js';
import { authorize, callback, consent, type GrantRecord } from './authorize.js';
import {
  type EnterpriseIdp,
  type FacadeContext,
  type FacadeLimits,
  type FacadeUrls,
  json,
  load,
} from './context.js';
import type { ClientMetadataOptions } from './documents.js';
import { deriveKeys, seal, unseal } from './keys.js';
import { errorPage } from './pages.js';
import { register } from './registration.js';
import { memoryFacadeStore, type FacadeStore } from './store.js';
import { revoke, token, verifyAccess } from './token.js';
import { Upstream, type UpstreamProvider, type UpstreamTokens } from './upstream.js';

type Route = (c: FacadeContext, r: GuardRequest) => Promise<GuardResponse> | GuardResponse;

/** Options of {@link authorizationFacade}. */
export interface AuthorizationFacadeOptions {
  /** The canonical URL of the MCP endpoint (the audience of every token issued), e.g. `https://mcp.example.com/mcp`. */
  resource: string;
  /** The façade's issuer (default: the origin of `resource`); its endpoints are under `<issuer>/oauth/`. */
  issuer?: string;
  /** The upstream provider: `githubUpstream(…)`, `googleUpstream(…)`, `entraUpstream(…)`, `oidcUpstream(…)`. */
  upstream: UpstreamProvider;
  /**
   * The secret the façade's keys derive from (at least 32 bytes): signs its tokens and
   * consent cookie, encrypts the upstream tokens at rest. Every instance of a fleet needs the
   * same one. Default: random per process (tokens die with it).
   */
  secret?: string | Uint8Array;
  /** Where registrations, flows, codes and grants are kept (default in memory; Redis for a fleet). */
  store?: FacadeStore;
  /** The scopes clients may ask for (`scopes_supported`; default none). */
  scopes?: string[];
  /** Bounds and lifetimes. */
  limits?: FacadeLimits;
  /** An enterprise IdP whose identity assertion grants (ID-JAG) the token endpoint accepts. */
  enterprise?: EnterpriseIdp;
  /** `resource_name` of the Protected Resource Metadata. */
  resourceName?: string;
  /**
   * The fetch for the upstream (default: the global one); also for Client ID Metadata
   * Documents on runtimes without `node:https` (Workers), where the platform's network rules apply.
   */
  fetch?: typeof fetch;
  /**
   * How Client ID Metadata Documents are fetched: from public addresses only (after DNS
   * resolution), no redirects, at most 16 KiB in 5 s, cached as their HTTP caching headers
   * allow for at most a day; these options widen or narrow that.
   */
  clientMetadata?: ClientMetadataOptions;
  /** Fetch Client ID Metadata Documents over plain http and from loopback addresses (tests; default false). */
  allowLoopbackClientMetadata?: boolean;
}

const DEFAULT_LIMITS: Required<FacadeLimits> = {
  maxRegistrations: 10_000,
  registrationTtlMs: 30 * 86_400_000,
  maxPendingPerClient: 50,
  maxPendingPerAddress: 20,
  codeTtlMs: 60_000,
  accessTokenTtlSec: 3600,
  refreshTtlMs: 30 * 86_400_000,
};

function urlsOf(resource: string, issuer: string): FacadeUrls {
  const base = issuer.replace(/\/$/, '');
  const path = new URL(base).pathname.replace(/\/$/, '');
  return {
    issuer: base,
    resource,
    metadata: new URL(`/.well-known/oauth-authorization-server${path}`, base).href,
    authorize: `${base}/oauth/authorize`,
    consent: `${base}/oauth/consent`,
    callback: `${base}/oauth/callback`,
    token: `${base}/oauth/token`,
    register: `${base}/oauth/register`,
    revoke: `${base}/oauth/revoke`,
  };
}

/** The authorization server façade, and the guard of the MCP endpoint it protects. */
export class AuthorizationFacade implements HttpAuthGuard {
  readonly paths: readonly string[];
  /** The URL to register as the redirect URI of the upstream client: `<issuer>/oauth/callback`. */
  readonly callbackUrl: string;
  readonly #urls: FacadeUrls;
  readonly #routes: Map<string, Route>;
  readonly #guard: HttpAuthGuard;
  readonly #context: Promise<FacadeContext>;
  readonly #scopes: string[];

  constructor(options: AuthorizationFacadeOptions) {
    const urls = (this.#urls = urlsOf(options.resource, options.issuer ?? new URL(options.resource).origin));
    this.callbackUrl = urls.callback;
    this.#scopes = options.scopes ?? [];
    this.#context = contextOf(options, urls);
    this.#context.catch(() => undefined);
    this.#guard = protectedResource({
      resource: options.resource,
      authorizationServers: [urls.issuer],
      verifier: async (presented) => verifyAccess(await this.#context, presented),
      ...(options.scopes ? { scopesSupported: options.scopes } : {}),
      ...(options.resourceName ? { resourceName: options.resourceName } : {}),
    });
    const path = (url: string) => new URL(url).pathname;
    this.#routes = new Map<string, Route>([
      [`GET ${path(urls.metadata)}`, () => json(200, this.#metadata())],
      [`GET ${path(urls.authorize)}`, authorize],
      [`POST ${path(urls.consent)}`, consent],
      [`GET ${path(urls.callback)}`, callback],
      [`POST ${path(urls.token)}`, token],
      [`POST ${path(urls.register)}`, register],
      [`POST ${path(urls.revoke)}`, revoke],
    ]);
    this.paths = [...this.#guard.paths, ...new Set([...this.#routes.keys()].map((k) => k.split(' ')[1]!))];
  }

  /** RFC 8414 metadata (with the MCP client registration fields). */
  #metadata(): Record<string, unknown> {
    const u = this.#urls;
    return {
      issuer: u.issuer,
      authorization_endpoint: u.authorize,
      token_endpoint: u.token,
      registration_endpoint: u.register,
      revocation_endpoint: u.revoke,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: [
        'authorization_code',
        'refresh_token',
        'urn:ietf:params:oauth:grant-type:jwt-bearer',
      ],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      scopes_supported: [...this.#scopes, 'offline_access'],
    };
  }

  async serve(request: GuardRequest): Promise<GuardResponse | undefined> {
    const path = new URL(request.url, 'http://localhost').pathname;
    if (request.method === 'OPTIONS') return preflight();
    const route = this.#routes.get(`${request.method === 'HEAD' ? 'GET' : request.method} ${path}`);
    if (!route) return this.#guard.serve(request);
    try {
      return await route(await this.#context, request);
    } catch {
      return errorPage('The authorization server could not complete this request; try again.', 500);
    }
  }

  authenticate(request: GuardRequest): ReturnType<HttpAuthGuard['authenticate']> {
    return this.#guard.authenticate(request);
  }

  insufficientScope(required: readonly string[]): GuardResponse {
    return this.#guard.insufficientScope(required);
  }

  featureScopes(read: () => readonly string[]): void {
    this.#guard.featureScopes?.(read);
  }

  /**
   * The upstream access token of the principal `auth` (a handler's `ctx.auth`), refreshed at
   * the upstream when it expired and a refresh token was given. For calling the upstream API
   * from a handler; never send it to the MCP client.
   * @throws AuthError `INVALID_TOKEN` when `auth` is not a live grant of this façade, or the
   *   grant holds no upstream token (an enterprise grant); `TOKEN_REQUEST_FAILED` when the
   *   upstream refresh fails.
   */
  async upstreamToken(auth: AuthInfo | undefined): Promise<string> {
    const c = await this.#context;
    const gid = auth?.claims?.gid;
    const grant = typeof gid === 'string' ? await load<GrantRecord>(c.store, `grant:${gid}`) : undefined;
    if (!grant?.upstream)
      throw new AuthError('INVALID_TOKEN', 'no upstream token is held for this principal');
    let tokens = JSON.parse(await unseal(c.keys, grant.upstream)) as UpstreamTokens;
    if (
      tokens.refreshToken &&
      tokens.expiresAt !== undefined &&
      tokens.expiresAt * 1000 <= Date.now() + 30_000
    ) {
      tokens = await c.upstream.refresh(tokens);
      const kept = { ...grant, upstream: await seal(c.keys, JSON.stringify(tokens)) };
      await c.store.set(`grant:${gid}`, JSON.stringify(kept), c.limits.refreshTtlMs);
    }
    return tokens.accessToken;
  }
}

async function contextOf(options: AuthorizationFacadeOptions, urls: FacadeUrls): Promise<FacadeContext> {
  const fetcher = options.fetch ?? ((i: RequestInfo | URL, o?: RequestInit) => fetch(i, o));
  return {
    urls,
    keys: await deriveKeys(options.secret),
    store: options.store ?? memoryFacadeStore(),
    upstream: new Upstream(options.upstream, fetcher),
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    scopes: options.scopes ?? [],
    fetch: fetcher,
    allowLoopbackMetadata: options.allowLoopbackClientMetadata === true,
    clientMetadata: options.clientMetadata ?? {},
    enterprise: options.enterprise,
  };
}

function preflight(): GuardResponse {
  return {
    status: 204,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
      'access-control-max-age': '600',
    },
    body: null,
  };
}

/**
 * An authorization server façade in front of `options.upstream`, which is also the guard of
 * the MCP endpoint at `options.resource`: pass it as `auth` to `createHttpHandler` or
 * `serve`. Register {@link AuthorizationFacade.callbackUrl} as the redirect URI of the
 * upstream client. @throws TypeError for a secret shorter than 32 bytes (on first use).
 */
export function authorizationFacade(options: AuthorizationFacadeOptions): AuthorizationFacade {
  return new AuthorizationFacade(options);
}
