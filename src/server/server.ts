/**
 * `createServer()`: one server definition, built once, serving both eras.
 * A request carrying modern `_meta` is served statelessly; `initialize` opens a legacy
 * session; every other request belongs to the session of its channel. This file is the
 * one place era handling lives (DESIGN.md decision 5).
 * Source: 2026-07-28 basic/versioning "Backward Compatibility"; 2025-11-25 basic/lifecycle.
 */
import { McpkitError } from '../core/errors.js';
import type { EventBus } from '../core/event-bus.js';
import type { JsonRpcNotification, JsonRpcRequest, Params } from '../core/jsonrpc.js';
import type { Middleware } from '../core/middleware.js';
import type { Implementation, ServerCapabilities } from '../core/types/index.js';
import type { InferOutput, SchemaInput } from '../validation/index.js';
import type { HeaderReader, RequestChannel } from './channel.js';
import type { RequestContext } from './context.js';
import { assembleServer, FeatureScopes, type ServerParts } from './assemble.js';
import { capabilitiesOf } from './features.js';
import { implementationOf, type ServerOptions } from './options.js';

export type { ServerOptions } from './options.js';
import { bindPrompt, type PromptDefinition, type PromptHandler } from './prompts.js';
import type { ResourceHandler, ResourceMetadata, TemplateHandler, TemplateOptions } from './resources.js';
import type { LegacySession } from './legacy/session.js';
import {
  bindTool,
  type PlainToolReturn,
  type StructuredToolReturn,
  type ToolArgs,
  type ToolDefinition,
  type ToolHandler,
} from './tool-types.js';
import { MiddlewareChains } from './middleware.js';
import { principalQuotas } from './middleware/quotas.js';
import { scopeCheck } from './middleware/scopes.js';
import { TASKS_EXTENSION } from '../core/tasks.js';

let revisionOf: (server: McpServer) => number;

/**
 * How many times `server`'s tool list has changed by `tool()` or `removeTool()`, announced
 * or not; transports key caches of the tool list on it. Internal to the server layer.
 */
export function toolsRevision(server: McpServer): number {
  return revisionOf(server);
}

/** An MCP server definition. Register features, then serve it on any transport. */
export class McpServer {
  static {
    revisionOf = (server) => server.#parts.features.tools.revision;
  }

  readonly info: Implementation;
  readonly options: ServerOptions;
  readonly eventBus: EventBus;
  readonly #listens = new Set<() => void>();
  readonly #parts: ServerParts;
  #capabilities: ServerCapabilities | undefined;
  readonly #chains = new MiddlewareChains({
    request: (request, channel) => this.#parts.dispatcher.dispatch(request, channel),
    notification: (notification, session) => this.#notified(notification, session),
  });
  readonly #scopes = new FeatureScopes();
  #scopesChecked = false;

  constructor(options: ServerOptions) {
    this.options = options;
    this.info = implementationOf(options);
    const capabilities = () => this.capabilities;
    this.#parts = assembleServer({ options, info: this.info, listens: this.#listens, capabilities });
    this.eventBus = this.#parts.eventBus;
    const perPrincipal = options.limits?.perPrincipal;
    if (perPrincipal) this.#chains.builtIn(principalQuotas(perPrincipal));
  }

  /** Records the scopes a feature needs; the first feature needing any turns on the scope check. */
  #needScopes(method: string, key: string, scopes: readonly string[] | undefined): void {
    this.#scopes.need(method, key, scopes);
    if (this.#scopesChecked || !scopes || scopes.length === 0) return;
    this.#scopesChecked = true;
    this.#chains.builtIn(scopeCheck(this));
  }

  /** True when the server serves legacy sessions (`initialize`) as well as modern requests. */
  get servesLegacy(): boolean {
    return this.#parts.legacy.length > 0;
  }

  /** Every protocol version this server speaks, modern first. */
  get supportedVersions(): string[] {
    return [...this.#parts.supportedVersions];
  }

  /**
   * Adds a middleware (`(next) => async (message, ctx) => result`) to the server's chains:
   * it sees every request and notification from clients, and every notification and
   * server-initiated request to them, on every transport and both eras (see
   * core/middleware.ts for what it may do). Middleware runs in the order added, after the
   * transport's own checks and before era routing and dispatch. Add middleware before
   * serving: a legacy session opened earlier keeps the chain it started with.
   */
  use(middleware: Middleware): this {
    this.#chains.use(middleware);
    return this;
  }

  /**
   * Registers a tool: `tool(name, handler)` or `tool(name, definition, handler)`. Arguments
   * are typed by `inputSchema`; with an `outputSchema` the handler may return just the
   * structured value (see {@link StructuredToolReturn}). Source: 2026-07-28 server/tools.
   * @throws McpkitError `INVALID_DEFINITION` (bad name, duplicate, bad schema).
   */
  tool(name: string, handler: ToolHandler): this;
  tool<In extends SchemaInput | undefined = undefined>(
    name: string,
    definition: ToolDefinition<In> & { outputSchema?: undefined },
    handler: (args: ToolArgs<In>, context: RequestContext) => PlainToolReturn | Promise<PlainToolReturn>,
  ): this;
  tool<In extends SchemaInput | undefined, Out extends SchemaInput>(
    name: string,
    definition: ToolDefinition<In, Out> & { outputSchema: Out },
    handler: (
      args: ToolArgs<In>,
      context: RequestContext,
    ) => StructuredToolReturn<InferOutput<Out>> | Promise<StructuredToolReturn<InferOutput<Out>>>,
  ): this;
  tool<In extends SchemaInput | undefined = undefined, Out extends SchemaInput | undefined = undefined>(
    name: string,
    definitionOrHandler: ToolDefinition<In, Out> | ToolHandler<In, Out>,
    maybeHandler?: ToolHandler<In, Out>,
  ): this {
    const [definition, handler] =
      typeof definitionOrHandler === 'function'
        ? [{}, definitionOrHandler]
        : [definitionOrHandler, maybeHandler];
    if (handler === undefined) throw new McpkitError('INVALID_DEFINITION', `tool '${name}' needs a handler`);
    const bound = bindTool(handler, definition.outputSchema !== undefined);
    this.#parts.features.tools.add(name, definition, bound);
    this.#needScopes('tools/call', name, definition.scopes);
    this.#capabilities = undefined;
    return this;
  }

  /** Registers a fixed resource at `uri`. */
  resource(uri: string, metadata: ResourceMetadata, handler: ResourceHandler): this {
    const { scopes, ...wire } = metadata;
    this.#parts.features.resources.addResource(uri, wire, handler);
    this.#needScopes('resources/read', uri, scopes);
    this.#capabilities = undefined;
    return this;
  }

  /** Registers a resource template (`{var}` and `{+var}` expressions). */
  resourceTemplate(uriTemplate: string, options: TemplateOptions, handler: TemplateHandler): this {
    const { scopes: _scopes, ...wire } = options;
    this.#parts.features.resources.addTemplate(uriTemplate, wire, handler);
    this.#capabilities = undefined;
    return this;
  }

  /** Registers a prompt. */
  prompt<S extends SchemaInput | undefined = undefined>(
    name: string,
    definition: PromptDefinition<S>,
    handler: PromptHandler<S>,
  ): this {
    const { scopes, ...wire } = definition;
    this.#parts.features.prompts.add(name, wire as PromptDefinition<S>, bindPrompt(handler));
    this.#needScopes('prompts/get', name, scopes);
    this.#capabilities = undefined;
    return this;
  }

  /**
   * The OAuth scopes the feature a request names needs (`tools/call` and `prompts/get` by
   * name, `resources/read` by URI), as registered with `scopes`; undefined when none.
   */
  requiredScopes(method: string, params: unknown): readonly string[] | undefined {
    return this.#scopes.required(method, params);
  }

  /** Removes a tool and announces the change. */
  removeTool(name: string): boolean {
    const removed = this.#parts.features.tools.remove(name);
    this.#capabilities = undefined;
    if (removed) this.notifyToolsChanged();
    return removed;
  }

  /** Removes a prompt and announces the change. */
  removePrompt(name: string): boolean {
    const removed = this.#parts.features.prompts.remove(name);
    this.#capabilities = undefined;
    if (removed) this.notifyPromptsChanged();
    return removed;
  }

  /** Removes a fixed resource or a resource template and announces the change. */
  removeResource(uriOrTemplate: string): boolean {
    const { resources } = this.#parts.features;
    const removed = resources.removeResource(uriOrTemplate) || resources.removeTemplate(uriOrTemplate);
    this.#capabilities = undefined;
    if (removed) this.notifyResourcesChanged();
    return removed;
  }

  /** Announces that the tool list changed to every listening client and legacy session. */
  notifyToolsChanged(): void {
    void this.eventBus.publish({ type: 'toolsListChanged' });
  }
  /** Announces that the prompt list changed. */
  notifyPromptsChanged(): void {
    void this.eventBus.publish({ type: 'promptsListChanged' });
  }
  /** Announces that the resource list changed. */
  notifyResourcesChanged(): void {
    void this.eventBus.publish({ type: 'resourcesListChanged' });
  }
  /** Announces that the resource at `uri` changed (to clients subscribed to it). */
  notifyResourceUpdated(uri: string): void {
    void this.eventBus.publish({ type: 'resourceUpdated', uri });
  }

  /**
   * How many clients are subscribed to the resource at `uri` now (legacy sessions and
   * modern listen streams of this instance). See `ServerOptions.resourceSubscriptions`.
   */
  subscribers(uri: string): number {
    return this.#parts.subscriptions.count(uri);
  }

  /**
   * Releases what a legacy session held (its resource subscriptions). The transports call
   * it when a session ends; a transport of your own should too.
   */
  sessionEnded(session: LegacySession): void {
    this.#parts.subscriptions.releaseAll(session.subscriptions);
  }

  /**
   * Sets a legacy session's resource subscriptions to `uris`: new ones count here (the
   * `subscribe` hook may run; its refusal is not reported), gone ones are released. A
   * fleet's replica of a session calls it with what the session subscribed through another
   * instance, so that updates reach it here and the counts stay balanced.
   */
  syncSessionSubscriptions(session: LegacySession, uris: Iterable<string>): void {
    this.#parts.subscriptions.sync(session.subscriptions, uris);
  }

  /**
   * Ends every open `subscriptions/listen` stream gracefully (each gets its completion
   * result). Call before shutting down.
   */
  closeSubscriptions(): void {
    for (const close of [...this.#listens]) close();
  }

  /** Stops keeping task leases and aborts the task handlers running in this process. */
  stopTasks(): void {
    this.#parts.tasks.runner.close();
  }

  /** The capabilities declared in discover and initialize, from what is registered. */
  get capabilities(): ServerCapabilities {
    return (this.#capabilities ??= this.#computeCapabilities());
  }

  #computeCapabilities(): ServerCapabilities {
    const caps = capabilitiesOf(this.#parts.features, this.options.capabilities);
    if (this.#parts.tasks.enabled) caps.extensions = { ...caps.extensions, [TASKS_EXTENSION]: {} };
    return caps;
  }

  /**
   * Answers one request. Resolves with the result object; throws {@link McpError} for a
   * JSON-RPC error (anything else a handler throws should become -32603 at the transport).
   * A middleware that answers a request itself is trusted to return a result object; a
   * transport sends `{}` if it did not.
   */
  handle(request: JsonRpcRequest, channel: RequestChannel): Promise<Params> {
    return this.#chains.empty
      ? this.#parts.dispatcher.dispatch(request, channel)
      : this.#chains.request(request, channel);
  }

  /**
   * Handles a notification from the client (`notifications/initialized`; others are
   * ignored once middleware saw them). `headers`: the HTTP request's, for middleware.
   */
  handleNotification(
    notification: JsonRpcNotification,
    session: LegacySession | undefined,
    headers?: HeaderReader,
  ): void {
    if (this.#chains.empty) this.#notified(notification, session);
    else this.#chains.notification(notification, session, headers);
  }

  #notified(notification: JsonRpcNotification, session: LegacySession | undefined): void {
    if (notification.method === 'notifications/initialized' && session) session.initialized = true;
  }
}

/**
 * Creates a server definition. Register tools, resources and prompts on it, then serve it
 * with `connect(transport)` (stdio, the in-memory pair) or over HTTP.
 */
export function createServer(options: ServerOptions): McpServer {
  return new McpServer(options);
}

export type { InferOutput };
