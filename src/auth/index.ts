/**
 * mcpkit/auth: authorization for MCP over HTTP, both sides.
 *
 * Client: `oauthClient(options)` for `streamableHttp(url, { auth })` — Protected Resource
 * Metadata and authorization server discovery, client identity (pre-registered, Client ID
 * Metadata Document, Dynamic Client Registration), the authorization code flow with PKCE,
 * refresh, step-up, client credentials, JWT bearer, enterprise-managed authorization and
 * DPoP, with tokens kept in an {@link AuthStore}.
 *
 * Resource server: `protectedResource(options)` for `createHttpHandler(server, { auth })`
 * and `serve()` — Protected Resource Metadata at the path-aware well-known URL, 401/403
 * challenges, token verification (`jwtVerifier`, `introspectionVerifier`, or a function),
 * DPoP-bound tokens, per-feature `scopes`, and the principal as `ctx.auth`.
 *
 * Authorization server façade: `authorizationFacade(options)` in front of a provider with one
 * static client and no dynamic registration (`githubUpstream`, `googleUpstream`,
 * `entraUpstream`, `oidcUpstream`): registration, consent, the upstream's code flow, tokens
 * bound to the MCP endpoint, refresh, revocation and ID-JAG grants, in a {@link FacadeStore}.
 *
 * Source: 2026-07-28 basic/authorization; 2025-11-25 basic/authorization.
 */
export { AuthError, type AuthErrorCode, type AuthErrorCause } from './errors.js';
export { OAuthClient, oauthClient } from './client/oauth-client.js';
export type { Grant, OAuthClientOptions } from './client/options.js';
export type { ClientCredentials } from './client/identity.js';
export { memoryStore, type AuthStore, type StoredClient, type StoredTokens } from './client/store.js';
export type { Challenge, AuthChallenge } from './client/challenge.js';
export { protectedResource, type ProtectedResourceOptions } from './server/resource-server.js';
export {
  jwtVerifier,
  introspectionVerifier,
  type TokenVerifier,
  type JwtVerifierOptions,
  type IntrospectionVerifierOptions,
} from './server/verifiers.js';
export { hideUnauthorized } from './server/scope-filter.js';
export {
  authorizationFacade,
  AuthorizationFacade,
  type AuthorizationFacadeOptions,
} from './facade/facade.js';
export type { FacadeLimits, EnterpriseIdp } from './facade/context.js';
export type { ClientMetadataOptions } from './facade/documents.js';
export { memoryFacadeStore, type FacadeStore, type MemoryFacadeStoreOptions } from './facade/store.js';
export type { UpstreamProvider, UpstreamIdentity, UpstreamTokens } from './facade/upstream.js';
export {
  githubUpstream,
  googleUpstream,
  entraUpstream,
  oidcUpstream,
  type UpstreamClient,
} from './facade/presets.js';
