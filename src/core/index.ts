/**
 * `mcpkit`: the protocol core — message types of every revision we speak, the error
 * table, revisions and `_meta` keys, the JSON-RPC envelope and the transport seam. No I/O.
 * The extensions' own definitions have subpaths of their own: `mcpkit/apps`,
 * `mcpkit/skills` and `mcpkit/server-card`.
 */
export type * from './types/index.js';
export {
  ERROR_TABLE,
  WireError,
  LocalError,
  errorNameOf,
  httpStatusOf,
  type ErrorName,
  type ErrorObject,
  type LocalErrorCode,
} from './errors.js';
export {
  LATEST_LEGACY_REVISION,
  LATEST_REVISION,
  LEGACY_REVISIONS,
  LOGGING_LEVELS,
  META,
  MODERN_REVISIONS,
  isLegacyRevision,
  isModernRevision,
  type Era,
  type LegacyRevision,
  type ModernRevision,
} from './revisions.js';
export {
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcResultResponse,
  type Params,
} from './jsonrpc.js';
export type { ProgressUpdate, RequestOptions } from './peer.js';
export type { SendOptions, Transport, TransportSink } from './transport.js';
export {
  composeMiddleware,
  type AuthInfo,
  type McpMessage,
  type MessageHandler,
  type Middleware,
  type MiddlewareContext,
} from './middleware.js';
export {
  extensionSettings,
  isExtensionIdentifier,
  type ExtensionStage,
  type ExtensionMethodTypes,
  type ExtensionRequestMap,
} from './extensions.js';
export { createMemoryEventBus, type EventBus, type ServerEvent } from './event-bus.js';
export {
  TASKS_EXTENSION,
  applyResponses,
  createTaskResult,
  detailedTask,
  expiresAt,
  isTerminalStatus,
  type TaskBookkeeping,
  type TaskInputRequest,
  type TaskSignal,
  type TaskState,
  type TaskStatus,
  type TaskStore,
  type TaskView,
  type UpdateTaskParams,
} from './tasks.js';
export { createMemoryTaskStore, type MemoryTaskStoreOptions } from './task-store.js';
export {
  createMemoryUserStateStore,
  type MemoryUserStateStoreOptions,
  type UserStateRefusal,
  type UserStateStore,
  type UserStateWrite,
} from './user-state.js';
