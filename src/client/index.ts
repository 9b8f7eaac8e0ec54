/**
 * `mcpkit/client`: a client that talks to modern and legacy MCP servers alike and finds out
 * which one it has by itself.
 * Source: 2026-07-28 basic/versioning, basic/transports/stdio "Backward Compatibility".
 */
export { Client, createClient } from './client.js';
export type { ToolCallOptions } from './tools.js';
export { TaskHandle, type TaskReference, type TaskResultOptions } from './tasks.js';
export {
  defineExtension,
  method,
  tasksExtension,
  type ClientExtension,
  type MethodType,
  type MethodsOf,
} from './extension.js';
export type {
  ClientHandlers,
  ClientLimits,
  ClientOptions,
  EraCache,
  EraPreference,
  HandlerContext,
  NotificationContext,
} from './options.js';
export { ListViews, type CachedList, type ListKind, type ListPage } from './lists.js';
export type { ListenOptions } from './listen.js';
export type { Subscription } from './subscription.js';
export { applyElicitationDefaults, type ElicitContent } from './elicitation-defaults.js';
export type { ParamsFor, ResultFor, ResultOf, SharedMethod } from './request-types.js';
export type { RequestOptions, ProgressUpdate } from '../core/index.js';
export type { SubscriptionFilter } from '../core/index.js';
// What `client.listen(listChangedFilter(client.serverCapabilities ?? {}))` follows: every list the server announces.
export { listChangedFilter } from '../core/runtime.js';
export {
  streamableHttp,
  sseTransport,
  type StreamableHttpOptions,
  type SseTransportOptions,
  type HeaderSource,
  type ReconnectOptions,
  type RetryOptions,
  type FetchWrapper,
} from './http/index.js';
export {
  cardDrift,
  cardEndpoint,
  discoverServerCard,
  fetchServerCard,
  serverCardUrl,
  serverCardUrls,
  type CardDrift,
  type FetchedServerCard,
  type FetchServerCardOptions,
  type LiveServer,
} from './server-card.js';
export {
  downloadSkill,
  getSkill,
  listSkills,
  readSkillFile,
  type ListSkillsOptions,
  type SkillFile,
  type SkillListing,
  type SkillReadOptions,
} from './skills.js';
