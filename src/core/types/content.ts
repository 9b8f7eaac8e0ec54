/**
 * Content carried by tool results, prompt messages, resources and sampling messages.
 * Source: MCP 2026-07-28 server/tools "Tool result", server/resources, client/sampling.
 */
import type { Annotations, BaseMetadata, Icons, MetaObject } from './base.js';

/** Plain text content (server/tools "Text content", TextContent). */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: MetaObject;
}

/** Base64-encoded image content (server/tools "Image content", ImageContent). */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: MetaObject;
}

/** Base64-encoded audio content (server/tools "Audio content", AudioContent). */
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: MetaObject;
}

/** Fields every resource contents object has (server/resources "Resource contents", ResourceContents). */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  _meta?: MetaObject;
}

/** Text contents of a resource (server/resources "Text content", TextResourceContents). */
export interface TextResourceContents extends ResourceContents {
  text: string;
}

/** Base64 binary contents of a resource (server/resources "Binary content", BlobResourceContents). */
export interface BlobResourceContents extends ResourceContents {
  blob: string;
}

/**
 * A resource the server knows about, readable with `resources/read`; `size` is in bytes
 * (server/resources, Resource).
 */
export interface Resource extends BaseMetadata, Icons {
  uri: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  _meta?: MetaObject;
}

/** A link to a resource inside content; it need not appear in `resources/list` (server/tools "Resource links", ResourceLink). */
export interface ResourceLink extends Resource {
  type: 'resource_link';
}

/** A resource's contents embedded in content (server/tools "Embedded resources", EmbeddedResource). */
export interface EmbeddedResource {
  type: 'resource';
  resource: TextResourceContents | BlobResourceContents;
  annotations?: Annotations;
  _meta?: MetaObject;
}

/** Any content block of a tool result or prompt message (server/tools "Tool result", ContentBlock). */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** The model asks to call a tool during sampling (client/sampling "Tool use", ToolUseContent). */
export interface ToolUseContent {
  type: 'tool_use';
  id: string;
  name: string;
  input: { [key: string]: unknown };
  _meta?: MetaObject;
}

/**
 * The outcome of a tool call fed back to the model; `toolUseId` matches a ToolUseContent `id`
 * (client/sampling "Tool use", ToolResultContent).
 */
export interface ToolResultContent {
  type: 'tool_result';
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: MetaObject;
}

/** A content block allowed in a sampling message (client/sampling, SamplingMessageContentBlock). */
export type SamplingMessageContentBlock =
  TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;
