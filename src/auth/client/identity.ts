/**
 * Client identity at one authorization server, in the spec's order of preference:
 * pre-registered credentials, a registration stored earlier for that issuer, a Client ID
 * Metadata Document URL (when the server advertises support), then Dynamic Client
 * Registration (RFC 7591). Also picks the token endpoint authentication method from what
 * the server supports.
 * Source: 2026-07-28 basic/authorization/client-registration.
 */
import { importPKCS8 } from 'jose';
import * as oauth from 'oauth4webapi';
import { AuthError, describe } from '../errors.js';
import { isLoopbackHost } from '../../core/runtime.js';
import { boundedFetch, readJson } from './discovery.js';
import { clientKey, loadClient, type AuthStore, type StoredClient } from './store.js';

/** Credentials registered with an authorization server beforehand. */
export interface ClientCredentials {
  clientId: string;
  clientSecret?: string;
  /** For `private_key_jwt`: a PKCS#8 PEM string or a CryptoKey. */
  privateKey?: string | CryptoKey;
  /** The JWS algorithm of `privateKey` (default ES256). */
  signingAlgorithm?: string;
  /** Only use these credentials with this issuer (default: any). */
  issuer?: string;
}

/** What {@link obtainClient} needs. */
export interface IdentityOptions {
  store: AuthStore;
  http: { fetch: typeof fetch; insecure: boolean };
  credentials?: ClientCredentials | undefined;
  clientMetadataUrl?: string | undefined;
  initialAccessToken?: string | undefined;
  clientName: string;
  redirectUri?: string | undefined;
  grantTypes: string[];
}

/** A usable client: the oauth4webapi client and how it authenticates at the token endpoint. */
export interface ClientIdentity {
  client: oauth.Client;
  auth: oauth.ClientAuth;
}

/** The token endpoint authentication method to use, from what the server supports. */
function chooseAuthMethod(as: oauth.AuthorizationServer, has: { secret: boolean; key: boolean }): string {
  const supported = as.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (has.key && supported.includes('private_key_jwt')) return 'private_key_jwt';
  if (has.secret) {
    if (supported.includes('client_secret_basic')) return 'client_secret_basic';
    if (supported.includes('client_secret_post')) return 'client_secret_post';
    return supported.includes('none') ? 'none' : 'client_secret_basic';
  }
  return 'none';
}

async function privateKeyOf(c: ClientCredentials): Promise<CryptoKey> {
  if (typeof c.privateKey !== 'string') return c.privateKey!;
  try {
    return (await importPKCS8(c.privateKey, c.signingAlgorithm ?? 'ES256')) as CryptoKey;
  } catch (error) {
    throw new AuthError('INVALID_OPTIONS', `the client private key could not be read: ${describe(error)}`);
  }
}

/**
 * `client_secret_basic` (RFC 6749 §2.3.1), with the id and secret form-encoded the way
 * most servers decode them (`encodeURIComponent`): oauth4webapi also escapes characters
 * such as `-`, which servers that do not decode then reject.
 */
function secretBasic(secret: string): oauth.ClientAuth {
  // eslint-disable-next-line max-params -- the ClientAuth callback signature of oauth4webapi
  return (_as, client, _body, headers) => {
    const pair = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`;
    headers.set('authorization', `Basic ${btoa(pair)}`);
  };
}

async function authFor(
  method: string,
  secret: string | undefined,
  key: (() => Promise<CryptoKey>) | undefined,
) {
  switch (method) {
    case 'client_secret_basic':
      return secretBasic(secret ?? '');
    case 'client_secret_post':
      return oauth.ClientSecretPost(secret ?? '');
    case 'private_key_jwt':
      if (!key) throw new AuthError('INVALID_OPTIONS', 'private_key_jwt needs a private key');
      return oauth.PrivateKeyJwt(await key());
    default:
      return oauth.None();
  }
}

async function fromStored(as: oauth.AuthorizationServer, stored: StoredClient): Promise<ClientIdentity> {
  const method =
    stored.token_endpoint_auth_method ?? chooseAuthMethod(as, { secret: !!stored.client_secret, key: false });
  return {
    client: { client_id: stored.client_id },
    auth: await authFor(method, stored.client_secret, undefined),
  };
}

async function preRegistered(as: oauth.AuthorizationServer, c: ClientCredentials): Promise<ClientIdentity> {
  const method = chooseAuthMethod(as, {
    secret: c.clientSecret !== undefined,
    key: c.privateKey !== undefined,
  });
  const auth = await authFor(method, c.clientSecret, () => privateKeyOf(c));
  return { client: { client_id: c.clientId }, auth };
}

/** Longest wait, in milliseconds, for a registration answer: headers and body. */
const REGISTRATION_TIMEOUT_MS = 30_000;

/**
 * Reads a registration answer (RFC 7591 §3.2.1): 201 (or 200) with a JSON `client_id`.
 * More lenient than oauth4webapi, which refuses answers without `client_secret_expires_at`
 * that many servers omit.
 */
async function registrationOf(response: Response): Promise<Record<string, unknown> & { client_id: string }> {
  const body = await readJson(response);
  if ((response.status !== 201 && response.status !== 200) || typeof body?.client_id !== 'string') {
    const error = typeof body?.error === 'string' ? `${body.error.slice(0, 100)}, ` : '';
    throw new AuthError('REGISTRATION_FAILED', `registration refused (${error}HTTP ${response.status})`);
  }
  return body as Record<string, unknown> & { client_id: string };
}

async function register(as: oauth.AuthorizationServer, o: IdentityOptions): Promise<StoredClient> {
  const method = chooseAuthMethod(as, {
    secret: !(as.token_endpoint_auth_methods_supported ?? []).includes('none'),
    key: false,
  });
  const redirect = o.redirectUri ? new URL(o.redirectUri) : undefined;
  const loopback = redirect && isLoopbackHost(redirect.hostname);
  const metadata: Partial<oauth.Client> = {
    client_name: o.clientName,
    grant_types: o.grantTypes,
    token_endpoint_auth_method: method,
    application_type: !redirect || loopback || redirect.protocol !== 'https:' ? 'native' : 'web',
    ...(redirect ? { redirect_uris: [redirect.href], response_types: ['code'] } : { response_types: [] }),
  };
  try {
    const response = await oauth.dynamicClientRegistrationRequest(as, metadata, {
      ...(o.initialAccessToken ? { initialAccessToken: o.initialAccessToken } : {}),
      [oauth.customFetch]: boundedFetch(o.http.fetch, REGISTRATION_TIMEOUT_MS),
      [oauth.allowInsecureRequests]: o.http.insecure,
    });
    const client = await registrationOf(response);
    const out: StoredClient = { client_id: client.client_id };
    if (typeof client.client_secret === 'string') out.client_secret = client.client_secret;
    const got = client.token_endpoint_auth_method;
    out.token_endpoint_auth_method = typeof got === 'string' ? got : out.client_secret ? method : 'none';
    if (typeof client.client_secret_expires_at === 'number')
      out.client_secret_expires_at = client.client_secret_expires_at;
    return out;
  } catch (error) {
    throw new AuthError(
      'REGISTRATION_FAILED',
      `dynamic client registration at ${as.issuer} failed: ${describe(error)}`,
      {
        cause: error,
      },
    );
  }
}

/**
 * A client identity for `as`, obtained in the spec's order of preference. A registration
 * made here is stored under the issuer and reused only with that issuer.
 * @throws AuthError `REGISTRATION_FAILED` when nothing works.
 */
export async function obtainClient(
  as: oauth.AuthorizationServer,
  o: IdentityOptions,
): Promise<ClientIdentity> {
  const c = o.credentials;
  if (c && (c.issuer === undefined || c.issuer === as.issuer)) return preRegistered(as, c);
  const stored = await loadClient(o.store, as.issuer);
  if (stored) return fromStored(as, stored);
  if (o.clientMetadataUrl && as.client_id_metadata_document_supported === true)
    return { client: { client_id: o.clientMetadataUrl }, auth: oauth.None() };
  if (!as.registration_endpoint)
    throw new AuthError(
      'REGISTRATION_FAILED',
      `authorization server ${as.issuer} offers no dynamic client registration and no credentials were given for it`,
    );
  const registered = await register(as, o);
  await o.store.set(clientKey(as.issuer), registered);
  return fromStored(as, registered);
}
