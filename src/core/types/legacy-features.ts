/**
 * Legacy-era (2025-11-25 and earlier) shapes of the server features: tools, resources,
 * prompts and completion. They differ from the modern ones in optional `_meta`, optional
 * list params, no MRTR fields and results without `resultType` or caching hints.
 * Source: MCP 2025-11-25 server/tools, server/resources, server/prompts,
 * server/utilities/completion, server/utilities/pagination.
 */
import type { Cursor } from './base.js';
import type { CompletionArguments, Completion } from './completion.js';
import type { BlobResourceContents, ContentBlock, Resource, TextResourceContents } from './content.js';
import type { JSONRPCBareRequestOf, JSONRPCRequestOf } from './envelopes.js';
import type { LegacyRequestParams, LegacyResult } from './legacy.js';
import type { Prompt, PromptMessage } from './prompts.js';
import type { ResourceTemplate } from './resources.js';
import type { Tool } from './tool-definition.js';

/** Params of a legacy list request (2025-11-25 server/utilities/pagination, PaginatedRequestParams). */
export interface LegacyPaginatedRequestParams extends LegacyRequestParams {
  cursor?: Cursor;
}

/** A legacy result page (2025-11-25 server/utilities/pagination, PaginatedResult). */
export interface LegacyPaginatedResult extends LegacyResult {
  nextCursor?: Cursor;
}

/** Legacy `tools/list` (2025-11-25 server/tools, ListToolsRequest). */
export type LegacyListToolsRequest = JSONRPCBareRequestOf<'tools/list', LegacyPaginatedRequestParams>;

/** Legacy answer to `tools/list` (2025-11-25 server/tools, ListToolsResult). */
export interface LegacyListToolsResult extends LegacyPaginatedResult {
  tools: Tool[];
}

/** Params of a legacy `tools/call` (2025-11-25 server/tools, CallToolRequestParams). */
export interface LegacyCallToolRequestParams extends LegacyRequestParams {
  name: string;
  arguments?: { [key: string]: unknown };
}

/** Legacy `tools/call` (2025-11-25 server/tools, CallToolRequest). */
export type LegacyCallToolRequest = JSONRPCRequestOf<'tools/call', LegacyCallToolRequestParams>;

/** Legacy answer to `tools/call`; `structuredContent` must be an object (2025-11-25 server/tools, CallToolResult). */
export interface LegacyCallToolResult extends LegacyResult {
  content: ContentBlock[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
}

/** Legacy `resources/list` (2025-11-25 server/resources, ListResourcesRequest). */
export type LegacyListResourcesRequest = JSONRPCBareRequestOf<'resources/list', LegacyPaginatedRequestParams>;

/** Legacy answer to `resources/list` (2025-11-25 server/resources, ListResourcesResult). */
export interface LegacyListResourcesResult extends LegacyPaginatedResult {
  resources: Resource[];
}

/** Legacy `resources/templates/list` (2025-11-25 server/resources, ListResourceTemplatesRequest). */
export type LegacyListResourceTemplatesRequest = JSONRPCBareRequestOf<
  'resources/templates/list',
  LegacyPaginatedRequestParams
>;

/** Legacy answer to `resources/templates/list` (2025-11-25 server/resources, ListResourceTemplatesResult). */
export interface LegacyListResourceTemplatesResult extends LegacyPaginatedResult {
  resourceTemplates: ResourceTemplate[];
}

/** Params of a legacy `resources/read` (2025-11-25 server/resources, ReadResourceRequestParams). */
export interface LegacyReadResourceRequestParams extends LegacyRequestParams {
  uri: string;
}

/** Legacy `resources/read` (2025-11-25 server/resources, ReadResourceRequest). */
export type LegacyReadResourceRequest = JSONRPCRequestOf<'resources/read', LegacyReadResourceRequestParams>;

/** Legacy answer to `resources/read` (2025-11-25 server/resources, ReadResourceResult). */
export interface LegacyReadResourceResult extends LegacyResult {
  contents: (TextResourceContents | BlobResourceContents)[];
}

/** Legacy `prompts/list` (2025-11-25 server/prompts, ListPromptsRequest). */
export type LegacyListPromptsRequest = JSONRPCBareRequestOf<'prompts/list', LegacyPaginatedRequestParams>;

/** Legacy answer to `prompts/list` (2025-11-25 server/prompts, ListPromptsResult). */
export interface LegacyListPromptsResult extends LegacyPaginatedResult {
  prompts: Prompt[];
}

/** Params of a legacy `prompts/get` (2025-11-25 server/prompts, GetPromptRequestParams). */
export interface LegacyGetPromptRequestParams extends LegacyRequestParams {
  name: string;
  arguments?: { [key: string]: string };
}

/** Legacy `prompts/get` (2025-11-25 server/prompts, GetPromptRequest). */
export type LegacyGetPromptRequest = JSONRPCRequestOf<'prompts/get', LegacyGetPromptRequestParams>;

/** Legacy answer to `prompts/get` (2025-11-25 server/prompts, GetPromptResult). */
export interface LegacyGetPromptResult extends LegacyResult {
  description?: string;
  messages: PromptMessage[];
}

/** Params of a legacy `completion/complete` (2025-11-25 server/utilities/completion, CompleteRequestParams). */
export interface LegacyCompleteRequestParams extends LegacyRequestParams, CompletionArguments {}

/** Legacy `completion/complete` (2025-11-25 server/utilities/completion, CompleteRequest). */
export type LegacyCompleteRequest = JSONRPCRequestOf<'completion/complete', LegacyCompleteRequestParams>;

/** Legacy answer to `completion/complete` (2025-11-25 server/utilities/completion, CompleteResult). */
export interface LegacyCompleteResult extends LegacyResult {
  completion: Completion;
}
