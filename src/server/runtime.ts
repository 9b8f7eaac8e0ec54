/**
 * The server's face for transports (stdio `connect`, the HTTP endpoint, integrations such
 * as redis fleets) and sibling layers: how a request or notification is handed to a server
 * definition, and the session hooks. Not exported from `mcpkit/server`: authors register
 * features on `McpServer`; transports reach this through {@link runtimeOf}.
 */
export { runtimeOf, startServing } from './server.js';
export type { ServerRuntime } from './server-runtime.js';
export {
  PrincipalBudgets,
  type AdmitOptions,
  type Admitted,
  type QuotaRefusal,
  noRelease,
} from './middleware/quotas.js';
export { principalShare } from './middleware/shares.js';
export { refusedScopes } from './middleware/scopes.js';
export { methodNotFound } from './modern.js';
export { passThrough } from './tool-types.js';
export { type HeaderReader, RequestScope, type ScopeBinding, type ScopeLine, requestOf } from './scope.js';
export { LegacySession, forwardEvent } from './legacy/session.js';
export { resourceUriKey, SubscribedUris } from './resource-uri.js';
export { reportInternalError } from './internal-error.js';
