/**
 * Resources: listing, templates and reading (modern shapes).
 * Source: MCP 2026-07-28 server/resources.
 */
import type { Annotations, BaseMetadata, Icons, MetaObject, RequestParams } from './base.js';
import type { BlobResourceContents, Resource, TextResourceContents } from './content.js';
import type { JSONRPCRequestOf, JSONRPCResultResponseOf } from './envelopes.js';
import type {
  CacheableResult,
  InputRequiredResult,
  InputResponseRequestParams,
  PaginatedRequestParams,
  PaginatedResult,
} from './patterns.js';

/** A family of resources named by an RFC 6570 URI template (server/resources "Resource templates", ResourceTemplate). */
export interface ResourceTemplate extends BaseMetadata, Icons {
  uriTemplate: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  _meta?: MetaObject;
}

/** Params naming one resource by URI (server/resources, ResourceRequestParams). */
export interface ResourceRequestParams extends RequestParams {
  uri: string;
}

/** `resources/list` (server/resources "Listing resources", ListResourcesRequest). */
export type ListResourcesRequest = JSONRPCRequestOf<'resources/list', PaginatedRequestParams>;

/** The answer to `resources/list` (server/resources "Listing resources", ListResourcesResult). */
export interface ListResourcesResult extends CacheableResult, PaginatedResult {
  resultType: 'complete';
  resources: Resource[];
}

/** `resources/list` response envelope (server/resources, ListResourcesResultResponse). */
export type ListResourcesResultResponse = JSONRPCResultResponseOf<ListResourcesResult>;

/** `resources/templates/list` (server/resources "Resource templates", ListResourceTemplatesRequest). */
export type ListResourceTemplatesRequest = JSONRPCRequestOf<
  'resources/templates/list',
  PaginatedRequestParams
>;

/** The answer to `resources/templates/list` (server/resources, ListResourceTemplatesResult). */
export interface ListResourceTemplatesResult extends CacheableResult, PaginatedResult {
  resultType: 'complete';
  resourceTemplates: ResourceTemplate[];
}

/** `resources/templates/list` response envelope (server/resources, ListResourceTemplatesResultResponse). */
export type ListResourceTemplatesResultResponse = JSONRPCResultResponseOf<ListResourceTemplatesResult>;

/** Params of `resources/read`, MRTR fields included (server/resources "Reading resources", ReadResourceRequestParams). */
export interface ReadResourceRequestParams extends InputResponseRequestParams {
  uri: string;
}

/** `resources/read` (server/resources "Reading resources", ReadResourceRequest). */
export type ReadResourceRequest = JSONRPCRequestOf<'resources/read', ReadResourceRequestParams>;

/** The final answer to `resources/read` (server/resources "Reading resources", ReadResourceResult). */
export interface ReadResourceResult extends CacheableResult {
  resultType: 'complete';
  contents: (TextResourceContents | BlobResourceContents)[];
}

/** `resources/read` response envelope: final or input_required (server/resources, ReadResourceResultResponse). */
export type ReadResourceResultResponse = JSONRPCResultResponseOf<InputRequiredResult | ReadResourceResult>;
