/**
 * Options of the OAuth client ({@link oauthClient}) and the grants it can run.
 * Source: 2026-07-28 basic/authorization; extensions oauth-client-credentials,
 * enterprise-managed-authorization, workload identity, DPoP.
 */
import { isLoopbackHost } from '../../core/runtime.js';
import type { ClientCredentials } from './identity.js';
import type { AuthStore } from './store.js';

/** How the client obtains tokens. */
export type Grant =
  /** Authorization code with PKCE, for a user at a browser (the default). */
  | { type: 'authorization_code' }
  /** Client credentials (machine to machine); needs `credentials`. */
  | { type: 'client_credentials' }
  /** JWT bearer (RFC 7523) with an assertion from elsewhere, e.g. a workload identity token. */
  | { type: 'jwt_bearer'; assertion: () => string | Promise<string> }
  /**
   * Enterprise-managed authorization: the enterprise IdP's ID token is exchanged there for
   * an ID-JAG (RFC 8693), which is then presented to the authorization server as a JWT
   * bearer grant (RFC 7523).
   */
  | {
      type: 'enterprise';
      idToken: () => string | Promise<string>;
      idp: { tokenEndpoint: string; clientId: string; clientSecret?: string; issuer?: string };
    };

/** Options of {@link oauthClient}. All optional; the defaults suit a code flow with DCR. */
export interface OAuthClientOptions {
  /** How tokens are obtained (default: authorization code). */
  grant?: Grant;
  /** Pre-registered client credentials; preferred over any registration. */
  credentials?: ClientCredentials;
  /** An https URL of this client's Client ID Metadata Document, used when the server supports it. */
  clientMetadataUrl?: string;
  /** An initial access token for Dynamic Client Registration (RFC 7591 §3). */
  initialAccessToken?: string;
  /** The `client_name` registered (default "mcpkit"). */
  clientName?: string;
  /** The redirect URI of the code flow (default http://127.0.0.1/callback). */
  redirectUri?: string;
  /**
   * Sends the user to the authorization URL. Return the URL the browser came back to (the
   * redirect URI with `code`, `state`, `iss`) to finish right away; return nothing to finish
   * later with `finishAuth(callbackUrl)` (the request then fails with `INTERACTION_REQUIRED`).
   */
  redirect?: (url: URL) => Promise<URL | string | undefined | void> | URL | string | undefined | void;
  /** Scopes always asked for, besides those the server names. */
  scopes?: string[];
  /**
   * Use DPoP-bound tokens: `auto` (default) when the authorization server supports ES256
   * proofs and the resource server takes DPoP (a DPoP challenge, or DPoP algorithms in its
   * metadata); `true` whenever the authorization server supports them.
   */
  dpop?: boolean | 'auto';
  /** Where registrations and tokens are kept (default: in memory). */
  store?: AuthStore;
  /** The fetch for metadata and token requests (default: the transport's). */
  fetch?: typeof fetch;
  /** Allow plain http to non-loopback hosts (default false; loopback is always allowed). */
  allowInsecureHttp?: boolean;
  /** Re-authorizations on `403 insufficient_scope` for one request (default 2). */
  maxStepUps?: number;
  /** Ask for `offline_access` and refresh tokens when the server supports them (default true). */
  refreshTokens?: boolean;
}

/** Whether `url` may be used over plain http: loopback hosts only, unless allowed. */
export function insecureAllowed(url: URL, allowAll: boolean | undefined): boolean {
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  return allowAll === true || isLoopbackHost(url.hostname);
}
