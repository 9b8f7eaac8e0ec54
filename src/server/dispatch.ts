/**
 * The request router behind `McpServer.handle`: era routing (a request with modern `_meta`
 * is served statelessly, `initialize` opens a legacy session, anything else belongs to its
 * channel's session), `server/discover`, `subscriptions/listen` and feature dispatch.
 * Source: 2026-07-28 basic/versioning "Backward Compatibility"; 2025-11-25 basic/lifecycle.
 */
import { McpError } from '../core/errors.js';
import type { EventBus } from '../core/event-bus.js';
import type { JsonRpcRequest, Params } from '../core/jsonrpc.js';
import type { LegacyRevision, ModernRevision } from '../core/revisions.js';
import type { RequestStateSealer } from '../core/request-state.js';
import type { Implementation, ServerCapabilities } from '../core/types/index.js';
import type { RequestChannel } from './channel.js';
import { createContext, type RequestContext } from './context.js';
import { CACHEABLE, FEATURE_METHODS, METHOD_CAPABILITY, type Features } from './features.js';
import { SESSION_METHODS, initialize } from './legacy/lifecycle.js';
import { honouredFilter, listen } from './listen.js';
import {
  checkModernMeta,
  decorateModernResult,
  methodNotFound,
  modernVersionOf,
  modernDecoration,
  type CacheHints,
  type ModernDecoration,
  type ModernMeta,
} from './modern.js';
import { runModernFeature, type ModernRunner } from './modern-run.js';
import type { ServerOptions } from './options.js';
import { LegacyChannel, type LegacySession } from './legacy/session.js';
import type { ServerTasks } from './tasks/methods.js';
import { principalKeyOf } from './quota.js';
import { PrincipalQuota } from './middleware/quotas.js';
import type { ResourceSubscriptions } from './subscriptions.js';

/** What the router reads from its server: identity, registries, eras and shared state. */
export interface DispatchDeps {
  readonly info: Implementation;
  readonly options: ServerOptions;
  readonly eventBus: EventBus;
  readonly features: Features;
  readonly modern: readonly ModernRevision[];
  readonly legacy: readonly LegacyRevision[];
  readonly supportedVersions: readonly string[];
  readonly cache: CacheHints;
  readonly sealer: RequestStateSealer;
  /** The open `subscriptions/listen` streams' close functions (shared with the server). */
  readonly listens: Set<() => void>;
  /** Resource subscription counts and the author's hooks (shared with the server). */
  readonly subscriptions: ResourceSubscriptions;
  readonly tasks: ServerTasks;
  /** The server's current capabilities (recomputed after registrations). */
  readonly capabilities: () => ServerCapabilities;
}

/** Routes one request to its era's handling and answers it (see the module comment). */
export class ServerDispatcher {
  readonly #d: DispatchDeps;
  readonly #modernRunner: ModernRunner;
  readonly #decorations: { plain: ModernDecoration; cacheable: ModernDecoration };
  readonly #listenQuota: PrincipalQuota;

  constructor(deps: DispatchDeps) {
    this.#d = deps;
    this.#listenQuota = new PrincipalQuota(
      deps.options.limits?.maxListenStreamsPerPrincipal ?? 1000,
      'open listen streams (limits.maxListenStreamsPerPrincipal)',
    );
    this.#decorations = {
      plain: modernDecoration(deps.info, undefined),
      cacheable: modernDecoration(deps.info, deps.cache),
    };
    this.#modernRunner = {
      sealer: deps.sealer,
      schemaLimits: deps.options.limits?.schema,
      runFeature: (method, params, ctx) => this.#runFeature(method, params, ctx),
    };
  }

  /** Answers one request; throws {@link McpError} for a JSON-RPC error. */
  dispatch(request: JsonRpcRequest, channel: RequestChannel): Promise<Params> {
    // Not an async frame (a promise and a microtask step fewer per call): the era handlers
    // are async themselves; a synchronous throw here still becomes a rejection.
    try {
      if (channel.era === 'modern' || modernVersionOf(request) !== undefined)
        return this.#handleModern(request, channel);
      if (request.method === 'initialize') return Promise.resolve(this.#initialize(request, channel));
      if (channel.session) return this.#handleLegacy(request, channel, channel.session);
      if (request.method === 'ping' && this.#d.legacy.length > 0) return Promise.resolve({});
      return this.#handleModern(request, channel);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  #initialize(request: JsonRpcRequest, channel: RequestChannel): Params {
    if (this.#d.legacy.length === 0) {
      throw McpError.of(
        'InvalidRequest',
        `This server speaks only ${this.#d.modern.join(', ')}; initialize is not supported`,
        {
          supported: [...this.#d.modern],
        },
      );
    }
    const identity = {
      serverInfo: this.#d.info,
      capabilities: this.#d.capabilities(),
      instructions: this.#d.options.instructions,
      legacyRevisions: this.#d.legacy,
    };
    return initialize(request.params, channel, identity);
  }

  async #handleModern(request: JsonRpcRequest, channel: RequestChannel): Promise<Params> {
    if (this.#d.modern.length === 0) throw methodNotFound(request.method);
    if (!MODERN_METHODS.has(request.method) && !this.#d.tasks.handles(request.method))
      throw this.#unknownModern(request.method);
    const meta = checkModernMeta(request.params, this.#d.supportedVersions);
    const base = CACHEABLE.has(request.method) ? this.#decorations.cacheable : this.#decorations.plain;
    if (request.method === 'server/discover') return decorateModernResult(this.#discover(), base);
    if (request.method === 'subscriptions/listen')
      return decorateModernResult(await this.#listen(request, channel, meta), base);
    const tasked = this.#d.tasks.route(request, channel, meta);
    if (tasked) return decorateModernResult(await tasked, base);
    return decorateModernResult(await runModernFeature(this.#modernRunner, request, channel, meta), base);
  }

  /**
   * One `subscriptions/listen` stream. Its resource URIs are taken from the subscription
   * counts first (the author's `subscribe` hook may refuse some: they are left out of the
   * acknowledged filter) and given back when the stream ends.
   */
  async #listen(request: JsonRpcRequest, channel: RequestChannel, meta: ModernMeta): Promise<Params> {
    const params = request.params ?? {};
    const limits = this.#d.options.limits;
    const maxListens = limits?.maxListenStreams ?? 10_000;
    if (this.#d.listens.size >= maxListens) {
      throw McpError.of(
        'InvalidRequest',
        `more than ${maxListens} open listen streams (limits.maxListenStreams)`,
      );
    }
    const filter = honouredFilter(
      params.notifications,
      this.#d.capabilities(),
      limits?.maxResourceSubscriptions,
    );
    const taskIds = this.#d.tasks.listenTaskIds(params.notifications, meta);
    const principal = channel.authInfo?.subject ?? channel.authInfo?.clientId ?? '';
    const tasks = taskIds && {
      ids: taskIds,
      watch: (ids: string[], emit: (task: Params) => void) => this.#d.tasks.watch(ids, emit, principal),
    };
    const wanted = filter.resourceSubscriptions ?? [];
    const taken = this.#d.subscriptions.acquireAll(wanted);
    const held = Array.isArray(taken) ? taken : await taken;
    if (filter.resourceSubscriptions) filter.resourceSubscriptions = held;
    if (held.length === 0) delete filter.resourceSubscriptions;
    let release: () => void = () => undefined;
    try {
      release = this.#listenQuota.acquire(principalKeyOf(channel));
      return await listen({
        id: request.id,
        filter,
        bus: this.#d.eventBus,
        channel,
        open: this.#d.listens,
        tasks,
      });
    } finally {
      release();
      for (const uri of held) this.#d.subscriptions.release(uri);
    }
  }

  // A legacy client's initialize on a modern-only server: name what we speak (versioning.mdx).
  #unknownModern(method: string): McpError {
    if (method !== 'initialize' || this.#d.legacy.length > 0) return methodNotFound(method);
    return McpError.of(
      'MethodNotFound',
      `initialize is not supported: this server speaks only ${this.#d.modern.join(', ')} (no initialize handshake)`,
      { supported: [...this.#d.modern] },
    );
  }

  #discover(): Params {
    const result: Params = {
      supportedVersions: [...this.#d.supportedVersions],
      capabilities: this.#d.capabilities(),
    };
    if (this.#d.options.instructions !== undefined) result.instructions = this.#d.options.instructions;
    return result;
  }

  async #handleLegacy(
    request: JsonRpcRequest,
    channel: RequestChannel,
    session: LegacySession,
  ): Promise<Params> {
    const sessionMethod = SESSION_METHODS[request.method];
    if (sessionMethod) {
      return sessionMethod(session, request.params ?? {}, {
        maxSubscriptions: this.#d.options.limits?.maxResourceSubscriptions,
        subscriptions: this.#d.subscriptions,
      });
    }
    const params = request.params ?? {};
    const meta = (typeof params._meta === 'object' && params._meta !== null ? params._meta : {}) as Record<
      string,
      unknown
    >;
    const schemaLimits = this.#d.options.limits?.schema;
    const ctxChannel = new LegacyChannel({ id: request.id, meta, schemaLimits }, channel, session);
    return this.#runFeature(request.method, params, createContext(ctxChannel));
  }

  #runFeature(method: string, params: Params, ctx: RequestContext): Promise<Params> | Params {
    const feature = FEATURE_METHODS[method];
    const needed = METHOD_CAPABILITY[method];
    if (!feature || (needed && this.#d.capabilities()[needed] === undefined)) throw methodNotFound(method);
    return feature(this.#d.features, params, ctx);
  }
}

const MODERN_METHODS = new Set([...Object.keys(FEATURE_METHODS), 'server/discover', 'subscriptions/listen']);
