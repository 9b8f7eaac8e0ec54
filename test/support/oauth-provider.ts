/**
 * An in-memory `OAuthClientProvider` for the official TypeScript SDK's clients (v2, and v1
 * through a cast), as an app would write one: it keeps the registration, tokens and PKCE
 * verifier, and records the authorization URL instead of opening a browser. Its redirect
 * URI is `http://127.0.0.1/callback` (never listened on: tests drive the browser by HTTP).
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/client';

type ClientInfo = Parameters<NonNullable<OAuthClientProvider['saveClientInformation']>>[0];
type Tokens = Parameters<OAuthClientProvider['saveTokens']>[0];

export class MemoryOAuthProvider implements OAuthClientProvider {
  /** Where the client sent the user last (undefined until it asks for authorization). */
  authorizationUrl: URL | undefined;
  #client: ClientInfo | undefined;
  #tokens: Tokens | undefined;
  #verifier = '';

  /** `name` is the registered `client_name`; `extra` adds registration metadata. */
  constructor(
    readonly name: string,
    readonly extra: Record<string, string> = {},
  ) {}

  get redirectUrl() {
    return 'http://127.0.0.1/callback';
  }
  get clientMetadata() {
    return {
      client_name: this.name,
      redirect_uris: ['http://127.0.0.1/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...this.extra,
    };
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(info: ClientInfo) {
    this.#client = info;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: Tokens) {
    this.#tokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
}
