/**
 * The MCP client: connects over any {@link Transport}, finds out the server's era by itself,
 * and sends requests the way that era expects (per-request `_meta` on modern; a session
 * opened by `initialize` on legacy). It holds one connection at a time, the caches (tool
 * schemas, list views) and the routing of every notification the server sends (caches,
 * listen subscriptions, the rate-limited `onNotification` gate).
 * Source: 2026-07-28 basic/versioning, basic/transports/stdio "Backward Compatibility",
 * basic/index "_meta" and "Result type", basic/patterns/subscriptions,
 * server/utilities/caching; 2025-11-25 basic/lifecycle.
 */
import {
  LocalError,
  extensionSettings,
  type JsonRpcNotification,
  type Params,
  type RequestId,
  type RequestOptions,
  type Era,
  type Transport,
} from '../core/index.js';
import type * as T from '../core/index.js';
import { clientCapabilityNeeded, declares } from '../core/runtime.js';
import { clientInfoOf, declareCapabilities } from './capabilities.js';
import { Connection, type ConnectionSetup } from './connection.js';
import { sendLegacyOnly, type LegacyOnlyMethod } from './legacy/only.js';
import { openSubscription, SubscriptionRouter, type ListenOptions } from './listen.js';
import { LIST_KINDS, listAll, listPage, ListViews, type ListKind, type ListPage } from './lists.js';
import { NotificationGate } from './notification-gate.js';
import type { ClientOptions } from './options.js';
import type { ParamsFor, ResultFor, ResultOf, SharedMethod } from './request-types.js';
import type { Subscription } from './subscription.js';
import type { ListsPort } from './listen-recovery.js';
import { TaskHandle, type TaskPort, type TaskReference } from './tasks.js';
import { ToolCalls, type ToolCallOptions } from './tools.js';
import { declaration, methodOwners, tasksExtension, type ClientExtension } from './extension.js';

let liveOf: (client: Client) => Connection;

/**
 * A connection to one MCP server. Create it with {@link createClient}, then `connect()`.
 * Every method rejects with WireError for a wire error from the server (including legacy
 * -32002 resource-not-found), LocalError `TIMEOUT`/`ABORTED`/`CONNECTION_CLOSED` for local
 * failures, and LocalError `INVALID_RESULT` for a result the client cannot accept.
 */
export class Client {
  static {
    liveOf = (client) => client.#live();
  }

  readonly #setup: ConnectionSetup;
  readonly #maxPages: number;
  readonly #tools: ToolCalls;
  readonly #views: ListViews;
  readonly #subscriptions = new SubscriptionRouter();
  /** The lists as listen recovery compares them across a gap between two listens. */
  readonly #lists: ListsPort = {
    seen: (kind) => this.#views.seen(kind),
    refresh: async (kind) => {
      const view = await this.#views.refresh(kind);
      if (kind === 'tools') this.#tools.record(view.items as T.Tool[], true);
      return this.#views.seen(kind) ?? '';
    },
    changed: (feature) => feature === 'tools' && this.#tools.forget(),
  };
  readonly #gate: NotificationGate;
  readonly #tasks: TaskPort;
  /** The extension each extension method belongs to (the built-in Tasks one unless replaced). */
  readonly #owners: Map<string, ClientExtension>;
  #connection: Connection | undefined;
  #connecting = false;

  constructor(options: ClientOptions) {
    this.#maxPages = options.maxListPages ?? 1000;
    const extensions = options.extensions ?? [];
    const builtIn = extensions.some((e) => e.id === tasksExtension.id) ? [] : [tasksExtension];
    this.#owners = methodOwners([...extensions, ...builtIn]);
    this.#setup = {
      options,
      capabilities: declareCapabilities(options),
      clientInfo: clientInfoOf(options),
      onNotification: (n, related) => this.#onNotification(n, related),
    };
    this.#views = new ListViews((kind, params) => this.#live().roundTrip(LIST_KINDS[kind].method, params), {
      maxPages: this.#maxPages,
    });
    const maxLogMessagesPerSecond = options.limits?.maxLogMessagesPerSecond;
    this.#gate = new NotificationGate(
      (notification, related) =>
        options.onNotification?.(notification, related === undefined ? {} : { relatedRequestId: related }),
      maxLogMessagesPerSecond === undefined ? {} : { maxLogMessagesPerSecond },
    );
    this.#tasks = {
      request: (method, params) => this.#extensionRequest(method, params as Params) as never,
      answerInputs: (label, requests, signal) => this.#live().answerInputs(label, requests, signal),
      listen: (taskId) => this.listen({ taskIds: [taskId] }),
      checkResult: (name, result) => this.#tools.checkResult(this.#live(), name, result),
    };
    this.#tools = new ToolCalls({
      limits: options.limits?.schema,
      maxPages: this.#maxPages,
      tasks: this.#tasks,
      warn: options.onWarning,
    });
  }

  /**
   * Cached views of the server's lists: `views.get('tools')` returns the whole list from
   * the cache while it is fresh (the server's `ttlMs`), otherwise fetches it again; a
   * list_changed notification drops it at once. See {@link ListViews}.
   */
  get views(): Pick<ListViews, 'get'> {
    return this.#views;
  }

  /** The server's tools, from the cache while fresh (server/utilities/caching). */
  async tools(): Promise<T.Tool[]> {
    const view = await this.#views.get<T.Tool>('tools');
    this.#tools.record(view.items, true);
    return view.items;
  }

  /** The server's prompts, from the cache while fresh. */
  async prompts(): Promise<T.Prompt[]> {
    return (await this.#views.get<T.Prompt>('prompts')).items;
  }

  /** The server's resources, from the cache while fresh. */
  async resources(): Promise<T.Resource[]> {
    return (await this.#views.get<T.Resource>('resources')).items;
  }

  /**
   * Starts `transport` and settles the era: probed with `server/discover` (`era: 'auto'`),
   * or pinned, or taken from `eraCache`. On failure the transport is closed again. A closed
   * client may connect again, forgetting the caches of the earlier connection.
   * @throws LocalError `UNSUPPORTED_ERA` when no protocol version is mutually supported;
   *   `INVALID_ARGUMENT` when already connected; errors of the handshake otherwise.
   */
  async connect(transport: Transport): Promise<void> {
    if (this.#connecting || (this.#connection && !this.#connection.isClosed)) {
      throw new LocalError('INVALID_ARGUMENT', 'client is already connected');
    }
    this.#tools.forget();
    this.#views.clear();
    this.#connecting = true;
    try {
      this.#connection = await Connection.open(transport, this.#setup);
    } finally {
      this.#connecting = false;
    }
  }

  /** `'modern'` or `'legacy'`; undefined before `connect()` resolves. */
  get era(): Era | undefined {
    return this.#connection?.server.era;
  }

  /** The revision in use, e.g. `'2026-07-28'` or `'2025-11-25'`. */
  get protocolVersion(): string | undefined {
    return this.#connection?.server.protocolVersion;
  }

  /** The server's name and version, when known (legacy: `initialize`; modern: `server/discover`). */
  get serverInfo(): T.Implementation | undefined {
    return this.#connection?.server.serverInfo;
  }

  /** The server's capabilities, when known (a pinned modern era learns them from `discover()`). */
  get serverCapabilities(): T.ServerCapabilities | undefined {
    return this.#connection?.server.serverCapabilities;
  }

  /**
   * The settings the server declared for extension `id` (`capabilities.extensions[id]`),
   * or undefined when it did not declare it or is not known yet (SEP-2133 "Negotiation").
   */
  serverExtension(id: string): Params | undefined {
    return extensionSettings(this.serverCapabilities, id);
  }

  /** The server's instructions for the model, when it gave any. */
  get instructions(): string | undefined {
    return this.#connection?.server.instructions;
  }

  /**
   * Sends any request and returns its complete result. On modern, `_meta` gets the
   * per-request protocol fields (caller `_meta` is kept); on legacy, params go as given.
   * It declares the extensions advertised always, not those advertised on use (a task
   * handle's own requests declare Tasks; send those through the handle).
   * An `input_required` result (modern tools/call, resources/read, prompts/get) is answered
   * with the `handlers` and the request retried, with a new id, until it completes
   * (basic/patterns/mrtr); `options.signal` also aborts the handlers.
   * @throws LocalError `INVALID_RESULT` for an unknown `resultType`, `input_required` where
   *   it is not allowed, an input request no handler answers, or more than
   *   `maxInputRounds` rounds; `ABORTED`; whatever a handler throws.
   */
  request<M extends string>(
    method: M,
    params?: ParamsFor<M>,
    options?: RequestOptions,
  ): Promise<ResultFor<M>> {
    return this.#live().roundTrip(method, params, options) as Promise<ResultFor<M>>;
  }

  /**
   * `server/discover` (modern only): refreshes `serverInfo`, `serverCapabilities` and
   * `instructions`.
   * @throws LocalError `UNSUPPORTED_ERA` on a legacy server.
   */
  discover(options?: RequestOptions): Promise<T.DiscoverResult> {
    return this.#live().discover(options);
  }

  /** All tools, every page fetched (`tools/list`); also what `callTool` validates against. */
  async listTools(options?: RequestOptions): Promise<T.Tool[]> {
    const tools = await listAll<T.Tool>(this.#sender('tools', options), 'tools', this.#maxPages);
    this.#tools.record(tools, true);
    return tools;
  }

  /** One page of `tools/list`, raw; its tools are recorded for `callTool` too. */
  async listToolsPage(cursor?: string, options?: RequestOptions): Promise<ListPage<'tools'>> {
    const page = await listPage(this.#sender('tools', options), 'tools', cursor);
    this.#tools.record(page.tools, false);
    return page;
  }

  /** All resources, every page fetched (`resources/list`). */
  listResources(options?: RequestOptions): Promise<T.Resource[]> {
    return listAll(this.#sender('resources', options), 'resources', this.#maxPages);
  }

  /** One page of `resources/list`, raw. */
  listResourcesPage(cursor?: string, options?: RequestOptions): Promise<ListPage<'resources'>> {
    return listPage(this.#sender('resources', options), 'resources', cursor);
  }

  /** All resource templates, every page fetched (`resources/templates/list`). */
  listResourceTemplates(options?: RequestOptions): Promise<T.ResourceTemplate[]> {
    return listAll(this.#sender('resourceTemplates', options), 'resourceTemplates', this.#maxPages);
  }

  /** One page of `resources/templates/list`, raw. */
  listResourceTemplatesPage(
    cursor?: string,
    options?: RequestOptions,
  ): Promise<ListPage<'resourceTemplates'>> {
    return listPage(this.#sender('resourceTemplates', options), 'resourceTemplates', cursor);
  }

  /** All prompts, every page fetched (`prompts/list`). */
  listPrompts(options?: RequestOptions): Promise<T.Prompt[]> {
    return listAll(this.#sender('prompts', options), 'prompts', this.#maxPages);
  }

  /** One page of `prompts/list`, raw. */
  listPromptsPage(cursor?: string, options?: RequestOptions): Promise<ListPage<'prompts'>> {
    return listPage(this.#sender('prompts', options), 'prompts', cursor);
  }

  /**
   * `tools/call`. When the tool declares an `outputSchema` (from the last `listTools()`,
   * fetched first if the tool is unknown) and the result is not `isError: true`, its
   * `structuredContent` must be present and match (server/tools "Output schema").
   * With `{ task: 'allow' }` the call declares the Tasks extension and the server may
   * answer with a task instead: you then get a {@link TaskHandle} (SEP-2663).
   * @throws LocalError `INVALID_RESULT` on a missing or mismatching `structuredContent`.
   */
  callTool(
    name: string,
    args: { [key: string]: unknown } | undefined,
    options: ToolCallOptions & { task: 'allow' },
  ): Promise<ResultOf<'tools/call'> | TaskHandle>;
  callTool(
    name: string,
    args?: { [key: string]: unknown },
    options?: ToolCallOptions,
  ): Promise<ResultOf<'tools/call'>>;
  callTool(name: string, args?: Params, options: ToolCallOptions = {}): Promise<unknown> {
    const connection = this.#connection;
    if (connection?.isClosed !== false) return Promise.reject(Connection.notLive(connection));
    return this.#tools.call(connection, args === undefined ? { name } : { name, arguments: args }, options);
  }

  /** A handle on a task from its serialised {@link TaskReference} (e.g. after a restart). */
  resumeTask(reference: TaskReference): TaskHandle {
    return new TaskHandle(this.#tasks, reference);
  }

  /** `resources/read`. An unknown resource is an WireError (-32602 modern, -32002 legacy). */
  readResource(uri: string, options?: RequestOptions): Promise<ResultOf<'resources/read'>> {
    return this.#call('resources/read', { uri }, options);
  }

  /** `prompts/get` with string arguments. */
  getPrompt(
    name: string,
    args?: { [key: string]: string },
    options?: RequestOptions,
  ): Promise<ResultOf<'prompts/get'>> {
    return this.#call('prompts/get', args === undefined ? { name } : { name, arguments: args }, options);
  }

  /** `completion/complete`: suggestions for `argument` of a prompt or resource template. */
  complete(
    ref: T.CompletionArguments['ref'],
    argument: T.CompletionArguments['argument'],
    context?: T.CompletionArguments['context'],
    options?: RequestOptions,
  ): Promise<ResultOf<'completion/complete'>> {
    const params = context === undefined ? { ref, argument } : { ref, argument, context };
    return this.#call('completion/complete', params, options);
  }

  /**
   * `ping` (legacy only; the modern protocol has none).
   * @throws LocalError `UNSUPPORTED_ERA` on a modern server.
   */
  async ping(options?: RequestOptions): Promise<void> {
    await this.#legacy({ method: 'ping' }, options);
  }

  /**
   * `logging/setLevel` (legacy only).
   * @throws LocalError `UNSUPPORTED_ERA` on a modern server, which takes the level per
   *   request: use the `logLevel` option.
   */
  async setLoggingLevel(level: T.LoggingLevel, options?: RequestOptions): Promise<void> {
    await this.#legacy({ method: 'logging/setLevel', params: { level } }, options);
  }

  /**
   * `resources/subscribe` (legacy only); updates arrive through `onNotification`.
   * @throws LocalError `UNSUPPORTED_ERA` on a modern server (which uses `subscriptions/listen`).
   */
  async subscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    await this.#legacy({ method: 'resources/subscribe', params: { uri } }, options);
  }

  /**
   * `resources/unsubscribe` (legacy only).
   * @throws LocalError `UNSUPPORTED_ERA` on a modern server.
   */
  async unsubscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    await this.#legacy({ method: 'resources/unsubscribe', params: { uri } }, options);
  }

  /**
   * Tells a legacy server the roots changed (`notifications/roots/list_changed`), when this
   * client declared `roots.listChanged` (it does with a roots handler). On modern it does
   * nothing: a modern server asks for roots afresh with each request.
   */
  notifyRootsChanged(): void {
    const connection = this.#live();
    const method = 'notifications/roots/list_changed';
    if (connection.server.era !== 'legacy') return;
    if (declares(this.#setup.capabilities.legacy, clientCapabilityNeeded(method, undefined)))
      connection.notify(method);
  }

  /**
   * Subscribes to change notifications, on either era (basic/patterns/subscriptions).
   * Modern: a long-lived `subscriptions/listen` request (no timeout) whose notifications
   * are those tagged with its id. Legacy: the session's list_changed notifications that
   * `filter` asks for, and `resources/subscribe` for `resourceSubscriptions` (unsubscribed
   * again on close). A tools list_changed also invalidates the tool list `callTool` checks
   * against, as every one the client receives does. Every notification still reaches
   * `onNotification` too. When the server completes a listen (shutdown, `maxListenMs`), it
   * is sent again, and the lists followed are fetched and compared, so a change made while
   * no listen was open is still delivered as its list_changed (listen-recovery.ts).
   * @throws LocalError `CONNECTION_CLOSED` when not connected; later failures end the
   *   iteration (see {@link Subscription}).
   */
  listen(filter: T.SubscriptionFilter, options: ListenOptions = {}): Subscription {
    this.#live();
    const connection = () => (this.#connection?.isClosed === false ? this.#connection : undefined);
    return openSubscription({ filter, options, router: this.#subscriptions, connection, lists: this.#lists });
  }

  /** Closes the connection; pending requests reject with LocalError `CONNECTION_CLOSED`. */
  async close(): Promise<void> {
    this.#gate.close();
    await this.#connection?.close();
  }

  /**
   * The live connection.
   * @throws LocalError `CONNECTION_CLOSED`: never connected, or closed (with why it closed).
   */
  #live(): Connection {
    const connection = this.#connection;
    if (connection?.isClosed === false) return connection;
    throw Connection.notLive(connection);
  }

  /**
   * A request the client makes for one of its extensions' methods: the owning extension is
   * declared in its capabilities when it is advertised on use (modern; see `ClientExtension`).
   */
  #extensionRequest(method: string, params: Params): Promise<Params> {
    const owner = this.#owners.get(method);
    const options = owner?.advertise === 'on-use' ? { extensions: declaration(owner) } : undefined;
    return this.#live().roundTrip(method, params, options);
  }

  /** Sends one request of list `kind` with `params` (a cursor, or none) on the live connection. */
  #sender(
    kind: ListKind,
    options: RequestOptions | undefined,
  ): (params: Params | undefined) => Promise<Params> {
    return (params) => this.#live().roundTrip(LIST_KINDS[kind].method, params, options);
  }

  async #call<M extends SharedMethod>(
    method: M,
    params: Params,
    options?: RequestOptions,
  ): Promise<ResultOf<M>> {
    return (await this.#live().roundTrip(method, params, options)) as ResultOf<M>;
  }

  #legacy(request: { method: LegacyOnlyMethod; params?: Params }, options?: RequestOptions): Promise<void> {
    return sendLegacyOnly(this.#live(), request, options);
  }

  #onNotification(notification: JsonRpcNotification, related: RequestId | undefined): void {
    if (notification.method === 'notifications/tools/list_changed') this.#tools.forget();
    this.#views.invalidate(notification.method);
    this.#subscriptions.deliver(notification);
    if (this.#setup.options.onNotification) this.#gate.receive(notification, related);
  }
}

/** Creates a client; call `connect(transport)` next. */
export function createClient(options: ClientOptions): Client {
  return new Client(options);
}

/**
 * The live connection of `client`, for the host's internal face (`runtime.ts`).
 * @throws LocalError `CONNECTION_CLOSED` when there is none.
 */
export function liveConnection(client: Client): Connection {
  return liveOf(client);
}
