/**
 * The resource server side: `protectedResource(options)` gives the guard that
 * `createHttpHandler(server, { auth })` and `serve()` run before every request. It serves
 * the Protected Resource Metadata (RFC 9728) at the path-aware well-known URL, verifies the
 * access token of each request (Bearer, or DPoP when enabled), and answers 401/403 with a
 * `WWW-Authenticate` challenge pointing at that metadata.
 * Source: 2026-07-28 basic/authorization "Authorization Server Location", "Token Handling",
 * "Error Handling", "Scope Challenge Handling"; RFC 6750 §3; RFC 9728; RFC 9449 §7.
 */
import type { AuthInfo } from '../../server/index.js';
import type { GuardRequest, GuardResponse, HttpAuthGuard } from '../../server/http/index.js';
import { AuthError } from '../errors.js';
import { checkProof, DPOP_ALGORITHMS, ReplayCache } from './dpop.js';
import type { TokenVerifier } from './verifiers.js';

/** Options of {@link protectedResource}. */
export interface ProtectedResourceOptions {
  /** The canonical URL of the MCP endpoint, e.g. `https://mcp.example.com/mcp`. */
  resource: string;
  /** Issuers of the authorization servers whose tokens are accepted (usually one). */
  authorizationServers: string[];
  /** Checks each access token; see `jwtVerifier`, `introspectionVerifier`, or write one. */
  verifier: TokenVerifier;
  /**
   * `scopes_supported` of the metadata. A 401 challenge asks for these too, less every scope
   * a feature of the served server registers (`scopes` of a tool, prompt, resource or
   * template): those are privileged, asked for by the 403 step-up challenge of the request
   * that needs them (2026-07-28 basic/authorization "Scope Selection Strategy": the
   * challenge names the scopes the request needs, least privilege).
   */
  scopesSupported?: string[];
  /** Scopes every request needs (403 `insufficient_scope` without them); the `scope` of 401 challenges when given. */
  requiredScopes?: string[];
  /** A human-readable name for the metadata (`resource_name`). */
  resourceName?: string;
  /** Accept DPoP-bound tokens with their proofs (RFC 9449); `true` or the allowed proof algorithms. */
  dpop?: boolean | { algorithms: string[] };
}

const JSON_HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store' };

function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** The well-known URL of the metadata of `resource` (RFC 9728 §3.1, path-aware). */
function metadataUrlOf(resource: string): URL {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return new URL(`/.well-known/oauth-protected-resource${path}`, url.origin);
}

class ResourceGuard implements HttpAuthGuard {
  readonly paths: readonly string[];
  readonly #o: ProtectedResourceOptions;
  readonly #metadataUrl: URL;
  readonly #algorithms: string[] | undefined;
  readonly #replay = new ReplayCache();
  #featureScopes: () => readonly string[] = () => [];

  constructor(options: ProtectedResourceOptions) {
    this.#o = options;
    this.#metadataUrl = metadataUrlOf(options.resource);
    this.paths = [this.#metadataUrl.pathname];
    const d = options.dpop;
    this.#algorithms = d === true ? DPOP_ALGORITHMS : d ? d.algorithms : undefined;
  }

  serve(request: GuardRequest): GuardResponse | undefined {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const o = this.#o;
    const doc = {
      resource: o.resource,
      authorization_servers: o.authorizationServers,
      bearer_methods_supported: ['header'],
      ...(o.scopesSupported ? { scopes_supported: o.scopesSupported } : {}),
      ...(o.resourceName ? { resource_name: o.resourceName } : {}),
      ...(this.#algorithms ? { dpop_signing_alg_values_supported: this.#algorithms } : {}),
    };
    return {
      status: 200,
      headers: { ...JSON_HEADERS, 'access-control-allow-origin': '*' },
      body: JSON.stringify(doc),
    };
  }

  async authenticate(request: GuardRequest): Promise<{ auth: AuthInfo } | { response: GuardResponse }> {
    const match = /^(\S+) +(\S+)$/.exec(request.headers.get('authorization')?.trim() ?? '');
    const scheme = match?.[1]?.toLowerCase();
    if (!match || (scheme !== 'bearer' && !(scheme === 'dpop' && this.#algorithms)))
      return { response: this.#challenge(401, { description: 'an access token is required' }) };
    try {
      const auth = await this.#o.verifier(match[2]!);
      await this.#binding(request, { scheme, auth, token: match[2]! });
      const missing = (this.#o.requiredScopes ?? []).filter((s) => !auth.scopes?.includes(s));
      if (missing.length > 0) return { response: this.insufficientScope(this.#o.requiredScopes!) };
      return { auth };
    } catch (error) {
      if (error instanceof AuthError && error.code === 'VERIFIER_UNAVAILABLE')
        return { response: oauthError(503, 'temporarily_unavailable', error.message) };
      const reason = error instanceof AuthError ? error.message : 'the token could not be verified';
      return { response: this.#challenge(401, { error: 'invalid_token', description: reason }) };
    }
  }

  featureScopes(read: () => readonly string[]): void {
    this.#featureScopes = read;
  }

  /** What a 401 asks for: the scopes every request needs, else the supported ones that are not privileged. */
  #basicScopes(): readonly string[] | undefined {
    const { requiredScopes, scopesSupported } = this.#o;
    if (requiredScopes) return requiredScopes;
    const privileged = this.#featureScopes();
    return scopesSupported?.filter((s) => !privileged.includes(s));
  }

  insufficientScope(required: readonly string[]): GuardResponse {
    return this.#challenge(403, {
      error: 'insufficient_scope',
      description: `this needs scope ${required.join(' ')}`,
      scopes: required,
    });
  }

  /** DPoP-bound tokens only with a valid proof; DPoP proofs only for bound tokens. */
  async #binding(
    request: GuardRequest,
    presented: { scheme: string; auth: AuthInfo; token: string },
  ): Promise<void> {
    const { scheme, auth, token } = presented;
    const cnf = auth.claims?.cnf as { jkt?: unknown } | undefined;
    const jkt = typeof cnf?.jkt === 'string' ? cnf.jkt : undefined;
    if (scheme === 'bearer') {
      if (jkt)
        throw new AuthError('INVALID_TOKEN', 'a DPoP-bound token must be presented with the DPoP scheme');
      return;
    }
    await checkProof({
      proof: request.headers.get('dpop'),
      method: request.method,
      url: new URL(request.url, this.#o.resource).href,
      token,
      jkt,
      algorithms: this.#algorithms!,
      replay: this.#replay,
    });
  }

  #challenge(
    status: number,
    why: { error?: string; description: string; scopes?: readonly string[] },
  ): GuardResponse {
    const { error, description, scopes } = why;
    const scope = scopes ?? this.#basicScopes();
    const params = [`resource_metadata=${quoted(this.#metadataUrl.href)}`];
    if (scope && scope.length > 0) params.push(`scope=${quoted(scope.join(' '))}`);
    if (error) params.push(`error=${quoted(error)}`, `error_description=${quoted(description)}`);
    const challenges = [`Bearer ${params.join(', ')}`];
    if (this.#algorithms)
      challenges.push(`DPoP algs=${quoted(this.#algorithms.join(' '))}, ${params.join(', ')}`);
    const response = oauthError(status, error ?? 'invalid_request', description);
    return { ...response, headers: { ...response.headers, 'www-authenticate': challenges.join(', ') } };
  }
}

function oauthError(status: number, error: string, description: string): GuardResponse {
  return { status, headers: JSON_HEADERS, body: JSON.stringify({ error, error_description: description }) };
}

/**
 * The authorization guard of a protected MCP endpoint, for `createHttpHandler(server, {
 * auth })` or `serve(server, { http: { auth } })`. Verified principals reach handlers as
 * `ctx.auth`; features registered with `scopes` need them (403 otherwise).
 */
export function protectedResource(options: ProtectedResourceOptions): HttpAuthGuard {
  return new ResourceGuard(options);
}
