/**
 * The request router of one server, built once from its options (DESIGN decision 4): the
 * feature registries, the eras served, the event bus, resource subscriptions and tasks,
 * and the routing of each request's scope by era (core/era.ts): a modern request is
 * served statelessly, `initialize` opens a legacy session, anything else belongs to its
 * session. Then `server/discover`, `subscriptions/listen`, tasks and feature dispatch.
 * Source: 2026-07-28 basic/versioning "Backward Compatibility"; 2025-11-25 basic/lifecycle.
 */
import {
  declares,
  eraOf,
  serverCapabilityNeeded,
  principalKey,
  ownEntry,
  createStateSealer,
  type RequestStateSealer,
  CACHEABLE_METHODS,
  INPUT_METHODS,
  MODERN_CORE_METHODS,
  thenOrNow,
} from '../core/runtime.js';
import {
  WireError,
  createMemoryEventBus,
  type EventBus,
  type Params,
  LEGACY_REVISIONS,
  MODERN_REVISIONS,
  type LegacyRevision,
  type ModernRevision,
  type Implementation,
  type ServerCapabilities,
} from '../core/index.js';
import { FEATURE_METHODS, copyResult, type Features } from './features.js';
import { SESSION_METHODS, initialize } from './legacy/lifecycle.js';
import { runWithLegacyInput } from './legacy/rounds.js';
import { EarlyEvents, honouredFilter, listen } from './listen.js';
import {
  checkModernMeta,
  decorateModernResult,
  methodNotFound,
  ModernDecorations,
  type ModernDecoration,
} from './modern.js';
import { InputRound, openInputRound, settleRound } from './mrtr.js';
import { servedBy, type ServedBy, type ServerOptions } from './options.js';
import { PromptRegistry } from './prompts.js';
import { PrincipalQuota } from './middleware/quotas.js';
import { principalShare } from './middleware/shares.js';
import { ResourceRegistry } from './resources.js';
import {
  bindingOf,
  enterLegacy,
  enterModern,
  lineOf,
  requestOf,
  setServed,
  type RequestScope,
} from './scope.js';
import { ResourceSubscriptions } from './subscriptions.js';
import { ServerExtensions } from './extensions.js';
import { ServerTasks } from './tasks/methods.js';
import { ToolRegistry } from './tools.js';
import { ViewTracker } from './catalogue/views.js';
import type { LegacySession } from './legacy/session.js';
import { ServerCatalogue, type OwnRegistries } from './catalogue/catalogue.js';
import { ServedPrompts, ServedResources, ServedTools } from './catalogue/served.js';
import { reportInternalError } from './internal-error.js';

/** Routes each request of one server to its era's handling and answers it. */
export class ServerDispatcher {
  readonly eventBus: EventBus;
  /** The server's own registrations. */
  readonly own: OwnRegistries;
  /** Its own registrations, mounted servers and transforms (catalogue/catalogue.ts). */
  readonly catalogue: ServerCatalogue;
  readonly features: Features;
  /** The legacy revisions served; empty when legacy is off. */
  readonly legacy: readonly LegacyRevision[];
  readonly modern: readonly ModernRevision[];
  /** Every protocol version served, modern first. */
  readonly supportedVersions: readonly string[];
  readonly subscriptions: ResourceSubscriptions;
  readonly tasks: ServerTasks;
  /** The extensions served, Tasks first. */
  readonly extensions = new ServerExtensions();
  /** Closers of the open `subscriptions/listen` streams. */
  readonly listens = new Set<() => void>();
  readonly #options: ServerOptions;
  readonly #info: Implementation;
  readonly #capabilities: () => ServerCapabilities;
  readonly #sealer: RequestStateSealer;
  readonly #decorations: ModernDecorations;
  readonly #listenQuota: PrincipalQuota;
  readonly #served: ServedBy; // set on every scope: the schema limits and the user state

  /** `capabilities`: the server's current ones (recomputed after registrations). */
  constructor(options: ServerOptions, info: Implementation, capabilities: () => ServerCapabilities) {
    this.#options = options;
    this.#info = info;
    this.#capabilities = capabilities;
    const eras = options.eras ?? ['modern', 'legacy'];
    this.modern = eras.includes('modern') ? MODERN_REVISIONS : [];
    this.legacy = eras.includes('legacy') ? LEGACY_REVISIONS : [];
    this.supportedVersions = [...this.modern, ...this.legacy];
    const limits = options.limits;
    this.#served = servedBy(options);
    this.own = {
      tools: new ToolRegistry(limits?.schema, (error, request) =>
        reportInternalError(options, error, request),
      ),
      resources: new ResourceRegistry(),
      prompts: new PromptRegistry(limits?.schema),
    };
    this.catalogue = new ServerCatalogue(this.own);
    const tools = new ServedTools(this.own, this.catalogue);
    this.features = {
      tools,
      resources: new ServedResources(this.own, this.catalogue),
      prompts: new ServedPrompts(this.own, this.catalogue),
      pageSize: options.pageSize ?? 100,
    };
    this.eventBus = options.eventBus ?? createMemoryEventBus();
    this.subscriptions = new ResourceSubscriptions(
      options.resourceSubscriptions,
      limits?.subscriptionHookTimeoutMs,
      (key) => this.catalogue.compiled().fixedResource(key, undefined)?.resource.uri ?? key,
    );
    const rs = options.requestState;
    this.#sealer = rs && 'seal' in rs ? rs : createStateSealer(rs);
    this.tasks = new ServerTasks({
      options: options.tasks,
      maxPerPrincipal: limits?.maxTasksPerPrincipal,
      served: this.#served,
      tools,
      sealer: this.#sealer,
      callTool: async (name, args, ctx) => copyResult(await tools.call(name, args, ctx)),
    });
    this.extensions.add(this.tasks.extension());
    for (const extension of options.extensions ?? []) this.extensions.add(extension);
    this.#listenQuota = new PrincipalQuota(
      limits?.maxListenStreamsPerPrincipal ?? principalShare(limits?.maxListenStreams ?? 10_000),
      'open listen streams (limits.maxListenStreamsPerPrincipal)',
    );
    this.#decorations = new ModernDecorations(info, options.cache);
  }

  /** Answers one request; rejects with {@link WireError} for a JSON-RPC error. */
  dispatch(scope: RequestScope): Promise<Params> {
    // Not an async frame: the era handlers are; a synchronous throw still becomes a rejection.
    try {
      setServed(scope, this.#served);
      const { method } = requestOf(scope);
      if (eraOf(requestOf(scope), bindingOf(scope)) === 'modern') return this.#handleModern(scope);
      if (method === 'initialize') return Promise.resolve(this.#initialize(scope));
      // Promise.resolve of a native promise is that promise: no allocation for the usual async answer.
      if (bindingOf(scope).session) return Promise.resolve(this.#handleLegacy(scope));
      if (method === 'ping' && this.legacy.length > 0) return Promise.resolve({});
      return this.#handleModern(scope);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  #initialize(scope: RequestScope): Params {
    if (this.legacy.length === 0) {
      throw WireError.of(
        'InvalidRequest',
        `This server speaks only ${this.modern.join(', ')}; initialize is not supported`,
        { supported: [...this.modern] },
      );
    }
    const identity = {
      serverInfo: this.#info,
      capabilities: this.#capabilities(),
      instructions: this.#options.instructions,
      legacyRevisions: this.legacy,
      extensions: this.extensions.declared('legacy'),
      opened: (session: LegacySession) => {
        if (!this.catalogue.composed) return;
        const views = new ViewTracker(this.catalogue, { ...session, era: 'legacy' });
        session.concerns = (event) => views.concerns(event);
      },
    };
    return initialize(requestOf(scope).params, scope, identity);
  }

  async #handleModern(scope: RequestScope): Promise<Params> {
    const { method } = requestOf(scope);
    if (this.modern.length === 0) throw methodNotFound(method);
    const extended = this.extensions.handles(method, 'modern');
    const relayed = !MODERN_CORE_METHODS.has(method) && !extended && this.extensions.relays(method, 'modern');
    if (!MODERN_CORE_METHODS.has(method) && !extended && !relayed) throw this.#unknownModern(method);
    const meta = checkModernMeta(requestOf(scope).params, this.supportedVersions);
    enterModern(scope, meta);
    const base = this.#decorationOf(method, extended);
    if (extended) return decorateModernResult(await this.extensions.call(scope), base);
    if (relayed) return decorateModernResult(await this.extensions.relay(scope), base);
    if (method === 'server/discover') return decorateModernResult(this.#discover(), base);
    if (method === 'subscriptions/listen') return decorateModernResult(await this.#listen(scope), base);
    const taken = this.extensions.intercept(scope);
    if (taken) return decorateModernResult(await taken, base);
    if (!INPUT_METHODS.has(method)) return decorateModernResult(await this.#runFeatureDecorated(scope), base);
    const opened = openInputRound(scope, this.#sealer);
    const round = opened instanceof InputRound ? opened : await opened;
    let running: Promise<Params> | Params;
    try {
      running = this.#runFeatureDecorated(scope);
    } catch (error) {
      running = Promise.reject(error as Error);
    }
    return decorateModernResult(await settleRound(round, running), base);
  }

  #decorationOf(method: string, extended: boolean): ModernDecoration {
    const cacheable = CACHEABLE_METHODS.has(method) || (extended && this.extensions.cacheable(method));
    const perCaller = cacheable && this.catalogue.composed && this.catalogue.compiled().perCaller;
    return this.#decorations.of(method, cacheable, perCaller);
  }

  /**
   * One `subscriptions/listen` stream. Its resource URIs are taken from the subscription
   * counts first (the author's `subscribe` hook may refuse some: they are left out of the
   * acknowledged filter) and given back when the stream ends.
   */
  async #listen(scope: RequestScope): Promise<Params> {
    const params = requestOf(scope).params ?? {};
    const limits = this.#options.limits;
    const maxListens = limits?.maxListenStreams ?? 10_000;
    if (this.listens.size >= maxListens) {
      throw WireError.of(
        'InvalidRequest',
        `more than ${maxListens} open listen streams (limits.maxListenStreams)`,
      );
    }
    const filter = honouredFilter(
      params.notifications,
      this.#capabilities(),
      limits?.maxResourceSubscriptions,
    );
    const contributions = this.extensions.listen(params.notifications, scope);
    const wanted = filter.resourceSubscriptions ?? [];
    const taken = this.subscriptions.acquireAll(wanted);
    // While subscribe hooks run, events are kept for after the acknowledgment (listen.ts).
    const early = Array.isArray(taken) ? undefined : new EarlyEvents(this.eventBus, wanted);
    const held = Array.isArray(taken) ? taken : await taken;
    if (filter.resourceSubscriptions) filter.resourceSubscriptions = held;
    if (held.length === 0) delete filter.resourceSubscriptions;
    let release: () => void = () => undefined;
    try {
      release = this.#listenQuota.acquire(principalKey(scope.auth, bindingOf(scope).principal));
      return await listen({
        id: requestOf(scope).id,
        filter,
        bus: this.eventBus,
        channel: scope,
        open: this.listens,
        closing: lineOf(scope).closing,
        requested: params.notifications,
        contributions,
        views: this.catalogue.composed ? new ViewTracker(this.catalogue, scope) : undefined,
        early,
      });
    } finally {
      early?.take();
      release();
      for (const uri of held) this.subscriptions.release(uri);
    }
  }

  // A legacy client's initialize on a modern-only server: name what we speak (versioning.mdx).
  #unknownModern(method: string): WireError {
    if (method !== 'initialize' || this.legacy.length > 0) return methodNotFound(method);
    return WireError.of(
      'MethodNotFound',
      `initialize is not supported: this server speaks only ${this.modern.join(', ')} (no initialize handshake)`,
      { supported: [...this.modern] },
    );
  }

  #discover(): Params {
    const result: Params = {
      supportedVersions: [...this.supportedVersions],
      capabilities: this.#capabilities(),
    };
    if (this.#options.instructions !== undefined) result.instructions = this.#options.instructions;
    return result;
  }

  /** Not an async frame (one tick less per call); {@link dispatch} turns a throw into a rejection. */
  #handleLegacy(scope: RequestScope): Promise<Params> | Params {
    const { method, params = {} } = requestOf(scope);
    const sessionMethod = ownEntry(SESSION_METHODS, method);
    if (sessionMethod) {
      // Held to what `initialize` advertised to this session (resources.subscribe, logging).
      const advertised = bindingOf(scope).session!.serverCapabilities ?? this.#capabilities();
      if (!declares(advertised, serverCapabilityNeeded(method))) throw methodNotFound(method);
      return sessionMethod(bindingOf(scope).session!, params, {
        maxSubscriptions: this.#options.limits?.maxResourceSubscriptions,
        subscriptions: this.subscriptions,
      });
    }
    enterLegacy(scope);
    if (this.extensions.handles(method, 'legacy')) return this.extensions.call(scope);
    if (this.extensions.relays(method, 'legacy')) return this.extensions.relay(scope);
    const taken = this.extensions.intercept(scope);
    if (taken) return taken;
    if (!INPUT_METHODS.has(method)) return this.#runFeatureDecorated(scope);
    return runWithLegacyInput(scope, () => this.#runFeatureDecorated(scope));
  }

  /** A core feature method's result, with the `_meta` negotiated extensions contribute. */
  #runFeatureDecorated(scope: RequestScope): Promise<Params> | Params {
    const result = this.#runFeature(scope);
    if (!this.extensions.decorating) return result;
    return thenOrNow(result, this.#decorate, scope);
  }

  // Made once per dispatcher, so a decorated result costs no closure per request.
  readonly #decorate = (result: Params, scope: RequestScope): Params =>
    this.extensions.decorate(requestOf(scope).method, result, scope);

  #runFeature(scope: RequestScope): Promise<Params> | Params {
    const { method, params = {} } = requestOf(scope);
    const feature = ownEntry(FEATURE_METHODS, method);
    if (!feature || !this.#declares(method)) throw methodNotFound(method);
    return feature(this.features, params, scope);
  }

  /**
   * Whether the server's current capabilities declare what `method` needs, remembered per
   * method for as long as the capabilities object is the same (it is remade on a change).
   */
  #declares(method: string): boolean {
    const caps = this.#capabilities();
    if (this.#declared.caps !== caps) this.#declared = { caps, methods: new Map() };
    let ok = this.#declared.methods.get(method);
    if (ok === undefined)
      this.#declared.methods.set(method, (ok = declares(caps, serverCapabilityNeeded(method))));
    return ok;
  }
  #declared: { caps: ServerCapabilities | undefined; methods: Map<string, boolean> } = {
    caps: undefined,
    methods: new Map(),
  };
}
