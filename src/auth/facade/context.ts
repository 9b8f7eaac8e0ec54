/**
 * What every endpoint of the authorization server façade shares: its options, URLs, keys,
 * store and upstream client, the bounds, and the small helpers that answer a request.
 */
import type { GuardRequest, GuardResponse } from '../../server/http/index.js';
import type { ClientMetadataOptions } from './documents.js';
import type { FacadeKeys } from './keys.js';
import type { FacadeStore } from './store.js';
import type { Upstream } from './upstream.js';

/** The bounds of the façade; each has a default. */
export interface FacadeLimits {
  /** Registered clients at most (default 10 000), counted over {@link registrationTtlMs}. */
  maxRegistrations?: number;
  /** How long an unused registration lives, in milliseconds (default 30 days). */
  registrationTtlMs?: number;
  /** Authorizations in flight per client (default 50) and per IP address (default 20), over 10 minutes. */
  maxPendingPerClient?: number;
  maxPendingPerAddress?: number;
  /** Lifetime of an authorization code, in milliseconds (default 60 000). */
  codeTtlMs?: number;
  /** Lifetime of an access token, in seconds (default 3 600). */
  accessTokenTtlSec?: number;
  /** Lifetime of a refresh token and of its grant, in milliseconds (default 30 days). */
  refreshTtlMs?: number;
}

/** The façade's URLs (all absolute). */
export interface FacadeUrls {
  issuer: string;
  resource: string;
  metadata: string;
  authorize: string;
  consent: string;
  callback: string;
  token: string;
  register: string;
  revoke: string;
}

/** What the endpoints share. */
export interface FacadeContext {
  urls: FacadeUrls;
  keys: FacadeKeys;
  store: FacadeStore;
  upstream: Upstream;
  limits: Required<FacadeLimits>;
  scopes: string[];
  fetch: typeof fetch;
  /** Whether Client ID Metadata Documents may be fetched over plain http and from loopback (tests). */
  allowLoopbackMetadata: boolean;
  clientMetadata: ClientMetadataOptions;
  enterprise: EnterpriseIdp | undefined;
}

/** A trusted enterprise IdP whose identity assertion grants (ID-JAG) the token endpoint accepts. */
export interface EnterpriseIdp {
  /** Its issuer; the assertion's `iss` must equal it. */
  issuer: string;
  /** Its JWKS URL. */
  jwksUri: string;
  /** Allowed signing algorithms (default RS256, ES256, PS256, EdDSA). */
  algorithms?: string[];
}

/** Most bytes of a form or JSON body the endpoints read. */
export const MAX_BODY = 16 * 1024;

/** Longest value of any one parameter the façade keeps (URIs, state, scope…). */
export const MAX_FIELD = 2048;

export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

const CORS = { 'access-control-allow-origin': '*' };

/** A JSON answer; CORS-open (no cookies are read on the JSON endpoints). */
export function json(status: number, body: unknown, extra: Record<string, string> = {}): GuardResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...NO_STORE, ...CORS, ...extra },
    body: JSON.stringify(body),
  };
}

/** An OAuth error answer (RFC 6749 §5.2). */
export function oauthError(status: number, error: string, description: string): GuardResponse {
  return json(status, { error, error_description: description });
}

/** A redirect (302) to `url`, never cached. */
export function redirect(url: URL | string, extra: Record<string, string> = {}): GuardResponse {
  return { status: 302, headers: { location: String(url), ...NO_STORE, ...extra }, body: null };
}

/** The body of `request` as form parameters, or undefined when too large or absent. */
export async function formOf(request: GuardRequest): Promise<URLSearchParams | undefined> {
  const read = await request.body?.(MAX_BODY);
  if (!read || read.kind !== 'text') return undefined;
  return new URLSearchParams(read.text);
}

/** The query of `request`. */
export function queryOf(request: GuardRequest): URLSearchParams {
  return new URL(request.url, 'http://localhost').searchParams;
}

/** Whether every value of `params` is at most {@link MAX_FIELD} long and none repeats (RFC 6749 §3.1). */
export function wellFormed(params: URLSearchParams): boolean {
  const seen = new Set<string>();
  for (const [key, value] of params) {
    if (seen.has(key) || value.length > MAX_FIELD) return false;
    seen.add(key);
  }
  return true;
}

/** The named cookie of `request`. */
export function cookieOf(request: GuardRequest, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Reads JSON stored under `key`, or undefined. */
export async function load<T>(store: FacadeStore, key: string, take = false): Promise<T | undefined> {
  const text = take ? await store.take(key) : await store.get(key);
  return text === undefined ? undefined : (JSON.parse(text) as T);
}
