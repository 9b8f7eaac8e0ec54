/**
 * The browser side of the façade: the authorization endpoint (checks the client and its exact
 * redirect URI before anything is redirected, PKCE S256, the resource), the consent page of
 * the façade's own for a client this browser has not approved (with a CSRF token bound to
 * the authorization in flight), then the upstream's code flow with its own PKCE and state,
 * and the callback that issues the façade's single-use, short-lived code with `iss`.
 * Source: 2026-07-28 basic/authorization/security-considerations "Confused Deputy Problem",
 * "Redirect URI Validation", "Open Redirection", "Authorization Code Protection"; RFC 9207;
 * RFC 8707; OAuth 2.1 §4.1.
 */
import type { GuardRequest, GuardResponse } from '../../server/http/index.js';
import { cookieOf, type FacadeContext, formOf, load, queryOf, redirect, wellFormed } from './context.js';
import { digest, randomId, seal, signJwt, verifyJwt } from './keys.js';
import { consentPage, errorPage } from './pages.js';
import { clientOf, type FacadeClient } from './registration.js';
import type { UpstreamPending } from './upstream.js';

/** An authorization in flight, from the client's request to the upstream's callback. */
interface Pending {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state?: string;
  scope: string;
  csrf: string;
  address: string;
  upstream?: UpstreamPending;
}

/** What a code of the façade stands for. */
export interface CodeRecord {
  grant: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
}

/** A grant: who signed in, for which client, and the upstream tokens (sealed). */
export interface GrantRecord {
  subject: string;
  claims: Record<string, string>;
  clientId: string;
  scope: string;
  /** The upstream tokens, JWE (absent for an enterprise grant). */
  upstream?: string;
}

const PENDING_TTL_MS = 600_000;
const CONSENT_COOKIE = 'mcpkit_consent';
const CSRF_COOKIE = 'mcpkit_csrf';
const MAX_CONSENTED = 20;

/** The client's redirect URI with the answer's parameters, `iss` always (RFC 9207). */
function answer(
  c: FacadeContext,
  to: { redirectUri: string; state?: string | undefined },
  params: Record<string, string>,
): GuardResponse {
  const url = new URL(to.redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (to.state !== undefined) url.searchParams.set('state', to.state);
  url.searchParams.set('iss', c.urls.issuer);
  return redirect(url);
}

function cookieAttributes(c: FacadeContext, path: string, maxAgeSec: number): string {
  const secure = c.urls.issuer.startsWith('https:') ? '; Secure' : '';
  return `; Path=${path}; Max-Age=${maxAgeSec}; HttpOnly; SameSite=Lax${secure}`;
}

/** GET /authorize. */
export async function authorize(c: FacadeContext, request: GuardRequest): Promise<GuardResponse> {
  const q = queryOf(request);
  if (!wellFormed(q)) return errorPage('The request repeats a parameter or has one that is too long.');
  const client = await clientOf(c, q.get('client_id') ?? '');
  if (!client) return errorPage('The application is not registered here (unknown client_id).');
  const redirectUri = q.get('redirect_uri') ?? '';
  if (!client.redirect_uris.includes(redirectUri))
    return errorPage('The redirect URI is not one this application registered (exact match required).');
  const state = q.get('state') ?? undefined;
  const back = { redirectUri, state };
  const refused = requestRefusal(c, q);
  if (refused) return answer(c, back, { error: refused[0], error_description: refused[1] });
  const address = request.remoteAddress ?? '';
  const busy =
    (await c.store.increment(`pend-client:${client.client_id}`, PENDING_TTL_MS)) >
      c.limits.maxPendingPerClient ||
    (await c.store.increment(`pend-ip:${address}`, PENDING_TTL_MS)) > c.limits.maxPendingPerAddress;
  if (busy)
    return answer(c, back, {
      error: 'temporarily_unavailable',
      error_description: 'too many authorizations in flight',
    });
  const pending: Pending = {
    clientId: client.client_id,
    redirectUri,
    codeChallenge: q.get('code_challenge')!,
    ...(state !== undefined ? { state } : {}),
    scope: q.get('scope') ?? c.scopes.join(' '),
    csrf: randomId(),
    address,
  };
  if (await consented(c, request, client.client_id)) {
    const upstream = await toUpstream(c, pending);
    return { ...upstream, headers: { ...upstream.headers, 'set-cookie': flowCookie(c, pending) } };
  }
  const id = randomId();
  await c.store.set(`pend:${id}`, JSON.stringify(pending), PENDING_TTL_MS);
  return showConsent(c, { id, pending, client });
}

/** Why an authorization request with a validated redirect URI is refused: [error, description]. */
function requestRefusal(c: FacadeContext, q: URLSearchParams): [string, string] | undefined {
  if (q.get('response_type') !== 'code') return ['unsupported_response_type', 'response_type must be code'];
  const challenge = q.get('code_challenge') ?? '';
  if (q.get('code_challenge_method') !== 'S256' || !/^[\w-]{43}$/.test(challenge))
    return ['invalid_request', 'PKCE with code_challenge_method S256 is required'];
  const resource = q.get('resource');
  if (resource !== null && resource !== c.urls.resource)
    return ['invalid_target', `this authorization server issues tokens for ${c.urls.resource} only`];
  const scopes = (q.get('scope') ?? '').split(' ').filter(Boolean);
  const unknown = scopes.filter((s) => !c.scopes.includes(s) && s !== 'offline_access');
  if (unknown.length > 0) return ['invalid_scope', `unknown scope ${unknown.join(' ')}`];
  return undefined;
}

function showConsent(
  c: FacadeContext,
  of: { id: string; pending: Pending; client: FacadeClient },
): GuardResponse {
  const { id, pending, client } = of;
  return consentPage(
    {
      action: c.urls.consent,
      pending: id,
      csrf: pending.csrf,
      clientName: client.client_name ?? 'An unnamed application',
      clientId: client.client_id,
      redirectUri: pending.redirectUri,
      upstream: c.upstream.name,
      resource: c.urls.resource,
      scopes: pending.scope.split(' ').filter(Boolean),
    },
    flowCookie(c, pending),
  );
}

/**
 * The cookie binding an authorization in flight to this browser: the consent form's CSRF
 * token, and what the upstream's callback must come back with (so an upstream link started
 * by someone else cannot finish in this browser). `SameSite=Lax`: sent on the top-level
 * redirect back from the upstream, never on another site's POST.
 */
function flowCookie(c: FacadeContext, pending: Pending): string {
  const path = new URL('.', c.urls.consent).pathname;
  return `${CSRF_COOKIE}=${pending.csrf}${cookieAttributes(c, path, PENDING_TTL_MS / 1000)}`;
}

/** Whether this browser approved `clientId` before (the signed consent cookie lists it). */
async function consented(c: FacadeContext, request: GuardRequest, clientId: string): Promise<boolean> {
  return (await consentedClients(c, request)).includes(clientId);
}

async function consentedClients(c: FacadeContext, request: GuardRequest): Promise<string[]> {
  const cookie = cookieOf(request, CONSENT_COOKIE);
  if (!cookie) return [];
  try {
    const claims = await verifyJwt(c.keys, cookie, { typ: 'consent+jwt', audience: c.urls.issuer });
    return Array.isArray(claims.clients)
      ? claims.clients.filter((x): x is string => typeof x === 'string')
      : [];
  } catch {
    return [];
  }
}

/** POST /consent: the user's decision, checked against the CSRF token of the authorization in flight. */
export async function consent(c: FacadeContext, request: GuardRequest): Promise<GuardResponse> {
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== new URL(c.urls.issuer).origin)
    return errorPage('The form was posted from another site.', 403);
  const form = await formOf(request);
  const id = form?.get('pending') ?? '';
  const csrf = form?.get('csrf') ?? '';
  const pending = id ? await load<Pending>(c.store, `pend:${id}`) : undefined;
  if (!pending)
    return errorPage(
      'This authorization request has expired or was already answered; start again from the application.',
    );
  if (csrf !== pending.csrf || cookieOf(request, CSRF_COOKIE) !== pending.csrf)
    return errorPage('The consent form could not be verified (CSRF check failed).', 403);
  await c.store.delete(`pend:${id}`);
  if (form?.get('decision') !== 'approve')
    return answer(c, pending, { error: 'access_denied', error_description: 'the user denied the request' });
  const clients = [
    pending.clientId,
    ...(await consentedClients(c, request)).filter((x) => x !== pending.clientId),
  ];
  const cookie = await signJwt(
    c.keys,
    { aud: c.urls.issuer, clients: clients.slice(0, MAX_CONSENTED) },
    { typ: 'consent+jwt', ttlSec: 365 * 86400 },
  );
  const path = new URL(c.urls.authorize).pathname;
  const upstream = await toUpstream(c, pending);
  return {
    ...upstream,
    headers: {
      ...upstream.headers,
      'set-cookie': `${CONSENT_COOKIE}=${cookie}${cookieAttributes(c, path, 365 * 86400)}`,
    },
  };
}

/** Sends the browser to the upstream, with the upstream PKCE and state kept for the callback. */
async function toUpstream(c: FacadeContext, pending: Pending): Promise<GuardResponse> {
  const state = randomId();
  const { url, pending: upstream } = await c.upstream.authorizationUrl(c.urls.callback, state);
  await c.store.set(`flow:${state}`, JSON.stringify({ ...pending, upstream }), PENDING_TTL_MS);
  return redirect(url);
}

/** GET /callback: the upstream's answer; issues the façade's code to the client. */
export async function callback(c: FacadeContext, request: GuardRequest): Promise<GuardResponse> {
  const url = new URL(request.url, c.urls.callback);
  const state = url.searchParams.get('state') ?? '';
  const pending =
    state.length <= 100 && state ? await load<Pending>(c.store, `flow:${state}`, true) : undefined;
  if (!pending?.upstream)
    return errorPage('This sign-in has expired or was already used; start again from the application.');
  if (cookieOf(request, CSRF_COOKIE) !== pending.csrf)
    return errorPage('This sign-in was started in another browser; start again from the application.', 403);
  let signedIn;
  try {
    signedIn = await c.upstream.redeem(url, pending.upstream, c.urls.callback);
  } catch {
    const denied = url.searchParams.get('error') === 'access_denied';
    return answer(c, pending, {
      error: denied ? 'access_denied' : 'server_error',
      error_description: 'the sign-in at the upstream provider failed',
    });
  }
  const grant = randomId();
  const record: GrantRecord = {
    subject: signedIn.identity.subject,
    claims: signedIn.identity.claims ?? {},
    clientId: pending.clientId,
    scope: pending.scope,
    upstream: await seal(c.keys, JSON.stringify(signedIn.tokens)),
  };
  await c.store.set(`grant:${grant}`, JSON.stringify(record), c.limits.refreshTtlMs);
  const code = randomId();
  const stored: CodeRecord = {
    grant,
    clientId: pending.clientId,
    redirectUri: pending.redirectUri,
    codeChallenge: pending.codeChallenge,
    scope: pending.scope,
  };
  await c.store.set(`code:${await digest(code)}`, JSON.stringify(stored), c.limits.codeTtlMs);
  return answer(c, pending, { code });
}
