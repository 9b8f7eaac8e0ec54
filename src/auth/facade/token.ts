/**
 * The token side of the façade: the token endpoint (authorization code with PKCE S256, refresh
 * with rotation, and the enterprise identity assertion grant, ID-JAG), revocation (RFC 7009),
 * and the access tokens it issues: JWTs (RFC 9068) whose audience is the MCP endpoint, tied
 * to a grant that revocation deletes. A code or refresh token is spent once; presenting a
 * spent one again revokes the grant it issued (OAuth 2.1 §4.1.3, §4.3.1).
 * Source: 2026-07-28 basic/authorization "Token Handling", security-considerations
 * "Authorization Code Protection", "Token Audience Binding"; RFC 7009; RFC 7523; RFC 8707;
 * enterprise-managed authorization (ID-JAG).
 */
import { base64url, createRemoteJWKSet, jwtVerify } from 'jose';
import type { AuthInfo } from '../../server/index.js';
import type { GuardRequest, GuardResponse } from '../../server/http/index.js';
import { AuthError } from '../errors.js';
import type { CodeRecord, GrantRecord } from './authorize.js';
import { type FacadeContext, formOf, json, load, oauthError, wellFormed } from './context.js';
import { digest, randomId, signJwt, verifyJwt } from './keys.js';
import { clientOf, type FacadeClient } from './registration.js';

const SPENT_TTL_MS = 86_400_000;
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The client a token request authenticates as (secret checked when it has one), or the error to answer. */
async function authenticateClient(
  c: FacadeContext,
  request: GuardRequest,
  form: URLSearchParams,
): Promise<FacadeClient | GuardResponse> {
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? undefined;
  const basic = /^Basic (\S+)$/i.exec(request.headers.get('authorization') ?? '');
  if (basic) {
    const decoded = new TextDecoder().decode(
      base64url.decode(basic[1]!.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')),
    );
    const at = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, at));
    secret = decodeURIComponent(decoded.slice(at + 1));
  }
  const client = id ? await clientOf(c, id) : undefined;
  const invalid = oauthError(401, 'invalid_client', 'the client could not be authenticated');
  if (!client) return invalid;
  if (client.token_endpoint_auth_method === 'none') return secret === undefined ? client : invalid;
  return secret !== undefined && (await digest(secret)) === client.secret_hash ? client : invalid;
}

/** POST /token. */
export async function token(c: FacadeContext, request: GuardRequest): Promise<GuardResponse> {
  const form = await formOf(request);
  if (!form || !wellFormed(form))
    return oauthError(
      400,
      'invalid_request',
      'the request must be a form of bounded size, each parameter once',
    );
  const client = await authenticateClient(c, request, form);
  if ('status' in client) return client;
  const resource = form.get('resource');
  if (resource !== null && resource !== c.urls.resource)
    return oauthError(400, 'invalid_target', `tokens are issued for ${c.urls.resource} only`);
  switch (form.get('grant_type')) {
    case 'authorization_code':
      return codeGrant(c, client, form);
    case 'refresh_token':
      return refreshGrant(c, client, form);
    case JWT_BEARER:
      if (!c.enterprise) return unsupported();
      if (client.token_endpoint_auth_method === 'none')
        return oauthError(
          400,
          'unauthorized_client',
          'an identity assertion grant needs a confidential client',
        );
      return assertionGrant(c, client, form);
    default:
      return unsupported();
  }
}

function unsupported(): GuardResponse {
  return oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
}

const invalidGrant = (why: string) => oauthError(400, 'invalid_grant', why);

async function codeGrant(
  c: FacadeContext,
  client: FacadeClient,
  form: URLSearchParams,
): Promise<GuardResponse> {
  const key = await digest(form.get('code') ?? '');
  const code = await load<CodeRecord>(c.store, `code:${key}`, true);
  if (!code) {
    const spent = await c.store.get(`code-spent:${key}`);
    if (spent) await c.store.delete(`grant:${spent}`);
    return invalidGrant('the code is unknown, expired or already used');
  }
  await c.store.set(`code-spent:${key}`, code.grant, SPENT_TTL_MS);
  const verifier = form.get('code_verifier') ?? '';
  const challenge = base64url.encode(
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))),
  );
  if (
    code.clientId !== client.client_id ||
    form.get('redirect_uri') !== code.redirectUri ||
    challenge !== code.codeChallenge
  ) {
    await c.store.delete(`grant:${code.grant}`);
    return invalidGrant('the code was not issued to this client, redirect URI and code verifier');
  }
  const grant = await load<GrantRecord>(c.store, `grant:${code.grant}`);
  return grant ? issue(c, code.grant, grant) : invalidGrant('the grant was revoked');
}

async function refreshGrant(
  c: FacadeContext,
  client: FacadeClient,
  form: URLSearchParams,
): Promise<GuardResponse> {
  const key = await digest(form.get('refresh_token') ?? '');
  const held = await load<{ grant: string; clientId: string }>(c.store, `rt:${key}`, true);
  if (!held) {
    const spent = await c.store.get(`rt-spent:${key}`);
    if (spent) await c.store.delete(`grant:${spent}`);
    return invalidGrant('the refresh token is unknown, expired or already used');
  }
  await c.store.set(`rt-spent:${key}`, held.grant, SPENT_TTL_MS);
  if (held.clientId !== client.client_id)
    return invalidGrant('the refresh token was issued to another client');
  const grant = await load<GrantRecord>(c.store, `grant:${held.grant}`);
  return grant ? issue(c, held.grant, grant) : invalidGrant('the grant was revoked');
}

/** An access token for `grant` (JWT, audience the MCP endpoint) and a new refresh token. */
async function issue(c: FacadeContext, grantId: string, grant: GrantRecord): Promise<GuardResponse> {
  const ttl = c.limits.accessTokenTtlSec;
  const access = await signJwt(
    c.keys,
    {
      iss: c.urls.issuer,
      aud: c.urls.resource,
      sub: grant.subject,
      client_id: grant.clientId,
      scope: grant.scope,
      gid: grantId,
      jti: randomId(16),
      ...grant.claims,
    },
    { typ: 'at+jwt', ttlSec: ttl },
  );
  const refresh = randomId();
  await c.store.set(
    `rt:${await digest(refresh)}`,
    JSON.stringify({ grant: grantId, clientId: grant.clientId }),
    c.limits.refreshTtlMs,
  );
  return json(200, {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ttl,
    refresh_token: refresh,
    scope: grant.scope,
  });
}

const enterpriseKeys = new WeakMap<object, ReturnType<typeof createRemoteJWKSet>>();

/** The identity assertion grant (ID-JAG as a JWT bearer assertion, RFC 7523) from the configured enterprise IdP. */
async function assertionGrant(
  c: FacadeContext,
  client: FacadeClient,
  form: URLSearchParams,
): Promise<GuardResponse> {
  const idp = c.enterprise!;
  let keys = enterpriseKeys.get(idp);
  if (!keys) enterpriseKeys.set(idp, (keys = createRemoteJWKSet(new URL(idp.jwksUri))));
  let claims;
  try {
    ({ payload: claims } = await jwtVerify(form.get('assertion') ?? '', keys, {
      issuer: idp.issuer,
      audience: c.urls.issuer,
      typ: 'oauth-id-jag+jwt',
      algorithms: idp.algorithms ?? ['RS256', 'ES256', 'PS256', 'EdDSA'],
      requiredClaims: ['sub', 'exp', 'client_id'],
    }));
  } catch {
    return invalidGrant('the identity assertion is not valid here');
  }
  if (claims.client_id !== client.client_id)
    return invalidGrant('the identity assertion was issued to another client');
  if (claims.resource !== undefined && claims.resource !== c.urls.resource)
    return oauthError(400, 'invalid_target', 'the identity assertion is for another resource');
  const scope =
    typeof claims.scope === 'string'
      ? claims.scope
          .split(' ')
          .filter((s) => c.scopes.includes(s))
          .join(' ')
      : c.scopes.join(' ');
  const grantId = randomId();
  const grant: GrantRecord = {
    subject: String(claims.sub),
    claims: { idp: idp.issuer },
    clientId: client.client_id,
    scope,
  };
  await c.store.set(`grant:${grantId}`, JSON.stringify(grant), c.limits.refreshTtlMs);
  return issue(c, grantId, grant);
}

/** POST /revoke (RFC 7009): deletes the grant of a refresh or access token of this client; 200 whatever the token. */
export async function revoke(c: FacadeContext, request: GuardRequest): Promise<GuardResponse> {
  const form = await formOf(request);
  if (!form || !wellFormed(form))
    return oauthError(400, 'invalid_request', 'the request must be a form of bounded size');
  const client = await authenticateClient(c, request, form);
  if ('status' in client) return client;
  const presented = form.get('token') ?? '';
  const held = await load<{ grant: string; clientId: string }>(c.store, `rt:${await digest(presented)}`);
  let grant = held?.clientId === client.client_id ? held.grant : undefined;
  if (!held) {
    const claims = await verifyJwt(c.keys, presented, { typ: 'at+jwt', issuer: c.urls.issuer }).catch(
      () => undefined,
    );
    if (claims?.client_id === client.client_id && typeof claims.gid === 'string') grant = claims.gid;
  }
  if (grant) await c.store.delete(`grant:${grant}`);
  return json(200, {});
}

/**
 * Verifies an access token the façade issued for this MCP endpoint, and that its grant was not
 * revoked. @throws AuthError `INVALID_TOKEN`.
 */
export async function verifyAccess(c: FacadeContext, presented: string): Promise<AuthInfo> {
  let claims;
  try {
    claims = await verifyJwt(c.keys, presented, {
      typ: 'at+jwt',
      issuer: c.urls.issuer,
      audience: c.urls.resource,
    });
  } catch {
    throw new AuthError(
      'INVALID_TOKEN',
      'the token was not issued by this server for this resource, or has expired',
    );
  }
  if (typeof claims.gid !== 'string' || (await c.store.get(`grant:${claims.gid}`)) === undefined)
    throw new AuthError('INVALID_TOKEN', 'the token was revoked');
  return {
    subject: String(claims.sub),
    clientId: String(claims.client_id),
    scopes: String(claims.scope ?? '')
      .split(' ')
      .filter(Boolean),
    token: presented,
    expiresAt: claims.exp!,
    claims: claims as Record<string, unknown>,
  };
}
