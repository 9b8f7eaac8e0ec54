/**
 * The core's face for mcpkit's own layers (server, client, stdio, redis, auth, host), not
 * exported from the package. Applications use `mcpkit` (core/index.ts) instead; the CLI
 * uses public entries only. Grouped by concern, one export line per module, sorted within.
 */

// The JSON-RPC envelope, framing and request correlation.
export { afterMicrotasks } from './frame-queue.js';
export { DEFAULT_MAX_JSON_DEPTH, nestedDeeperThan, valueDeeperThan } from './json-limits.js';
export {
  type Checked,
  type Decoded,
  checkEnvelope,
  decodeFrame,
  errorResponse,
  isObject,
  isRequestId,
  resultResponse,
} from './jsonrpc.js';
export { LineDecoder, type LineEvent, encodeFrame } from './line-framing.js';
export { Peer, type IncomingContext, type PeerHandlers, type PeerOptions } from './peer.js';

// Errors, revisions and eras.
export { type EraMessage, eraOf, revisionOf } from './era.js';
export {
  MODERN_ERROR_CODES,
  isServerErrorCode,
  missingCapabilityError,
  missingMetaError,
  unsupportedVersionError,
} from './errors.js';
export { isLevelEnabled, negotiateLegacyRevision } from './revisions.js';

// Capabilities, extensions, names and the spec's wire rules.
export {
  type CapabilityNeed,
  clientCapabilityNeeded,
  declares,
  missingCapabilities,
  serverCapabilityNeeded,
} from './capabilities.js';
export { extensionDefinitionProblem, isCoreMethod } from './extensions.js';
export {
  URI_SEPARATOR,
  isQualifiedNameValid,
  qualifyName,
  qualifyUri,
  unqualifyUri,
  uriPrefix,
} from './namespace.js';
export {
  type HeaderAnnotation,
  type ToolHeaderCheck,
  allowsBatch,
  checkToolHeaders,
  decodeHeaderValue,
  encodeHeaderValue,
  headerMatches,
  headerValueOf,
  isHeaderToken,
  mcpNameOf,
  metaOf,
  valueAtPath,
} from './wire.js';

// Events, list changes and tasks.
export { EVENT_METHOD } from './event-bus.js';
export {
  LIST_CHANGED,
  LIST_FEATURES,
  type ListFeature,
  listChangedFeature,
  listChangedFilter,
} from './list-changed.js';
export { addInputRequest, settle, storedTasksRefusal } from './tasks.js';
export { userStateRefusal } from './user-state.js';
export {
  CACHEABLE_METHODS,
  INPUT_METHODS,
  MODERN_CORE_METHODS,
  TASK_METHODS,
  type MethodFacts,
  methodFacts,
} from './methods.js';
export { SCHEMA_MAP_KEYWORDS } from './schema-keywords.js';

// Principals, state and limits.
export { LOOPBACK_HOSTS, isLoopbackHost } from './loopback.js';
export { neverAborted, nextCalledTwice } from './middleware.js';
export { loadOptional } from './optional.js';
export { ownEntry, setOwn } from './own-keys.js';
export { principalKey, principalOf } from './principal.js';
export { rateBudget } from './rate.js';
export {
  type RequestStateSealer,
  type SealerOptions,
  type StateBinding,
  type StateKey,
  createStateSealer,
  DEFAULT_MAX_STATE_CHARS,
  digestParams,
  generateStateKey,
} from './request-state.js';

// Time and fetching with a deadline.
export { type Deadline, bufferedResponse, fetchWhole, shownUrl, withDeadline } from './deadline.js';
export { MAX_TIMER_MS, setTimer, sleep, timerDelay } from './timer.js';

// The sync-or-async step of the per-request paths.
export { thenOrNow } from './then-or-now.js';
