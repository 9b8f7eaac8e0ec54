/**
 * Tools: listing and calling (modern shapes); the definition is in tool-definition.ts.
 * Source: MCP 2026-07-28 server/tools.
 */
import type { Result } from './base.js';
import type { ContentBlock } from './content.js';
import type { JSONRPCRequestOf, JSONRPCResultResponseOf } from './envelopes.js';
import type {
  CacheableResult,
  InputRequiredResult,
  InputResponseRequestParams,
  PaginatedRequestParams,
  PaginatedResult,
} from './patterns.js';
import type { Tool } from './tool-definition.js';

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
