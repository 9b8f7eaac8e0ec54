/**
 * Builds the parts one {@link McpServer} is made of from its options: the feature
 * registries, the eras served, the event bus, resource subscriptions, tasks and the request
 * router that ties them together. `McpServer` keeps the registration API and delegates here.
 * Source: 2026-07-28 basic/versioning "Backward Compatibility"; 2025-11-25 basic/lifecycle.
 */
import { createMemoryEventBus, type EventBus } from '../core/event-bus.js';
import { createStateSealer } from '../core/request-state.js';
import { LEGACY_REVISIONS, MODERN_REVISIONS, type LegacyRevision } from '../core/revisions.js';
import type { Implementation, ServerCapabilities } from '../core/types/index.js';
import { ServerDispatcher } from './dispatch.js';
import { copyResult, type Features } from './features.js';
import type { ServerOptions } from './options.js';
import { PromptRegistry } from './prompts.js';
import { ResourceRegistry } from './resources.js';
import { ResourceSubscriptions } from './subscriptions.js';
import { ServerTasks } from './tasks/methods.js';
import { ToolRegistry } from './tools.js';

/** What {@link assembleServer} needs besides the options. */
export interface AssembleInput {
  readonly options: ServerOptions;
  readonly info: Implementation;
  /** Closers of the open `subscriptions/listen` streams, shared with the server. */
  readonly listens: Set<() => void>;
  /** The server's current capabilities (computed lazily by the server). */
  readonly capabilities: () => ServerCapabilities;
}

/** The parts of one server. */
export interface ServerParts {
  readonly eventBus: EventBus;
  readonly features: Features;
  /** The legacy revisions served; empty when legacy is off. */
  readonly legacy: readonly LegacyRevision[];
  /** Every protocol version served, modern first. */
  readonly supportedVersions: readonly string[];
  readonly subscriptions: ResourceSubscriptions;
  readonly tasks: ServerTasks;
  readonly dispatcher: ServerDispatcher;
}

/** Builds the parts of a server from `input.options` (see {@link ServerOptions}). */
export function assembleServer(input: AssembleInput): ServerParts {
  const { options, info, listens, capabilities } = input;
  const eras = options.eras ?? ['modern', 'legacy'];
  const modern = eras.includes('modern') ? MODERN_REVISIONS : [];
  const legacy = eras.includes('legacy') ? LEGACY_REVISIONS : [];
  const cache = { ttlMs: options.cache?.ttlMs ?? 0, cacheScope: options.cache?.cacheScope ?? 'private' };
  const tools = new ToolRegistry(options.limits?.schema);
  const features: Features = {
    tools,
    resources: new ResourceRegistry(),
    prompts: new PromptRegistry(options.limits?.schema),
    pageSize: options.pageSize ?? 100,
  };
  const eventBus = options.eventBus ?? createMemoryEventBus();
  const supportedVersions = [...modern, ...legacy];
  const subscriptions = new ResourceSubscriptions(
    options.resourceSubscriptions,
    options.limits?.subscriptionHookTimeoutMs,
  );
  const rs = options.requestState;
  const sealer = rs && 'seal' in rs ? rs : createStateSealer(rs);
  const tasks = new ServerTasks({
    options: options.tasks,
    maxPerPrincipal: options.limits?.maxTasksPerPrincipal,
    schemaLimits: options.limits?.schema,
    tools,
    sealer,
    callTool: async (name, args, ctx) => copyResult(await tools.call(name, args, ctx)),
  });
  const dispatcher = new ServerDispatcher({
    info,
    options,
    eventBus,
    features,
    modern,
    legacy,
    supportedVersions,
    cache,
    sealer,
    listens,
    subscriptions,
    tasks,
    capabilities,
  });
  return { eventBus, features, legacy, supportedVersions, subscriptions, tasks, dispatcher };
}

/** The OAuth scopes registered features need, by method and feature name or URI. */
export class FeatureScopes {
  readonly #scopes = new Map<string, readonly string[]>();

  /** Records (or, when empty, forgets) the scopes `method` on `key` needs. */
  need(method: string, key: string, scopes: readonly string[] | undefined): void {
    if (scopes && scopes.length > 0) this.#scopes.set(`${method} ${key}`, [...scopes]);
    else this.#scopes.delete(`${method} ${key}`);
  }

  /** The scopes the feature a request names needs (see `McpServer.requiredScopes`). */
  required(method: string, params: unknown): readonly string[] | undefined {
    const p = (params ?? {}) as { name?: unknown; uri?: unknown };
    const key = method === 'resources/read' ? p.uri : p.name;
    return typeof key === 'string' ? this.#scopes.get(`${method} ${key}`) : undefined;
  }
}
