/**
 * Building blocks shared by every MCP message: JSON values, ids, `_meta` objects,
 * implementation info, icons, annotations and capabilities.
 * Source: MCP 2026-07-28 basic/index; 2025-11-25 basic/lifecycle for the legacy shapes.
 */
import type { RequestId } from '../jsonrpc.js';

export type { RequestId } from '../jsonrpc.js';

/** Any JSON value the schema allows (basic/index "JSONValue"); the schema has no `null`. */
export type JSONValue = string | number | boolean | JSONObject | JSONArray;

/** A JSON object (basic/index "JSONObject"). */
export type JSONObject = { [key: string]: JSONValue };

/** A JSON array (basic/index "JSONArray"). */
export type JSONArray = JSONValue[];

/** A token the requester picks to receive progress notifications for one request (basic/patterns/progress). */
export type ProgressToken = string | number;

/** An opaque pagination position (server/utilities/pagination). */
export type Cursor = string;

/** The sender's role in a conversation (server/prompts, client/sampling). */
export type Role = 'user' | 'assistant';

/** A free-form `_meta` object; reserved keys use the `io.modelcontextprotocol/` prefix (basic/index "_meta"). */
export interface MetaObject {
  [key: string]: unknown;
}

/**
 * The `_meta` every modern request carries: protocol version and client capabilities are
 * required, so each request stands alone (basic/index "_meta", RequestMetaObject).
 */
export interface RequestMetaObject {
  'io.modelcontextprotocol/protocolVersion': string;
  'io.modelcontextprotocol/clientCapabilities': ClientCapabilities;
  'io.modelcontextprotocol/clientInfo'?: Implementation;
  'io.modelcontextprotocol/logLevel'?: LoggingLevel;
  progressToken?: ProgressToken;
  [key: string]: unknown;
}

/** The `_meta` of a modern result; the server may name itself (basic/index, ResultMetaObject). */
export interface ResultMetaObject {
  'io.modelcontextprotocol/serverInfo'?: Implementation;
  [key: string]: unknown;
}

/** The `_meta` of a modern notification; ties it to a listen stream (basic/patterns/subscriptions). */
export interface NotificationMetaObject {
  'io.modelcontextprotocol/subscriptionId'?: RequestId;
  [key: string]: unknown;
}

/** Params of a modern request: `_meta` is required (basic/index "Requests", RequestParams). */
export interface RequestParams {
  _meta: RequestMetaObject;
}

/** Params of a notification (basic/index "Notifications", NotificationParams). */
export interface NotificationParams {
  _meta?: NotificationMetaObject;
}

/**
 * How a modern result is to be read: `"complete"` or `"input_required"`; any other value is
 * invalid for a client, and an absent one (legacy) means complete (basic/index "Result type").
 */
export type ResultType = 'complete' | 'input_required' | (string & {});

/** Base of every modern result; extra fields are allowed (basic/index "Responses", Result). */
export interface Result {
  resultType: ResultType;
  _meta?: ResultMetaObject;
  [key: string]: unknown;
}

/** A result with nothing in it but `resultType` (basic/index, EmptyResult). */
export type EmptyResult = Result;

/** A name with an optional display title (basic/index, BaseMetadata). */
export interface BaseMetadata {
  name: string;
  title?: string;
}

/** One icon: a URI (http(s) or data:) with optional type, sizes and theme (basic/index "Icons"). */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** Something that may be shown with icons (basic/index, Icons). */
export interface Icons {
  icons?: Icon[];
}

/** Name and version of a client or server (basic/index, Implementation). */
export interface Implementation extends BaseMetadata, Icons {
  version: string;
  description?: string;
  websiteUrl?: string;
}

/** Hints about audience, priority (0–1) and last change (ISO 8601) of an object (server/resources "Annotations"). */
export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

/** What a modern client supports, sent in every request's `_meta` (basic/index, ClientCapabilities). */
export interface ClientCapabilities {
  experimental?: { [key: string]: JSONObject };
  extensions?: { [key: string]: JSONObject };
  roots?: JSONObject;
  sampling?: { context?: JSONObject; tools?: JSONObject };
  elicitation?: { form?: JSONObject; url?: JSONObject };
}

/**
 * What a server supports, from `server/discover` (modern) or `initialize` (legacy)
 * (server/discover, ServerCapabilities). `extensions` is modern only.
 */
export interface ServerCapabilities {
  experimental?: { [key: string]: JSONObject };
  extensions?: { [key: string]: JSONObject };
  logging?: JSONObject;
  completions?: JSONObject;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
}

/** Severity of a log message, syslog order (server/utilities/logging, LoggingLevel). */
export type LoggingLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
