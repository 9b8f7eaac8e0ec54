/**
 * Prompts: listing and getting (modern shapes).
 * Source: MCP 2026-07-28 server/prompts.
 */
import type { BaseMetadata, Icons, MetaObject, Result, Role } from './base.js';
import type { ContentBlock } from './content.js';
import type { JSONRPCRequestOf, JSONRPCResultResponseOf } from './envelopes.js';
import type {
  CacheableResult,
  InputRequiredResult,
  InputResponseRequestParams,
  PaginatedRequestParams,
  PaginatedResult,
} from './patterns.js';

/** One argument a prompt accepts (server/prompts, PromptArgument). */
export interface PromptArgument extends BaseMetadata {
  description?: string;
  required?: boolean;
}

/** A prompt or prompt template the server offers (server/prompts, Prompt). */
export interface Prompt extends BaseMetadata, Icons {
  description?: string;
  arguments?: PromptArgument[];
  _meta?: MetaObject;
}

/** One message of a prompt (server/prompts "PromptMessage"). */
export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

/** Names a prompt, e.g. for completion (server/utilities/completion, PromptReference). */
export interface PromptReference extends BaseMetadata {
  type: 'ref/prompt';
}

/** `prompts/list` (server/prompts "Listing prompts", ListPromptsRequest). */
export type ListPromptsRequest = JSONRPCRequestOf<'prompts/list', PaginatedRequestParams>;

/** The answer to `prompts/list` (server/prompts "Listing prompts", ListPromptsResult). */
export interface ListPromptsResult extends CacheableResult, PaginatedResult {
  resultType: 'complete';
  prompts: Prompt[];
}

/** `prompts/list` response envelope (server/prompts, ListPromptsResultResponse). */
export type ListPromptsResultResponse = JSONRPCResultResponseOf<ListPromptsResult>;

/** Params of `prompts/get`; argument values are strings (server/prompts "Getting a prompt", GetPromptRequestParams). */
export interface GetPromptRequestParams extends InputResponseRequestParams {
  name: string;
  arguments?: { [key: string]: string };
}

/** `prompts/get` (server/prompts "Getting a prompt", GetPromptRequest). */
export type GetPromptRequest = JSONRPCRequestOf<'prompts/get', GetPromptRequestParams>;

/** The final answer to `prompts/get` (server/prompts "Getting a prompt", GetPromptResult). */
export interface GetPromptResult extends Result {
  resultType: 'complete';
  description?: string;
  messages: PromptMessage[];
}

/** `prompts/get` response envelope: final or input_required (server/prompts, GetPromptResultResponse). */
export type GetPromptResultResponse = JSONRPCResultResponseOf<InputRequiredResult | GetPromptResult>;
