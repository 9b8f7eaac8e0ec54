/**
 * Access token verifiers for the resource server: a JWT verifier over the authorization
 * server's JWKS (jose's remote key set, cached), token introspection (RFC 7662) with a
 * short positive cache, or any function of the same shape. Each checks that the token was
 * issued for this resource (its audience): tokens for other resources are refused, never
 * passed through.
 * Source: 2026-07-28 basic/authorization "Token Handling"; RFC 9068; RFC 7662; RFC 8707.
 */
import { base64url, createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTPayload } from 'jose';
import * as oauth from 'oauth4webapi';
import type { AuthInfo } from '../../server/index.js';
import { AuthError, describe } from '../errors.js';
import { splitScope } from '../client/challenge.js';
import { boundedFetch, discoverIssuer } from '../client/discovery.js';
import { insecureAllowed } from '../client/options.js';

/** Longest wait, in milliseconds, for the key set or an introspection answer: headers and body. */
const VERIFIER_TIMEOUT_MS = 5000;

/**
 * Verifies an access token and says who it belongs to.
 * @throws AuthError `INVALID_TOKEN` for a token to refuse (401), `VERIFIER_UNAVAILABLE`
 *   when the authorization server cannot be reached (503).
 */
export type TokenVerifier = (token: string) => Promise<AuthInfo>;

/**
 * The principal of a verified set of claims (JWT payload or introspection answer).
 * @throws AuthError `INVALID_TOKEN` when the claims name neither a subject (`sub`) nor a
 *   client (`client_id`, `azp`): per-principal state (sessions, tasks, requestState,
 *   parked calls) would have no owner to bind to, so such a token is not accepted.
 */
function principalFrom(claims: Record<string, unknown>, token: string): AuthInfo {
  const scope = claims.scope ?? claims.scp;
  const scopes = Array.isArray(scope)
    ? scope.filter((s) => typeof s === 'string')
    : splitScope(String(scope ?? ''));
  const clientId = claims.client_id ?? claims.azp;
  if (!nonEmpty(claims.sub) && !nonEmpty(clientId))
    throw invalid('the token names neither a subject (sub) nor a client (client_id)');
  return {
    ...(typeof claims.sub === 'string' ? { subject: claims.sub } : {}),
    ...(typeof clientId === 'string' ? { clientId } : {}),
    scopes,
    token,
    ...(typeof claims.exp === 'number' ? { expiresAt: claims.exp } : {}),
    claims,
  };
}

/** Options of {@link jwtVerifier}. */
export interface JwtVerifierOptions {
  /** The authorization server's issuer; `iss` must equal it. */
  issuer: string;
  /** This resource's URL; `aud` must contain it (RFC 8707: no token passthrough). */
  audience: string;
  /** The JWKS URL (default: `jwks_uri` of the issuer's metadata, fetched once). */
  jwksUri?: string;
  /** Allowed JWS algorithms (default RS256, PS256, ES256, EdDSA). */
  algorithms?: string[];
  /** Allowed clock skew for `exp`/`nbf`, in seconds (default 5). */
  clockToleranceSec?: number;
  /** The fetch for the metadata and JWKS (default: the global one). */
  fetch?: typeof fetch;
  /**
   * The JOSE `typ` header an access token must carry (RFC 9068 §2.1, §4: `at+jwt`, also
   * accepted as `application/at+jwt`, compared without case). Default `'at+jwt'`: an ID
   * token or another JWT signed by the same issuer is refused. `false` accepts any `typ`,
   * for an authorization server that does not set it (check that its other JWTs cannot be
   * mistaken for access tokens: `aud` still has to name this resource).
   */
  typ?: string | false;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function invalid(reason: string): AuthError {
  return new AuthError('INVALID_TOKEN', reason);
}

/** Turns a jose failure into a refusal (bad token) or an outage (JWKS unreachable). */
function joseFailure(error: unknown, issuer: string): AuthError {
  if (error instanceof errors.JWTExpired) return invalid('the token has expired');
  if (error instanceof errors.JWTClaimValidationFailed)
    return error.claim === 'typ'
      ? invalid('the token is not a JWT access token (typ must be at+jwt, RFC 9068)')
      : invalid(`the token's ${error.claim} claim is not acceptable`);
  if (error instanceof errors.JOSEAlgNotAllowed)
    return invalid('the token is signed with an algorithm not allowed here');
  if (
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    error instanceof TypeError
  )
    return new AuthError('VERIFIER_UNAVAILABLE', `the key set of ${issuer} could not be fetched`, {
      cause: error,
    });
  if (error instanceof AuthError) return error;
  return invalid(`the token is not a valid JWT from ${issuer} (${summaryName(error)})`);
}

function summaryName(error: unknown): string {
  return (error as { code?: unknown })?.code ? String((error as { code: unknown }).code) : 'invalid';
}

/**
 * A verifier for JWT access tokens (RFC 9068) signed by `issuer`: checks the signature
 * against the issuer's JWKS (fetched and cached by jose), `iss`, `aud`, `exp`, `nbf` and
 * the algorithm allow-list, and the `typ` header (`at+jwt` unless {@link JwtVerifierOptions.typ}
 * says otherwise). A token naming neither `sub` nor `client_id` is refused.
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const fetcher = options.fetch ?? ((i: RequestInfo | URL, o?: RequestInit) => fetch(i, o));
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const keySet = async () => {
    const uri = options.jwksUri ?? (await metadataOf(options.issuer, fetcher)).jwks_uri;
    if (!uri) throw new AuthError('VERIFIER_UNAVAILABLE', `${options.issuer} publishes no jwks_uri`);
    return createRemoteJWKSet(new URL(uri), {
      timeoutDuration: VERIFIER_TIMEOUT_MS,
      cooldownDuration: 30_000,
      [customFetch]: boundedFetch(fetcher, VERIFIER_TIMEOUT_MS),
    });
  };
  return async (token) => {
    keys ??= keySet().catch((error: unknown) => {
      keys = undefined;
      throw error instanceof AuthError ? error : joseFailure(error, options.issuer);
    });
    try {
      const { payload } = await jwtVerify(token, await keys, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: options.algorithms ?? ['RS256', 'PS256', 'ES256', 'EdDSA'],
        clockTolerance: options.clockToleranceSec ?? 5,
        requiredClaims: ['exp'],
        ...(options.typ === false ? {} : { typ: options.typ ?? 'at+jwt' }),
      });
      return principalFrom(payload as JWTPayload & Record<string, unknown>, token);
    } catch (error) {
      throw joseFailure(error, options.issuer);
    }
  };
}

async function metadataOf(issuer: string, fetcher: typeof fetch): Promise<oauth.AuthorizationServer> {
  try {
    return await discoverIssuer({ fetch: fetcher, insecureOk: (u) => insecureAllowed(u, false) }, issuer);
  } catch (error) {
    throw new AuthError(
      'VERIFIER_UNAVAILABLE',
      `the metadata of ${issuer} could not be read: ${describe(error)}`,
    );
  }
}

/** Options of {@link introspectionVerifier}. */
export interface IntrospectionVerifierOptions {
  /** The authorization server's issuer. */
  issuer: string;
  /** Its introspection endpoint (default: from the issuer's metadata). */
  introspectionEndpoint?: string;
  /** This resource server's credentials at the authorization server. */
  clientId: string;
  clientSecret: string;
  /** This resource's URL; an answer with an `aud` must contain it. */
  audience: string;
  /** How long an active answer is reused, in milliseconds (default 30 000; never past `exp`). */
  cacheMs?: number;
  /** Most answers cached (default 1 000). */
  maxCached?: number;
  fetch?: typeof fetch;
}

/** The SHA-256 of `text`, base64url. */
async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return base64url.encode(new Uint8Array(digest));
}

/** A verifier asking the authorization server about each token (RFC 7662), with a short cache. */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const fetcher = options.fetch ?? ((i: RequestInfo | URL, o?: RequestInit) => fetch(i, o));
  const cache = new Map<string, { info: AuthInfo; until: number }>();
  const cacheMs = options.cacheMs ?? 30_000;
  const server = async (): Promise<oauth.AuthorizationServer> =>
    options.introspectionEndpoint
      ? { issuer: options.issuer, introspection_endpoint: options.introspectionEndpoint }
      : metadataOf(options.issuer, fetcher);
  return async (token) => {
    const key = await sha256(token);
    const hit = cache.get(key);
    if (hit && hit.until > Date.now()) return hit.info;
    cache.delete(key);
    const claims = await introspect({ as: await server(), options, fetcher }, token);
    const info = principalFrom(claims, token);
    const exp = typeof claims.exp === 'number' ? claims.exp * 1000 : Infinity;
    if (cache.size >= (options.maxCached ?? 1000)) cache.delete(cache.keys().next().value!);
    cache.set(key, { info, until: Math.min(Date.now() + cacheMs, exp) });
    return info;
  };
}

async function introspect(
  to: { as: oauth.AuthorizationServer; options: IntrospectionVerifierOptions; fetcher: typeof fetch },
  token: string,
): Promise<Record<string, unknown>> {
  const { as, options: o, fetcher } = to;
  let answer: oauth.IntrospectionResponse;
  try {
    const client = { client_id: o.clientId };
    const response = await oauth.introspectionRequest(
      as,
      client,
      oauth.ClientSecretBasic(o.clientSecret),
      token,
      {
        [oauth.customFetch]: boundedFetch(fetcher, VERIFIER_TIMEOUT_MS),
        [oauth.allowInsecureRequests]: insecureAllowed(new URL(as.introspection_endpoint ?? o.issuer), false),
      },
    );
    answer = await oauth.processIntrospectionResponse(as, client, response);
  } catch (error) {
    throw new AuthError('VERIFIER_UNAVAILABLE', `introspection at ${o.issuer} failed: ${describe(error)}`);
  }
  if (!answer.active) throw invalid('the token is not active');
  if (answer.iss !== undefined && answer.iss !== o.issuer) throw invalid('the token is from another issuer');
  const aud = answer.aud === undefined ? undefined : [answer.aud].flat();
  if (aud && !aud.includes(o.audience)) throw invalid('the token is for another audience');
  if (typeof answer.exp === 'number' && answer.exp * 1000 < Date.now())
    throw invalid('the token has expired');
  return answer as Record<string, unknown>;
}
