/**
 * Method name → params/result maps, so the server and client SDKs can type a request or
 * notification from its method name alone. MRTR-capable methods (see `InputRequiredMethod`)
 * may also answer with an `InputRequiredResult` on the wire; `result` here is the final one.
 * Source: MCP 2026-07-28 schema ClientRequest/ServerNotification; 2025-11-25 schema
 * ClientRequest/ServerRequest/ClientNotification/ServerNotification.
 */
import type { NotificationParams, RequestParams } from './base.js';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
} from './client-features.js';
import type { CompleteRequestParams, CompleteResult } from './completion.js';
import type {
  ElicitationCompleteNotificationParams,
  InitializeRequestParams,
  InitializeResult,
  LegacyCancelledNotificationParams,
  LegacyCreateMessageRequestParams,
  LegacyElicitRequestParams,
  LegacyRequestParams,
  LegacyResult,
  SetLevelRequestParams,
  SubscribeRequestParams,
  UnsubscribeRequestParams,
} from './legacy.js';
import type {
  LegacyCallToolRequestParams,
  LegacyCallToolResult,
  LegacyCompleteRequestParams,
  LegacyCompleteResult,
  LegacyGetPromptRequestParams,
  LegacyGetPromptResult,
  LegacyListPromptsResult,
  LegacyListResourcesResult,
  LegacyListResourceTemplatesResult,
  LegacyListToolsResult,
  LegacyPaginatedRequestParams,
  LegacyReadResourceRequestParams,
  LegacyReadResourceResult,
} from './legacy-features.js';
import type {
  CancelledNotificationParams,
  LoggingMessageNotificationParams,
  ProgressNotificationParams,
  ResourceUpdatedNotificationParams,
} from './notifications.js';
import type {
  DiscoverResult,
  PaginatedRequestParams,
  SubscriptionsAcknowledgedNotificationParams,
  SubscriptionsListenRequestParams,
  SubscriptionsListenResult,
} from './patterns.js';
import type { GetPromptRequestParams, GetPromptResult, ListPromptsResult } from './prompts.js';
import type {
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceRequestParams,
  ReadResourceResult,
} from './resources.js';
import type { CallToolRequestParams, CallToolResult, ListToolsResult } from './tools.js';

/** Modern client→server requests by method (2026-07-28 schema, ClientRequest). */
export interface ClientRequestMap {
  'server/discover': { params: RequestParams; result: DiscoverResult };
  'resources/list': { params: PaginatedRequestParams; result: ListResourcesResult };
  'resources/templates/list': { params: PaginatedRequestParams; result: ListResourceTemplatesResult };
  'resources/read': { params: ReadResourceRequestParams; result: ReadResourceResult };
  'subscriptions/listen': { params: SubscriptionsListenRequestParams; result: SubscriptionsListenResult };
  'prompts/list': { params: PaginatedRequestParams; result: ListPromptsResult };
  'prompts/get': { params: GetPromptRequestParams; result: GetPromptResult };
  'tools/list': { params: PaginatedRequestParams; result: ListToolsResult };
  'tools/call': { params: CallToolRequestParams; result: CallToolResult };
  'completion/complete': { params: CompleteRequestParams; result: CompleteResult };
}

/** Modern methods whose answer may be an `InputRequiredResult` (basic/patterns/mrtr). */
export type InputRequiredMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** Modern input requests a server may put in `inputRequests`, by method (basic/patterns/mrtr, InputRequest). */
export interface InputRequestMap {
  'sampling/createMessage': { params: CreateMessageRequestParams; result: CreateMessageResult };
  'elicitation/create': { params: ElicitRequestParams; result: ElicitResult };
  'roots/list': { params: { _meta?: { [key: string]: unknown } } | undefined; result: ListRootsResult };
}

/** Modern server→client notifications by method, params only (2026-07-28 schema, ServerNotification). */
export interface ServerNotificationMap {
  'notifications/cancelled': CancelledNotificationParams;
  'notifications/progress': ProgressNotificationParams;
  'notifications/message': LoggingMessageNotificationParams;
  'notifications/subscriptions/acknowledged': SubscriptionsAcknowledgedNotificationParams;
  'notifications/resources/updated': ResourceUpdatedNotificationParams;
  'notifications/resources/list_changed': NotificationParams | undefined;
  'notifications/prompts/list_changed': NotificationParams | undefined;
  'notifications/tools/list_changed': NotificationParams | undefined;
}

/** Modern client→server notifications by method (2026-07-28 schema, ClientNotification). */
export interface ClientNotificationMap {
  'notifications/cancelled': CancelledNotificationParams;
}

/** Legacy client→server requests by method; tasks are left out (2025-11-25 schema, ClientRequest). */
export interface LegacyClientRequestMap {
  initialize: { params: InitializeRequestParams; result: InitializeResult };
  ping: { params: LegacyRequestParams | undefined; result: LegacyResult };
  'resources/list': { params: LegacyPaginatedRequestParams | undefined; result: LegacyListResourcesResult };
  'resources/templates/list': {
    params: LegacyPaginatedRequestParams | undefined;
    result: LegacyListResourceTemplatesResult;
  };
  'resources/read': { params: LegacyReadResourceRequestParams; result: LegacyReadResourceResult };
  'resources/subscribe': { params: SubscribeRequestParams; result: LegacyResult };
  'resources/unsubscribe': { params: UnsubscribeRequestParams; result: LegacyResult };
  'prompts/list': { params: LegacyPaginatedRequestParams | undefined; result: LegacyListPromptsResult };
  'prompts/get': { params: LegacyGetPromptRequestParams; result: LegacyGetPromptResult };
  'tools/list': { params: LegacyPaginatedRequestParams | undefined; result: LegacyListToolsResult };
  'tools/call': { params: LegacyCallToolRequestParams; result: LegacyCallToolResult };
  'logging/setLevel': { params: SetLevelRequestParams; result: LegacyResult };
  'completion/complete': { params: LegacyCompleteRequestParams; result: LegacyCompleteResult };
}

/** Legacy server→client requests by method; tasks are left out (2025-11-25 schema, ServerRequest). */
export interface LegacyServerRequestMap {
  ping: { params: LegacyRequestParams | undefined; result: LegacyResult };
  'sampling/createMessage': { params: LegacyCreateMessageRequestParams; result: CreateMessageResult };
  'elicitation/create': { params: LegacyElicitRequestParams; result: ElicitResult };
  'roots/list': { params: LegacyRequestParams | undefined; result: ListRootsResult };
}

/** Legacy server→client notifications by method (2025-11-25 schema, ServerNotification). */
export interface LegacyServerNotificationMap {
  'notifications/cancelled': LegacyCancelledNotificationParams;
  'notifications/progress': ProgressNotificationParams;
  'notifications/message': LoggingMessageNotificationParams;
  'notifications/resources/updated': ResourceUpdatedNotificationParams;
  'notifications/resources/list_changed': NotificationParams | undefined;
  'notifications/prompts/list_changed': NotificationParams | undefined;
  'notifications/tools/list_changed': NotificationParams | undefined;
  'notifications/elicitation/complete': ElicitationCompleteNotificationParams;
}

/** Legacy client→server notifications by method (2025-11-25 schema, ClientNotification). */
export interface LegacyClientNotificationMap {
  'notifications/cancelled': LegacyCancelledNotificationParams;
  'notifications/initialized': NotificationParams | undefined;
  'notifications/progress': ProgressNotificationParams;
  'notifications/roots/list_changed': NotificationParams | undefined;
}
