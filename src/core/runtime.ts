/**
 * The core's face for mcpkit's own layers (server, client, stdio, redis, auth), not exported
 * from the package: request correlation over a transport, timers for any duration, and the
 * loopback host list. Applications use `mcpkit` (core/index.ts) instead.
 */
export { Peer, type IncomingContext, type PeerHandlers, type PeerOptions } from './peer.js';
export { setTimer, timerDelay } from './timer.js';
export { type Deadline, bufferedResponse, fetchWhole, shownUrl, withDeadline } from './deadline.js';
export { LOOPBACK_HOSTS, isLoopbackHost } from './loopback.js';
export { type EraMessage, eraOf, revisionOf } from './era.js';
export { isServerErrorCode } from './errors.js';
export { EVENT_METHOD } from './event-bus.js';
export { afterMicrotasks } from './frame-queue.js';
export { neverAborted } from './middleware.js';
export { DEFAULT_MAX_JSON_DEPTH, nestedDeeperThan, valueDeeperThan } from './json-limits.js';
export { type Checked, type Decoded, isObject } from './jsonrpc.js';
export { LineDecoder, type LineEvent, encodeFrame } from './line-framing.js';
export { LIST_CHANGED, LIST_FEATURES, type ListFeature, listChangedFeature } from './list-changed.js';
export { ownEntry, setOwn } from './own-keys.js';
export { principalKey, principalOf } from './principal.js';
export { rateBudget } from './rate.js';
export {
  type RequestStateSealer,
  type SealerOptions,
  type StateBinding,
  type StateKey,
  createStateSealer,
  digestParams,
  generateStateKey,
} from './request-state.js';
export { isLevelEnabled } from './revisions.js';
export { addInputRequest, settle } from './tasks.js';
export { MAX_TIMER_MS } from './timer.js';
export { allowsBatch, headerMatches, headerValueOf, mcpNameOf, metaOf, valueAtPath } from './wire.js';
export {
  MODERN_ERROR_CODES,
  missingCapabilityError,
  missingMetaError,
  unsupportedVersionError,
} from './errors.js';
export { negotiateLegacyRevision } from './revisions.js';
export { checkEnvelope, decodeFrame, errorResponse, isRequestId, resultResponse } from './jsonrpc.js';
export { listChangedFilter } from './list-changed.js';
export {
  checkToolHeaders,
  decodeHeaderValue,
  encodeHeaderValue,
  type HeaderAnnotation,
  type ToolHeaderCheck,
} from './wire.js';
export {
  type CapabilityNeed,
  clientCapabilityNeeded,
  declares,
  missingCapabilities,
  serverCapabilityNeeded,
} from './capabilities.js';
export {
  URI_SEPARATOR,
  isQualifiedNameValid,
  qualifyName,
  qualifyUri,
  unqualifyUri,
  uriPrefix,
} from './namespace.js';
export { extensionDefinitionProblem, isCoreMethod } from './extensions.js';
