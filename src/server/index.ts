/**
 * `mcpkit/server`: define an MCP server once and serve it on both eras.
 * Source: MCP 2026-07-28 (modern) and 2025-11-25 (legacy).
 */
export { createServer, McpServer, type MountOptions, type ServerOptions } from './server.js';
export type {
  Caller,
  Catalogue,
  CatalogueEntry,
  PromptEntry,
  PromptRendering,
  ReadResult,
  ResourceEntry,
  TemplateEntry,
  ToolEntry,
  Transform,
  Visibility,
} from './catalogue/types.js';
export { isVisible } from './catalogue/types.js';
export {
  renameTool,
  transformTool,
  type ArgumentChange,
  type ToolChange,
} from './catalogue/transform-tool.js';
export { filter, filterByTags, visibleByTags, visibleTo, type TagFilter } from './catalogue/filters.js';
export { promptsAsTools, resourcesAsTools } from './catalogue/as-tools.js';
export type { ServerLimits } from './options.js';
export type { PrincipalRateLimits } from './middleware/quotas.js';
export type { ResourceSubscriptionHooks } from './subscriptions.js';
export type { SchemaEngine, SchemaLimits } from '../validation/index.js';
export { connect, watchEvents, type ServerConnection } from './connect.js';
export { keepInRequestState, type SessionInit } from './scope.js';
export type { AuthInfo, ProgressOptions, RequestContext } from './context.js';
export type { UserState, UserStateOptions, UserStateSetOptions } from './user-state.js';
export type { Completer, CompletionValues } from './completion.js';
export { errorResult } from './tools.js';
export type {
  PlainToolReturn,
  StructuredToolReturn,
  ToolArgs,
  ToolDefinition,
  ToolErrorResult,
  ToolHandler,
  ToolResult,
  ToolReturn,
  TaskPolicy,
  TaskSupport,
} from './tool-types.js';
export type { TaskOptions } from './tasks/runner.js';
export {
  defineExtension,
  negotiated,
  type ExtensionHandler,
  type ExtensionRequest,
  type ExtensionServer,
  type ListenContribution,
  type MethodsOf,
  type ServerExtension,
} from './extension.js';
export type {
  ReadReturn,
  ResourceHandler,
  ResourceMetadata,
  TemplateHandler,
  TemplateOptions,
} from './resources.js';
export type { PromptArgs, PromptDefinition, PromptHandler, PromptReturn } from './prompts.js';
export type { LegacySession, SessionLink } from './legacy/session.js';
export type { SubscribedUris } from './resource-uri.js';
export { compileUriTemplate, type TemplateValue, type UriTemplate } from './uri-template.js';
export type { CacheHints } from './modern.js';
export {
  inputRequired,
  isInputRequired,
  type InputRequest,
  type InputRequiredAnswer,
  type InputMethod,
} from './mrtr.js';
export type { InputOptions } from './context.js';
export type { SchemaElicitParams, SchemaElicitResult } from './schema-elicit.js';
export {
  createStateSealer,
  generateStateKey,
  type RequestStateSealer,
  type SealerOptions,
  type StateKey,
} from '../core/runtime.js';
export { appResource, appTool, serveApps, type AppResourceOptions, type AppToolDefinition } from './apps.js';
export {
  SkillCatalogue,
  type SkillCatalogueOptions,
  type SkillFileEntry,
  type SkillFiles,
  type SkillProblem,
} from './skills/catalogue.js';
export { skillsExtension, type SkillsOptions } from './skills/extension.js';
