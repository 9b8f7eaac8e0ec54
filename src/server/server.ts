/**
 * `createServer()`: one server definition, built once, serving both eras, and its
 * registration API. Era routing is in dispatch.ts (by core/era.ts).
 * Source: 2026-07-28 basic/versioning "Backward Compatibility"; 2025-11-25 basic/lifecycle.
 */
import {
  LocalError,
  type JsonRpcNotification,
  type Middleware,
  type Implementation,
  type ServerCapabilities,
  type ServerEvent,
} from '../core/index.js';
import type { InferOutput, SchemaInput } from '../validation/index.js';
import { RequestScope } from './scope.js';
import type { ServerRuntime } from './server-runtime.js';
import type { RequestContext } from './context.js';
import { ServerDispatcher } from './dispatch.js';
import type { ServerExtension } from './extension.js';
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
import { MiddlewareChains } from './chains.js';
import { mountOn, withMounted, type MountOptions } from './catalogue/bridge.js';
import type { Transform } from './catalogue/types.js';

export type { MountOptions } from './catalogue/bridge.js';
import { principalQuotas } from './middleware/quotas.js';
import { scopeCheck } from './middleware/scopes.js';

let runtimeFor: (server: McpServer) => ServerRuntime;
let markServing: (server: McpServer) => void;

/** The events that announce a changed list. */
type ListEvent = Exclude<ServerEvent['type'], 'resourceUpdated'>;

/** The transports' face of `server` (see runtime.ts); not part of the public API. No side effect. */
export function runtimeOf(server: McpServer): ServerRuntime {
  return runtimeFor(server);
}

/**
 * Marks `server` as served: from now on a registration is announced as a list change. Called
 * by the transports when they take the server (`connect`, the HTTP endpoint) and by `mount`
 * for the mounted server, whose announcements the parent forwards. Idempotent.
 */
export function startServing(server: McpServer): void {
  markServing(server);
}

/** An MCP server definition. Register features, then serve it on any transport. */
export class McpServer {
  static {
    runtimeFor = (server) => server.#runtime;
    markServing = (server) => {
      server.#serving = true;
    };
  }

  readonly info: Implementation;
  readonly options: ServerOptions;
  readonly #parts: ServerDispatcher;
  #capabilities: ServerCapabilities | undefined;
  #capabilitiesAt = -1;
  readonly #mounted: McpServer[] = [];
  readonly #chains = new MiddlewareChains({
    request: (scope) => this.#parts.dispatch(scope),
    notification: (notification, session) => this.#notified(notification, session),
  });
  readonly #runtime: ServerRuntime;
  #scopesChecked = false;
  /** Set once a transport took the server ({@link startServing}): registrations are announced from then on. */
  #serving = false;
  /** List changes announced at the end of this turn (one notification per list, however many registrations). */
  readonly #toAnnounce = new Set<ListEvent>();

  constructor(options: ServerOptions) {
    this.options = options;
    this.info = implementationOf(options);
    this.#parts = new ServerDispatcher(options, this.info, () => this.capabilities);
    this.#runtime = this.#makeRuntime();
    const perPrincipal = options.limits?.perPrincipal;
    if (perPrincipal) this.#chains.builtIn(principalQuotas(perPrincipal));
    for (const extension of options.extensions ?? []) extension.setup?.(this);
  }

  /** The first feature needing scopes turns on the scope check (which reads them off the catalogue). */
  #needScopes(scopes: readonly string[] | undefined): void {
    if (scopes && scopes.length > 0) this.#checkScopes();
  }

  #checkScopes(): void {
    if (this.#scopesChecked) return;
    this.#scopesChecked = true;
    this.#chains.builtIn(scopeCheck(this.#runtime));
  }

  /** Registers with `add`; one that collides with a mounted name is undone and refused. */
  #register(add: () => void, undo: () => unknown): void {
    const catalogue = this.#parts.catalogue;
    const before = catalogue.composed ? catalogue.compiled().collisions.length : 0;
    add();
    const collisions = catalogue.composed ? catalogue.compiled().collisions : [];
    if (collisions.length === before) return;
    undo();
    throw new LocalError('INVALID_DEFINITION', `names collide: ${collisions.at(-1)}`);
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
   *
   * Given an extension (see `defineExtension`) instead, serves it: declared in the
   * capabilities, its methods routed. @throws LocalError `INVALID_DEFINITION` for an
   * extension id or method already served.
   */
  use(middleware: Middleware | ServerExtension<object>): this {
    if (typeof middleware === 'function') this.#chains.use(middleware);
    else {
      this.#parts.extensions.add(middleware);
      middleware.setup?.(this);
      this.#capabilities = undefined;
    }
    return this;
  }

  /**
   * Registers a tool: `tool(name, handler)` or `tool(name, definition, handler)`. Arguments
   * are typed by `inputSchema`; with an `outputSchema` the handler may return just the
   * structured value (see {@link StructuredToolReturn}). Source: 2026-07-28 server/tools.
   * @throws LocalError `INVALID_DEFINITION` (bad name, duplicate, bad schema).
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
    if (handler === undefined) throw new LocalError('INVALID_DEFINITION', `tool '${name}' needs a handler`);
    const bound = bindTool(handler, definition.outputSchema !== undefined);
    const { tools } = this.#parts.own;
    this.#register(
      () => tools.add(name, definition, bound),
      () => tools.remove(name),
    );
    this.#needScopes(definition.scopes);
    this.#capabilities = undefined;
    this.#announce('toolsListChanged');
    return this;
  }

  /** Registers a fixed resource at `uri`. */
  resource(uri: string, metadata: ResourceMetadata, handler: ResourceHandler): this {
    const { resources } = this.#parts.own;
    this.#register(
      () => resources.addResource(uri, metadata, handler),
      () => resources.removeResource(uri),
    );
    this.#needScopes(metadata.scopes);
    this.#capabilities = undefined;
    this.#announce('resourcesListChanged');
    return this;
  }

  /** Registers a resource template (`{var}` and `{+var}` expressions). */
  resourceTemplate(uriTemplate: string, options: TemplateOptions, handler: TemplateHandler): this {
    const { resources } = this.#parts.own;
    const undo = () => resources.removeTemplate(uriTemplate);
    this.#register(() => resources.addTemplate(uriTemplate, options, handler), undo);
    this.#needScopes(options.scopes);
    this.#capabilities = undefined;
    this.#announce('resourcesListChanged');
    return this;
  }

  /** Registers a prompt. */
  prompt<S extends SchemaInput | undefined = undefined>(
    name: string,
    definition: PromptDefinition<S>,
    handler: PromptHandler<S>,
  ): this {
    const { prompts } = this.#parts.own;
    this.#register(
      () => prompts.add(name, definition, bindPrompt(handler)),
      () => prompts.remove(name),
    );
    this.#needScopes(definition.scopes);
    this.#capabilities = undefined;
    this.#announce('promptsListChanged');
    return this;
  }

  /**
   * Serves `server`'s tools, prompts, resources, templates and completions as this server's,
   * in process (no extra hop), on both eras: names become `prefix__name` and URIs
   * `prefix+uri`, the rule the host and the gateway follow ('' keeps them unchanged). Calls run
   * the mounted server's handlers with this request's context (progress, cancellation,
   * `ctx.elicit`, `ctx.sample`, tasks); its list changes and resource updates are announced
   * here; this server's middleware applies, the mounted server's does not.
   * @throws LocalError `INVALID_DEFINITION` for a bad prefix, a mount of itself (at any depth),
   *   a name or URI that collides with one served here, or a transform that cannot apply.
   */
  mount(prefix: string, server: McpServer, options: MountOptions = {}): this {
    const lists = this.options.listChanged !== false;
    startServing(server);
    mountOn(this.#runtime, runtimeFor(server), { prefix, options, lists });
    this.#mounted.push(server);
    this.#composed();
    return this;
  }

  /**
   * Reshapes what this server serves (own registrations and mounts) with `transforms`, in
   * order after earlier ones. @throws LocalError `INVALID_DEFINITION` when one cannot apply.
   */
  transform(...transforms: Transform[]): this {
    this.#parts.catalogue.transform(transforms);
    this.#composed();
    return this;
  }

  #composed(): void {
    this.#capabilities = undefined;
    if (this.#parts.catalogue.scoped) this.#checkScopes();
    for (const list of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const)
      this.#announce(list);
  }

  /** Removes a tool and announces the change. @throws LocalError `INVALID_ARGUMENT` with `listChanged: false`. */
  removeTool(name: string): boolean {
    this.#mayChange('removeTool');
    const removed = this.#parts.own.tools.remove(name);
    this.#capabilities = undefined;
    if (removed) this.notifyToolsChanged();
    return removed;
  }

  /** Removes a prompt and announces the change. @throws LocalError `INVALID_ARGUMENT` with `listChanged: false`. */
  removePrompt(name: string): boolean {
    this.#mayChange('removePrompt');
    const removed = this.#parts.own.prompts.remove(name);
    this.#capabilities = undefined;
    if (removed) this.notifyPromptsChanged();
    return removed;
  }

  /** Removes a fixed resource or a resource template and announces the change. @throws LocalError `INVALID_ARGUMENT` with `listChanged: false`. */
  removeResource(uriOrTemplate: string): boolean {
    this.#mayChange('removeResource');
    const { resources } = this.#parts.own;
    const removed = resources.removeResource(uriOrTemplate) || resources.removeTemplate(uriOrTemplate);
    this.#capabilities = undefined;
    if (removed) this.notifyResourcesChanged();
    return removed;
  }

  /** Announces that the tool list changed to every listening client and legacy session. @throws LocalError `INVALID_ARGUMENT` with `listChanged: false`. */
  notifyToolsChanged(): void {
    this.#mayChange('notifyToolsChanged');
    this.#publishList('toolsListChanged');
  }
  /** Announces that the prompt list changed. @throws LocalError `INVALID_ARGUMENT` with `listChanged: false`. */
  notifyPromptsChanged(): void {
    this.#mayChange('notifyPromptsChanged');
    this.#publishList('promptsListChanged');
  }
  /** Announces that the resource list changed. @throws LocalError `INVALID_ARGUMENT` with `listChanged: false`. */
  notifyResourcesChanged(): void {
    this.#mayChange('notifyResourcesChanged');
    this.#publishList('resourcesListChanged');
  }

  #publishList(type: ListEvent): void {
    this.#toAnnounce.delete(type); // heard now: a registration earlier this turn needs no second one
    void this.#parts.eventBus.publish({ type });
  }

  /** A registration while serving: announce its list once this turn's registrations are done. */
  #announce(type: ListEvent): void {
    if (!this.#serving || this.options.listChanged === false || this.#toAnnounce.has(type)) return;
    this.#toAnnounce.add(type);
    queueMicrotask(() => {
      if (this.#toAnnounce.delete(type)) void this.#parts.eventBus.publish({ type });
    });
  }
  /** Announces that the resource at `uri` changed (to clients subscribed to it). */
  notifyResourceUpdated(uri: string): void {
    void this.#parts.eventBus.publish({ type: 'resourceUpdated', uri });
  }

  /**
   * How many clients are subscribed to the resource at `uri` now (legacy sessions and
   * modern listen streams of this instance). See `ServerOptions.resourceSubscriptions`.
   */
  subscribers(uri: string): number {
    return this.#parts.subscriptions.count(uri);
  }

  /**
   * Ends every open `subscriptions/listen` stream gracefully (each gets its completion
   * result). Call before shutting down.
   */
  closeSubscriptions(): void {
    for (const close of [...this.#parts.listens]) close();
  }

  /** Stops keeping task leases and aborts the task handlers running in this process. */
  stopTasks(): void {
    this.#parts.tasks.runner.close();
  }

  /** The capabilities declared in discover and initialize, from what is registered. */
  get capabilities(): ServerCapabilities {
    const revision = this.#parts.catalogue.revision;
    if (this.#capabilitiesAt !== revision) [this.#capabilities, this.#capabilitiesAt] = [undefined, revision];
    return (this.#capabilities ??= this.#computeCapabilities());
  }

  /** @throws LocalError `INVALID_ARGUMENT` on a server whose lists never change. */
  #mayChange(method: string): void {
    if (this.options.listChanged !== false) return;
    throw new LocalError(
      'INVALID_ARGUMENT',
      `${method}(): this server declared that its lists never change (createServer({ listChanged: false }))`,
    );
  }

  #computeCapabilities(): ServerCapabilities {
    const caps = capabilitiesOf(this.#parts.features, this.options.capabilities, this.options.listChanged);
    return withMounted(
      this.#parts.extensions.declare(caps),
      this.#mounted.map((m) => m.capabilities),
    );
  }

  #makeRuntime(): ServerRuntime {
    const parts = this.#parts;
    const chains = this.#chains;
    return {
      options: this.options,
      eventBus: parts.eventBus,
      servesLegacy: parts.legacy.length > 0,
      toolsRevision: () => parts.catalogue.revision,
      serve: (scope) => (chains.empty ? parts.dispatch(scope) : chains.request(scope)),
      handle: (request, channel) => this.#runtime.serve(new RequestScope(request, channel, channel)),
      handleNotification: (notification, session, headers) => {
        if (chains.empty) this.#notified(notification, session);
        else chains.notification(notification, session, headers);
      },
      sessionEnded: (session) => parts.subscriptions.releaseAll(session.subscriptions),
      syncSessionSubscriptions: (session, uris) => parts.subscriptions.sync(session.subscriptions, uris),
      requiredScopes: (method, params, caller) => parts.catalogue.requiredScopes(method, params, caller),
      catalogue: parts.catalogue,
      idle: () => parts.tasks.runner.idle(),
    };
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
