/**
 * Legacy-era (2025-11-25 and earlier) messages: the `initialize` handshake, ping, logging
 * level, resource subscriptions and the server-initiated requests, plus the base shapes that
 * differ from the modern ones (optional `_meta`, results without `resultType`).
 * Source: MCP 2025-11-25 basic/lifecycle, basic/utilities/ping, server/utilities/logging,
 * server/resources, client/roots, client/sampling, client/elicitation.
 */
import type {
  ClientCapabilities,
  Implementation,
  LoggingLevel,
  MetaObject,
  NotificationParams,
  ProgressToken,
  RequestId,
  ServerCapabilities,
} from './base.js';
import type {
  CreateMessageRequestParams,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
} from './client-features.js';
import type {
  ErrorObject,
  JSONRPCBareNotificationOf,
  JSONRPCBareRequestOf,
  JSONRPCErrorResponseOf,
  JSONRPCNotificationOf,
  JSONRPCRequestOf,
} from './envelopes.js';

/** `_meta` of a legacy request: only `progressToken` is reserved (2025-11-25 basic/index "_meta"). */
export interface LegacyRequestMetaObject {
  progressToken?: ProgressToken;
  [key: string]: unknown;
}

/** Params of a legacy request; `_meta` is optional (2025-11-25 basic/index, RequestParams). */
export interface LegacyRequestParams {
  _meta?: LegacyRequestMetaObject;
}

/** Base of every legacy result: no `resultType`, which clients read as complete (2025-11-25 basic/index, Result). */
export interface LegacyResult {
  _meta?: MetaObject;
  [key: string]: unknown;
}

/** What a legacy client supports, sent once in `initialize` (2025-11-25 basic/lifecycle, ClientCapabilities). */
export interface LegacyClientCapabilities extends Omit<ClientCapabilities, 'roots'> {
  roots?: { listChanged?: boolean };
}

/** Params of `initialize` (2025-11-25 basic/lifecycle "Initialization", InitializeRequestParams). */
export interface InitializeRequestParams extends LegacyRequestParams {
  protocolVersion: string;
  capabilities: LegacyClientCapabilities;
  clientInfo: Implementation;
}

/** `initialize`: opens a legacy session (2025-11-25 basic/lifecycle "Initialization", InitializeRequest). */
export type InitializeRequest = JSONRPCRequestOf<'initialize', InitializeRequestParams>;

/** The server's half of the handshake (2025-11-25 basic/lifecycle "Initialization", InitializeResult). */
export interface InitializeResult extends LegacyResult {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
}

/** `notifications/initialized`: the client is ready (2025-11-25 basic/lifecycle, InitializedNotification). */
export type InitializedNotification = JSONRPCBareNotificationOf<
  'notifications/initialized',
  NotificationParams
>;

/** `ping`, sent by either side; answered with an empty result (2025-11-25 basic/utilities/ping, PingRequest). */
export type PingRequest = JSONRPCBareRequestOf<'ping', LegacyRequestParams>;

/** Params of `logging/setLevel` (2025-11-25 server/utilities/logging, SetLevelRequestParams). */
export interface SetLevelRequestParams extends LegacyRequestParams {
  level: LoggingLevel;
}

/** `logging/setLevel` (2025-11-25 server/utilities/logging, SetLevelRequest). */
export type SetLevelRequest = JSONRPCRequestOf<'logging/setLevel', SetLevelRequestParams>;

/** Params of `resources/subscribe` (2025-11-25 server/resources "Subscriptions", SubscribeRequestParams). */
export interface SubscribeRequestParams extends LegacyRequestParams {
  uri: string;
}

/** `resources/subscribe` (2025-11-25 server/resources "Subscriptions", SubscribeRequest). */
export type SubscribeRequest = JSONRPCRequestOf<'resources/subscribe', SubscribeRequestParams>;

/** Params of `resources/unsubscribe` (2025-11-25 server/resources, UnsubscribeRequestParams). */
export interface UnsubscribeRequestParams extends LegacyRequestParams {
  uri: string;
}

/** `resources/unsubscribe` (2025-11-25 server/resources, UnsubscribeRequest). */
export type UnsubscribeRequest = JSONRPCRequestOf<'resources/unsubscribe', UnsubscribeRequestParams>;

/** Legacy cancellation: `requestId` may be absent (2025-11-25 basic/utilities/cancellation, CancelledNotificationParams). */
export interface LegacyCancelledNotificationParams extends NotificationParams {
  requestId?: RequestId;
  reason?: string;
}

/** Legacy `notifications/cancelled` (2025-11-25 basic/utilities/cancellation, CancelledNotification). */
export type LegacyCancelledNotification = JSONRPCNotificationOf<
  'notifications/cancelled',
  LegacyCancelledNotificationParams
>;

/** `notifications/roots/list_changed` (2025-11-25 client/roots, RootsListChangedNotification). */
export type RootsListChangedNotification = JSONRPCBareNotificationOf<
  'notifications/roots/list_changed',
  NotificationParams
>;

/** Params of `notifications/elicitation/complete` (2025-11-25 client/elicitation "URL mode"). */
export interface ElicitationCompleteNotificationParams {
  elicitationId: string;
}

/** A URL-mode elicitation finished (2025-11-25 client/elicitation "URL mode", ElicitationCompleteNotification). */
export type ElicitationCompleteNotification = JSONRPCNotificationOf<
  'notifications/elicitation/complete',
  ElicitationCompleteNotificationParams
>;

/** Params of a legacy `sampling/createMessage` (2025-11-25 client/sampling, CreateMessageRequestParams). */
export interface LegacyCreateMessageRequestParams extends CreateMessageRequestParams {
  _meta?: LegacyRequestMetaObject;
}

/** Server-initiated `sampling/createMessage` (2025-11-25 client/sampling, CreateMessageRequest). */
export type LegacyCreateMessageRequest = JSONRPCRequestOf<
  'sampling/createMessage',
  LegacyCreateMessageRequestParams
>;

/** Legacy form-mode elicitation params (2025-11-25 client/elicitation "Form mode", ElicitRequestFormParams). */
export interface LegacyElicitRequestFormParams extends ElicitRequestFormParams {
  _meta?: LegacyRequestMetaObject;
}

/**
 * Legacy URL-mode elicitation params; `elicitationId` ties the later completion notification
 * (2025-11-25 client/elicitation "URL mode", ElicitRequestURLParams).
 */
export interface LegacyElicitRequestURLParams extends ElicitRequestURLParams {
  elicitationId: string;
  _meta?: LegacyRequestMetaObject;
}

/** Params of a legacy `elicitation/create` (2025-11-25 client/elicitation, ElicitRequestParams). */
export type LegacyElicitRequestParams = LegacyElicitRequestFormParams | LegacyElicitRequestURLParams;

/** Server-initiated `elicitation/create` (2025-11-25 client/elicitation, ElicitRequest). */
export type LegacyElicitRequest = JSONRPCRequestOf<'elicitation/create', LegacyElicitRequestParams>;

/** Server-initiated `roots/list` (2025-11-25 client/roots, ListRootsRequest). */
export type LegacyListRootsRequest = JSONRPCBareRequestOf<'roots/list', LegacyRequestParams>;

/**
 * The request needs URL-mode elicitations done first (2025-11-25 client/elicitation
 * "URL elicitation required error", URLElicitationRequiredError, -32042).
 */
export type URLElicitationRequiredError = JSONRPCErrorResponseOf<
  ErrorObject & {
    code: -32042;
    data: { elicitations: LegacyElicitRequestURLParams[]; [key: string]: unknown };
  }
>;
