/**
 * Argument completion for prompts and resource templates (modern shapes).
 * Source: MCP 2026-07-28 server/utilities/completion.
 */
import type { RequestParams, Result } from './base.js';
import type { JSONRPCRequestOf, JSONRPCResultResponseOf } from './envelopes.js';
import type { PromptReference } from './prompts.js';

/** Names a resource template to complete against (server/utilities/completion, ResourceTemplateReference). */
export interface ResourceTemplateReference {
  type: 'ref/resource';
  uri: string;
}

/** The completion ask, shared by both eras apart from `_meta` (server/utilities/completion, CompleteRequestParams). */
export interface CompletionArguments {
  ref: PromptReference | ResourceTemplateReference;
  argument: { name: string; value: string };
  context?: { arguments?: { [key: string]: string } };
}

/** Params of `completion/complete` (server/utilities/completion, CompleteRequestParams). */
export interface CompleteRequestParams extends RequestParams, CompletionArguments {}

/** `completion/complete` (server/utilities/completion, CompleteRequest). */
export type CompleteRequest = JSONRPCRequestOf<'completion/complete', CompleteRequestParams>;

/** Suggested values, at most 100; `total` and `hasMore` describe the rest (server/utilities/completion "CompleteResult"). */
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** The answer to `completion/complete` (server/utilities/completion, CompleteResult). */
export interface CompleteResult extends Result {
  resultType: 'complete';
  completion: Completion;
}

/** `completion/complete` response envelope (server/utilities/completion, CompleteResultResponse). */
export type CompleteResultResponse = JSONRPCResultResponseOf<CompleteResult>;
