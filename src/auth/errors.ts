/**
 * The local error of mcpkit/auth. It never carries a token, an authorization code, a
 * client secret or a private key, in its message or in its cause: the cause kept is a
 * summary (`name`, library `code`, OAuth `error`, HTTP `status`) of what the library threw.
 */

/** String codes of {@link AuthError}. */
export type AuthErrorCode =
  /** Discovery failed: no usable Protected Resource or authorization server metadata. */
  | 'DISCOVERY_FAILED'
  /** A metadata document names another resource or issuer than the one asked for. */
  | 'METADATA_MISMATCH'
  /** The authorization server does not offer what the flow needs (PKCE S256, a grant). */
  | 'UNSUPPORTED_SERVER'
  /** No client identity could be obtained (no credentials, no registration endpoint). */
  | 'REGISTRATION_FAILED'
  /** The user has to visit an authorization URL; call `finishAuth(callbackUrl)` after. */
  | 'INTERACTION_REQUIRED'
  /** The authorization response was refused (state, iss, or an error from the server). */
  | 'AUTHORIZATION_REJECTED'
  /** The token endpoint refused or gave a malformed answer. */
  | 'TOKEN_REQUEST_FAILED'
  /** The resource server still refuses after the bounded number of attempts. */
  | 'ACCESS_DENIED'
  /** A presented token failed verification (resource server side). */
  | 'INVALID_TOKEN'
  /** A verifier could not reach its authorization server (JWKS, introspection). */
  | 'VERIFIER_UNAVAILABLE'
  /** Bad options given to mcpkit/auth. */
  | 'INVALID_OPTIONS';

/** A summary of a library error that is safe to keep: no parameters, bodies or headers. */
export interface AuthErrorCause {
  name: string;
  code?: string;
  error?: string;
  status?: number;
}

/**
 * The local error family's variant for mcpkit/auth (like `LocalError`, never sent on the
 * wire; not its subclass, as its codes are its own): match on `code`; the message names the
 * peer, never a secret, and `cause` is a secret-free {@link AuthErrorCause} summary.
 */
export class AuthError extends Error {
  readonly code: AuthErrorCode;
  /** For `INTERACTION_REQUIRED`: the URL the user has to visit. */
  readonly authorizationUrl: URL | undefined;

  constructor(
    code: AuthErrorCode,
    message: string,
    options: { cause?: unknown; authorizationUrl?: URL } = {},
  ) {
    const cause = options.cause === undefined ? undefined : summarize(options.cause);
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'AuthError';
    this.code = code;
    this.authorizationUrl = options.authorizationUrl;
  }
}

/** The safe summary of anything thrown by oauth4webapi, jose or fetch. */
function summarize(error: unknown): AuthErrorCause {
  if (error instanceof AuthError) return { name: 'AuthError', code: error.code };
  const e = (error ?? {}) as { name?: unknown; code?: unknown; error?: unknown; status?: unknown };
  const out: AuthErrorCause = { name: typeof e.name === 'string' ? e.name : 'Error' };
  if (typeof e.code === 'string') out.code = e.code;
  if (typeof e.error === 'string') out.error = e.error.slice(0, 100);
  if (typeof e.status === 'number') out.status = e.status;
  return out;
}

/**
 * A one-line description of a library error for our own messages: the OAuth `error` code
 * and the library's fixed message text (which never holds request values).
 */
export function describe(error: unknown): string {
  if (error instanceof AuthError) return error.message;
  const s = summarize(error);
  const text = error instanceof Error ? error.message.slice(0, 200) : String(s.name);
  return s.error ? `${s.error} (${text})` : text;
}
