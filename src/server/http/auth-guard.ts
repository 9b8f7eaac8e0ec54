/**
 * The authorization seam of the HTTP endpoint: an {@link HttpAuthGuard} (mcpkit/auth's
 * `protectedResource()` is one) verifies each request's credentials before it is routed,
 * answers its own metadata paths, and turns the server's scope refusal
 * (middleware/scopes.ts) into its 403 challenge. The endpoint only calls it; what a token is and how it is checked stays
 * in the guard.
 * Source: 2026-07-28 basic/authorization "Access Token Usage", "Error Handling".
 */
import type { AuthInfo } from '../index.js';
import type { HeaderReader, HttpRequest } from './exchange.js';

/**
 * What a guard reads of a request: its method, URL (absolute, or a path), headers and abort
 * signal. A web `Request` has all four; the endpoint passes its own request shape.
 */
export interface GuardRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderReader;
  readonly signal: AbortSignal;
  /**
   * Reads the whole body as text, refusing more than `maxBytes` bytes; given to
   * {@link HttpAuthGuard.serve} (an authorization server's token endpoint reads its form).
   */
  body?(maxBytes: number): Promise<{ kind: 'text'; text: string } | { kind: 'too-large' }>;
  /** The peer's IP address, when the adapter knows it (bounds per address). */
  readonly remoteAddress?: string | undefined;
}

/** A response a guard answers with: status, lowercase header names, a text body or none. */
export interface GuardResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string | ReadableStream<Uint8Array> | null;
}

/** The result of authenticating a request: who is calling, or the response refusing it. */
export type AuthOutcome = { auth: AuthInfo } | { response: GuardResponse };

/** Authorization for {@link createHttpHandler}: see mcpkit/auth `protectedResource()`. */
export interface HttpAuthGuard {
  /** Paths besides the MCP endpoint's that the guard answers (its Protected Resource Metadata). */
  readonly paths: readonly string[];
  /**
   * Answers a request for one of {@link paths} (at once, or later: an authorization server
   * reads a form body and calls its upstream); undefined for any other request (405).
   */
  serve(request: GuardRequest): GuardResponse | Promise<GuardResponse | undefined> | undefined;
  /** Verifies the credentials of a request to the MCP endpoint. Never throws. */
  authenticate(request: GuardRequest): Promise<AuthOutcome>;
  /** The 403 for a caller that lacks `required` scopes (`insufficient_scope`), answering the server's scope check. */
  insufficientScope(required: readonly string[]): GuardResponse;
  /**
   * Called once by the endpoint with a reader of the scopes the served features need (every
   * `scopes` a tool, prompt, resource or template registered, current when read), so the
   * guard's 401 challenge can ask for what a request needs rather than every privileged
   * scope (2026-07-28 basic/authorization "Scope Selection Strategy"). Optional.
   */
  featureScopes?(read: () => readonly string[]): void;
}

/** The principal key that legacy sessions and `requestState` are bound to ('' when anonymous). */
export { principalOf } from '../../core/runtime.js';

/** The path of a request URL (absolute, or just a path). */
export function pathOf(request: HttpRequest): string {
  try {
    return new URL(request.url, 'http://localhost').pathname;
  } catch {
    return '';
  }
}
