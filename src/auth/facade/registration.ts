/**
 * The MCP clients of the façade: Dynamic Client Registration (RFC 7591) and Client ID
 * Metadata Documents (an https `client_id` whose document the façade fetches, bounded).
 * Redirect URIs are https, or http on a loopback host, or a private-use scheme (native
 * apps); they are later matched exactly. Registrations are bounded in number and size.
 * Source: 2026-07-28 basic/authorization/client-registration; security-considerations
 * "Redirect URI Validation", "Client ID Metadata Document Security"; RFC 7591 §2–§3.
 */
import { isLoopbackHost } from '../../core/runtime.js';
import type { GuardRequest, GuardResponse } from '../../server/http/index.js';
import { type FacadeContext, json, load, MAX_BODY, MAX_FIELD, oauthError } from './context.js';
import { fetchDocument } from './documents.js';
import { digest, randomId } from './keys.js';

/** A client of the façade, registered or described by its metadata document. */
export interface FacadeClient {
  client_id: string;
  client_name?: string;
  redirect_uris: string[];
  token_endpoint_auth_method: 'none' | 'client_secret_post' | 'client_secret_basic';
  /** SHA-256 of the secret (confidential clients). */
  secret_hash?: string;
  /** Whether this client was registered dynamically (false: a metadata document). */
  registered: boolean;
}

const MAX_REDIRECT_URIS = 10;

/** Whether `uri` may be a redirect URI: https, http on loopback, or a private-use scheme (a dotted name). */
function acceptableRedirect(uri: unknown): uri is string {
  if (typeof uri !== 'string' || uri.length > MAX_FIELD) return false;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return isLoopbackHost(url.hostname);
  return /^[a-z][a-z0-9+-]*\.[a-z0-9.+-]+:$/.test(url.protocol);
}

function invalidMetadata(description: string): GuardResponse {
  return oauthError(400, 'invalid_client_metadata', description);
}

/** Validates the metadata both ways of registering share. @returns an error text, or the client. */
function clientFrom(
  meta: Record<string, unknown>,
  clientId: string,
  registered: boolean,
): FacadeClient | string {
  const uris = meta.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS)
    return `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs`;
  if (!uris.every(acceptableRedirect))
    return 'each redirect URI must be https, http on a loopback host, or a private-use scheme';
  const name = meta.client_name;
  if (name !== undefined && (typeof name !== 'string' || name.length > 200))
    return 'client_name must be a string of at most 200 characters';
  const method = meta.token_endpoint_auth_method ?? 'none';
  if (method !== 'none' && method !== 'client_secret_post' && method !== 'client_secret_basic')
    return 'token_endpoint_auth_method must be none, client_secret_post or client_secret_basic';
  const grants = meta.grant_types;
  if (
    grants !== undefined &&
    (!Array.isArray(grants) || grants.some((g) => typeof g !== 'string' || g.length > 100))
  )
    return 'grant_types must be a list of strings';
  return {
    client_id: clientId,
    ...(typeof name === 'string' ? { client_name: name } : {}),
    redirect_uris: uris,
    token_endpoint_auth_method: method,
    registered,
  };
}

/** POST /register (RFC 7591 §3.1): a new client, bounded in number. */
export async function register(c: FacadeContext, request: GuardRequest): Promise<GuardResponse> {
  const read = await request.body?.(MAX_BODY);
  if (!read || read.kind !== 'text')
    return invalidMetadata(`the registration must be JSON of at most ${MAX_BODY} bytes`);
  let meta: unknown;
  try {
    meta = JSON.parse(read.text);
  } catch {
    return invalidMetadata('the registration is not JSON');
  }
  if (!meta || typeof meta !== 'object' || Array.isArray(meta))
    return invalidMetadata('the registration must be a JSON object');
  const client = clientFrom(meta as Record<string, unknown>, randomId(16), true);
  if (typeof client === 'string') return invalidMetadata(client);
  const count = await c.store.increment('reg-count', c.limits.registrationTtlMs);
  if (count > c.limits.maxRegistrations)
    return oauthError(503, 'temporarily_unavailable', 'too many clients are registered; try later');
  let secret: string | undefined;
  if (client.token_endpoint_auth_method !== 'none') {
    secret = randomId(32);
    client.secret_hash = await digest(secret);
  }
  await c.store.set(`client:${client.client_id}`, JSON.stringify(client), c.limits.registrationTtlMs);
  const { secret_hash: _, registered: __, ...answer } = client;
  return json(201, {
    ...answer,
    client_id_issued_at: Math.floor(Date.now() / 1000),
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
  });
}

/** Whether `clientId` names a Client ID Metadata Document: an https URL with a path. */
function isMetadataUrl(clientId: string, allowLoopback: boolean): URL | undefined {
  try {
    const url = new URL(clientId);
    const secure =
      url.protocol === 'https:' ||
      (allowLoopback && url.protocol === 'http:' && isLoopbackHost(url.hostname));
    return secure && url.pathname.length > 1 && !url.hash && !url.username ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The client `clientId` names: registered here, or described by the metadata document at
 * that URL (fetched from public addresses only, without redirects, bounded in size and
 * time — ./documents.ts; its `client_id` must equal the URL; cached as its HTTP caching
 * headers allow, within a bound). Undefined when unknown, refused or invalid.
 */
export async function clientOf(c: FacadeContext, clientId: string): Promise<FacadeClient | undefined> {
  if (clientId.length > MAX_FIELD) return undefined;
  const known = await load<FacadeClient>(c.store, `client:${clientId}`);
  if (known) return known;
  const url = isMetadataUrl(clientId, c.allowLoopbackMetadata);
  if (!url) return undefined;
  const cacheKey = `cimd:${await digest(clientId)}`;
  const cached = await load<FacadeClient>(c.store, cacheKey);
  if (cached) return cached;
  let document: Awaited<ReturnType<typeof fetchDocument>>;
  try {
    document = await fetchDocument(url, {
      options: c.clientMetadata,
      allowLoopback: c.allowLoopbackMetadata,
      platformFetch: c.fetch,
    });
  } catch {
    return undefined;
  }
  if (document.json.client_id !== clientId) return undefined;
  const client = clientFrom(document.json, clientId, false);
  if (typeof client === 'string' || client.token_endpoint_auth_method !== 'none') return undefined;
  if (document.cacheSec > 0) await c.store.set(cacheKey, JSON.stringify(client), document.cacheSec * 1000);
  return client;
}
