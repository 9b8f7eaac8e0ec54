/**
 * `mcpkit`: the protocol core — message types of every revision we speak, the error
 * table, revisions and `_meta` keys, the JSON-RPC envelope and the transport seam. No I/O.
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
export {
  DIRECTORY_MIME_TYPE,
  SKILLS_EXTENSION,
  SKILL_LIMITS,
  frontmatterBlock,
  isSkillName,
  skillDigest,
  unsafeSkillPath,
} from './skills.js';
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
  SERVER_CARD_JSON_SCHEMA,
  SERVER_CARD_MEDIA_TYPE,
  SERVER_CARD_NAME_PATTERN,
  SERVER_CARD_PATH,
  SERVER_CARD_SCHEMA_URL,
  SERVER_CARD_WELL_KNOWN_PATH,
  type CardHeader,
  type CardInput,
  type CardRemote,
  type CardRepository,
  type ServerCard,
} from './server-card.js';
export {
  APP_MIME_TYPE,
  APP_PROTOCOL_VERSION,
  FLAT_RESOURCE_URI_KEY,
  UI_EXTENSION,
  appAllowAttribute,
  appCspHeader,
  negotiatesUi,
  toolUiOf,
  uiClientExtension,
  type AppCsp,
  type AppPermissions,
  type AppResourceUi,
  type AppVisibility,
  type ToolUi,
} from './apps.js';
