/**
 * Cross-cutting modern patterns: discovery, multi round-trip requests (MRTR), caching hints,
 * pagination and subscriptions.
 * Source: MCP 2026-07-28 server/discover, basic/patterns/mrtr, server/utilities/caching,
 * server/utilities/pagination, basic/patterns/subscriptions.
 */
import type {
  Cursor,
  NotificationParams,
  RequestId,
  RequestParams,
  Result,
  ResultMetaObject,
  ServerCapabilities,
} from './base.js';
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  ListRootsRequest,
  ListRootsResult,
} from './client-features.js';
import type { JSONRPCNotificationOf, JSONRPCRequestOf, JSONRPCResultResponseOf } from './envelopes.js';

/**
 * Caching hints on a complete result: `ttlMs` is milliseconds the result may be reused,
 * `cacheScope` whether shared caches may keep it (server/utilities/caching, CacheableResult).
 */
export interface CacheableResult extends Result {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/** Params of a list request (server/utilities/pagination, PaginatedRequestParams). */
export interface PaginatedRequestParams extends RequestParams {
  cursor?: Cursor;
}

/** A result page; no `nextCursor` means the last page (server/utilities/pagination, PaginatedResult). */
export interface PaginatedResult extends Result {
  nextCursor?: Cursor;
}

/** `server/discover`: what versions and capabilities the server has (server/discover, DiscoverRequest). */
export type DiscoverRequest = JSONRPCRequestOf<'server/discover', RequestParams>;

/** The answer to `server/discover` (server/discover, DiscoverResult). */
export interface DiscoverResult extends CacheableResult {
  resultType: 'complete';
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
}

/** `server/discover` response envelope (server/discover, DiscoverResultResponse). */
export type DiscoverResultResponse = JSONRPCResultResponseOf<DiscoverResult>;

/** A request the server needs the client to answer before it can finish (basic/patterns/mrtr, InputRequest). */
export type InputRequest = CreateMessageRequest | ListRootsRequest | ElicitRequest;

/** Pending input requests keyed by server-chosen names (basic/patterns/mrtr, InputRequests). */
export interface InputRequests {
  [key: string]: InputRequest;
}

/** The client's answer to one input request (basic/patterns/mrtr, InputResponse). */
export type InputResponse = CreateMessageResult | ListRootsResult | ElicitResult;

/** Answers keyed by the names used in `inputRequests` (basic/patterns/mrtr, InputResponses). */
export interface InputResponses {
  [key: string]: InputResponse;
}

/**
 * Params of a request that can be retried under MRTR: the answers so far and the opaque
 * `requestState` echoed back unchanged (basic/patterns/mrtr, InputResponseRequestParams).
 */
export interface InputResponseRequestParams extends RequestParams {
  inputResponses?: InputResponses;
  requestState?: string;
}

/**
 * An interim result: the server needs `inputRequests` answered, and the client retries with
 * `inputResponses` and `requestState` (basic/patterns/mrtr, InputRequiredResult).
 */
export interface InputRequiredResult extends Result {
  resultType: 'input_required';
  inputRequests?: InputRequests;
  requestState?: string;
}

/**
 * Which notifications a listen stream carries; `resourceSubscriptions` lists resource URIs
 * (basic/patterns/subscriptions, SubscriptionFilter).
 */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** Tasks extension (SEP-2663 "Task Status Notifications"): tasks to get `notifications/tasks` for. */
  taskIds?: string[];
}

/** Params of `subscriptions/listen` (basic/patterns/subscriptions, SubscriptionsListenRequestParams). */
export interface SubscriptionsListenRequestParams extends RequestParams {
  notifications: SubscriptionFilter;
}

/** `subscriptions/listen`: opens a notification stream (basic/patterns/subscriptions, SubscriptionsListenRequest). */
export type SubscriptionsListenRequest = JSONRPCRequestOf<
  'subscriptions/listen',
  SubscriptionsListenRequestParams
>;

/** `_meta` of the listen result, naming the stream (basic/patterns/subscriptions, SubscriptionsListenResultMetaObject). */
export interface SubscriptionsListenResultMetaObject extends ResultMetaObject {
  'io.modelcontextprotocol/subscriptionId': RequestId;
}

/** Sent when a listen stream ends (basic/patterns/subscriptions, SubscriptionsListenResult). */
export interface SubscriptionsListenResult extends Result {
  resultType: 'complete';
  _meta: SubscriptionsListenResultMetaObject;
}

/** `subscriptions/listen` response envelope (basic/patterns/subscriptions, SubscriptionsListenResultResponse). */
export type SubscriptionsListenResultResponse = JSONRPCResultResponseOf<SubscriptionsListenResult>;

/** What the server agreed to send on the stream (basic/patterns/subscriptions, SubscriptionsAcknowledgedNotificationParams). */
export interface SubscriptionsAcknowledgedNotificationParams extends NotificationParams {
  notifications: SubscriptionFilter;
}

/** First message on a listen stream (basic/patterns/subscriptions, SubscriptionsAcknowledgedNotification). */
export type SubscriptionsAcknowledgedNotification = JSONRPCNotificationOf<
  'notifications/subscriptions/acknowledged',
  SubscriptionsAcknowledgedNotificationParams
>;
