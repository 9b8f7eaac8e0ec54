/**
 * What a tool is: its definition, schemas and annotations (modern shapes). A leaf, so
 * sampling (client-features.ts) and tool calling (tools.ts) can both name a tool.
 * Source: MCP 2026-07-28 server/tools.
 */
import type { BaseMetadata, Icons, MetaObject } from './base.js';

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
