/**
 * Where the OAuth client keeps what it obtained: client registrations (keyed by issuer,
 * so credentials of one authorization server are never shown to another) and tokens
 * (keyed by issuer and resource). Values are plain JSON; a store only stores.
 */

/** A client registration at one authorization server. */
export interface StoredClient {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method?: string;
  /** Seconds since the epoch after which the secret is no longer valid (0: never). */
  client_secret_expires_at?: number;
}

/** Tokens for one resource from one authorization server. */
export interface StoredTokens {
  access_token: string;
  /** `bearer` or `dpop` (lower case). */
  token_type: string;
  refresh_token?: string;
  /** Milliseconds since the epoch when the access token expires, if the server said. */
  expires_at?: number;
  /** The scopes asked for (what step-up adds to). */
  scopes: string[];
  /** The issuer that gave them. */
  issuer: string;
}

/** A small asynchronous key-value store of JSON values. */
export interface AuthStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

/** The store key of a client registration at `issuer`. */
export function clientKey(issuer: string): string {
  return `client ${issuer}`;
}

/** The store key of the tokens for `resource` (any issuer: the latest one wins). */
export function tokensKey(resource: string): string {
  return `tokens ${resource}`;
}

/** An {@link AuthStore} in memory: the default; forgotten when the process ends. */
export function memoryStore(): AuthStore {
  const map = new Map<string, string>();
  return {
    get: async (key) => {
      const text = map.get(key);
      return text === undefined ? undefined : JSON.parse(text);
    },
    set: async (key, value) => void map.set(key, JSON.stringify(value)),
    delete: async (key) => void map.delete(key),
  };
}

/** Reads stored tokens, checking their shape. */
export async function loadTokens(store: AuthStore, resource: string): Promise<StoredTokens | undefined> {
  const value = (await store.get(tokensKey(resource))) as Partial<StoredTokens> | undefined;
  if (!value || typeof value.access_token !== 'string' || typeof value.issuer !== 'string') return undefined;
  return {
    ...value,
    token_type: typeof value.token_type === 'string' ? value.token_type : 'bearer',
    scopes: Array.isArray(value.scopes) ? value.scopes.filter((s) => typeof s === 'string') : [],
  } as StoredTokens;
}

/** Reads a stored client registration, checking its shape. */
export async function loadClient(store: AuthStore, issuer: string): Promise<StoredClient | undefined> {
  const value = (await store.get(clientKey(issuer))) as Partial<StoredClient> | undefined;
  if (!value || typeof value.client_id !== 'string') return undefined;
  const expires = value.client_secret_expires_at;
  if (typeof expires === 'number' && expires > 0 && expires * 1000 < Date.now()) return undefined;
  return value as StoredClient;
}
