/**
 * Tools: definitions, listing and calling (modern shapes).
 * Source: MCP 2026-07-28 server/tools.
 */
import type { BaseMetadata, Icons, MetaObject, Result } from './base.js';
import type { ContentBlock } from './content.js';
import type { JSONRPCRequestOf, JSONRPCResultResponseOf } from './envelopes.js';
import type {
  CacheableResult,
  InputRequiredResult,
  InputResponseRequestParams,
  PaginatedRequestParams,
  PaginatedResult,
} from './patterns.js';

/**
 * Hints about a tool's behaviour; clients must not trust them from untrusted servers
 * (server/tools "Tool annotations", ToolAnnotations).
 */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** The JSON Schema of a tool's arguments; always an object schema (server/tools "Input schema"). */
export interface ToolInputSchema {
  type: 'object';
  $schema?: string;
  properties?: { [key: string]: unknown };
  required?: string[];
  [key: string]: unknown;
}

/** The JSON Schema of a tool's `structuredContent`; any schema (server/tools "Output schema"). */
export interface ToolOutputSchema {
  $schema?: string;
  [key: string]: unknown;
}

/** A tool the server offers (server/tools "Tool definition", Tool). */
export interface Tool extends BaseMetadata, Icons {
  description?: string;
  inputSchema: ToolInputSchema;
  outputSchema?: ToolOutputSchema;
  annotations?: ToolAnnotations;
  _meta?: MetaObject;
}

/** `tools/list` (server/tools "Listing tools", ListToolsRequest). */
export type ListToolsRequest = JSONRPCRequestOf<'tools/list', PaginatedRequestParams>;

/** The answer to `tools/list` (server/tools "Listing tools", ListToolsResult). */
export interface ListToolsResult extends CacheableResult, PaginatedResult {
  resultType: 'complete';
  tools: Tool[];
}

/** `tools/list` response envelope (server/tools, ListToolsResultResponse). */
export type ListToolsResultResponse = JSONRPCResultResponseOf<ListToolsResult>;

/**
 * Params of `tools/call`; on an MRTR retry they also carry `inputResponses` and the
 * `requestState` echoed back (server/tools "Calling tools", CallToolRequestParams).
 */
export interface CallToolRequestParams extends InputResponseRequestParams {
  name: string;
  arguments?: { [key: string]: unknown };
}

/** `tools/call` (server/tools "Calling tools", CallToolRequest). */
export type CallToolRequest = JSONRPCRequestOf<'tools/call', CallToolRequestParams>;

/**
 * The final answer to `tools/call`. `isError` marks a tool-level failure reported to the
 * model; `structuredContent` matches `outputSchema` (server/tools "Tool result", CallToolResult).
 */
export interface CallToolResult extends Result {
  resultType: 'complete';
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** `tools/call` response envelope: final or input_required (server/tools, CallToolResultResponse). */
export type CallToolResultResponse = JSONRPCResultResponseOf<InputRequiredResult | CallToolResult>;
