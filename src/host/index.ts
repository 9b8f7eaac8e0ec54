/**
 * `mcpkit/host`: many MCP servers from one `mcpServers` configuration as one registry
 * (tools, prompts, resources, templates under collision-free names), with per-server
 * status and reconnection, and one place for elicitation, sampling and roots.
 * Requires zod (an optional peer dependency of mcpkit) for checking configurations.
 */
export { createHost, Host, type HostCallOptions, type HostOptions } from './host.js';
export {
  loadHostConfig,
  resolveServers,
  type InputPolicy,
  type ResolvedServer,
  type ServerConfig,
  type ServersConfig,
} from './config.js';
export type { HostEvents } from './events.js';
export type { HostHandlers, HostInputContext, InputKind, InputRequestEvent } from './inputs.js';
export type { ReconnectPolicy, ServerState, ServerStatus } from './link.js';
export type { HealthPolicy } from './health.js';
export type { ListKind, ServerLists } from './lists.js';
export { defaultQualify, type NameFilter, type QualifyName } from './names.js';
export type { HostPrompt, HostResource, HostTemplate, HostTool } from './registry.js';
export { createGateway, type Gateway, type GatewayFeature, type GatewayOptions } from './gateway/gateway.js';
export { materialiseSkills, type MaterialiseOptions, type MaterialisedSkill } from './skills.js';
