/**
 * Notifications shared by both eras: progress, cancellation, logging, list changes and
 * resource updates.
 * Source: MCP 2026-07-28 basic/patterns/progress, basic/patterns/cancellation,
 * server/utilities/logging, server/tools, server/prompts, server/resources.
 */
import type { LoggingLevel, NotificationParams, ProgressToken, RequestId } from './base.js';
import type { JSONRPCBareNotificationOf, JSONRPCNotificationOf } from './envelopes.js';

/**
 * Progress on a request; `progress` only grows, `total` may be unknown
 * (basic/patterns/progress, ProgressNotificationParams).
 */
export interface ProgressNotificationParams extends NotificationParams {
  progressToken: ProgressToken;
  progress: number;
  total?: number;
  message?: string;
}

/** `notifications/progress` (basic/patterns/progress, ProgressNotification). */
export type ProgressNotification = JSONRPCNotificationOf<
  'notifications/progress',
  ProgressNotificationParams
>;

/** Which request to abandon and why (basic/patterns/cancellation, CancelledNotificationParams). */
export interface CancelledNotificationParams extends NotificationParams {
  requestId: RequestId;
  reason?: string;
}

/** `notifications/cancelled` (basic/patterns/cancellation, CancelledNotification). */
export type CancelledNotification = JSONRPCNotificationOf<
  'notifications/cancelled',
  CancelledNotificationParams
>;

/** One log entry; `data` is any JSON (server/utilities/logging, LoggingMessageNotificationParams). */
export interface LoggingMessageNotificationParams extends NotificationParams {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

/** `notifications/message` (server/utilities/logging, LoggingMessageNotification). */
export type LoggingMessageNotification = JSONRPCNotificationOf<
  'notifications/message',
  LoggingMessageNotificationParams
>;

/** `notifications/tools/list_changed` (server/tools "List changed notification", ToolListChangedNotification). */
export type ToolListChangedNotification = JSONRPCBareNotificationOf<
  'notifications/tools/list_changed',
  NotificationParams
>;

/** `notifications/prompts/list_changed` (server/prompts "List changed notification", PromptListChangedNotification). */
export type PromptListChangedNotification = JSONRPCBareNotificationOf<
  'notifications/prompts/list_changed',
  NotificationParams
>;

/** `notifications/resources/list_changed` (server/resources "List changed notification", ResourceListChangedNotification). */
export type ResourceListChangedNotification = JSONRPCBareNotificationOf<
  'notifications/resources/list_changed',
  NotificationParams
>;

/** Which subscribed resource changed (server/resources "Subscriptions", ResourceUpdatedNotificationParams). */
export interface ResourceUpdatedNotificationParams extends NotificationParams {
  uri: string;
}

/** `notifications/resources/updated` (server/resources "Subscriptions", ResourceUpdatedNotification). */
export type ResourceUpdatedNotification = JSONRPCNotificationOf<
  'notifications/resources/updated',
  ResourceUpdatedNotificationParams
>;
