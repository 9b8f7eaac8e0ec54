/**
 * The MCP client: connects over any {@link Transport}, finds out the server's era by itself,
 * and sends requests the way that era expects (per-request `_meta` on modern; a session
 * opened by `initialize` on legacy).
 * Source: 2026-07-28 basic/versioning, basic/transports/stdio "Backward Compatibility",
 * basic/index "_meta" and "Result type"; 2025-11-25 basic/lifecycle.
 */
import { NotificationGate } from './notification-gate.js';
import { McpkitError } from '../core/errors.js';
import type { JsonRpcNotification, Params } from '../core/jsonrpc.js';
import type { RequestOptions } from '../core/peer.js';
import { TASKS_EXTENSION } from '../core/tasks.js';
import { TaskHandle, type TaskPort, type TaskReference } from './tasks.js';
import type { Era } from '../core/revisions.js';
import type { Transport } from '../core/transport.js';
import type {
  CompletionArguments,
  DiscoverResult,
  Implementation,
  LoggingLevel,
  Prompt,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  SubscriptionFilter,
  Tool,
} from '../core/types/index.js';
import { clientInfoOf, declareCapabilities, type DeclaredCapabilities } from './capabilities.js';
import { Connection, type RelayOptions } from './connection.js';
import type { CallOptions } from './connection-types.js';
import { createLister, LIST_KINDS, type Lister, type ListPage } from './lists.js';
import { ListViews } from './views.js';
import { sendLegacyOnly } from './legacy-only.js';
import { openSubscription, SubscriptionRouter, type ListenOptions } from './listen.js';
import type { ClientOptions } from './options.js';
import type { ResultFor, ResultOf, SharedMethod } from './request-types.js';
import type { Subscription } from './subscription.js';
import { ToolOutputChecker } from './tool-output.js';

/**
 * A connection to one MCP server. Create it with {@link createClient}, then `connect()`.
 * Every method rejects with McpError for a wire error from the server (including legacy
 * -32002 resource-not-found), McpkitError `TIMEOUT`/`ABORTED`/`CONNECTION_CLOSED` for local
 * failures, and McpkitError `INVALID_RESULT` for a result the client cannot accept.
 */
export class Client {
  readonly #options: ClientOptions;
  readonly #capabilities: DeclaredCapabilities;
  readonly #clientInfo: Implementation;
  readonly #tools: ToolOutputChecker;
  readonly #subscriptions = new SubscriptionRouter();
  readonly #lists: Lister;
  readonly #views: ListViews;
  readonly #gate: NotificationGate;
  #connection: Connection | undefined;
  #connecting = false;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#capabilities = declareCapabilities(options);
    this.#clientInfo = clientInfoOf(options);
    this.#tools = new ToolOutputChecker({ maxBytes: 256 * 1024, ...options.limits?.schema });
    this.#lists = createLister(() => this.#connected(), options.maxListPages ?? 1000);
    this.#views = new ListViews(
      (kind, params) => this.#connected().roundTrip(LIST_KINDS[kind].method, params),
      {
        maxPages: options.maxListPages ?? 1000,
      },
    );
    const maxLogMessagesPerSecond = options.limits?.maxLogMessagesPerSecond;
    this.#gate = new NotificationGate(
      (notification) => this.#options.onNotification?.(notification),
      maxLogMessagesPerSecond === undefined ? {} : { maxLogMessagesPerSecond },
    );
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
  async tools(): Promise<Tool[]> {
    const view = await this.#views.get<Tool>('tools');
    this.#tools.record(view.items, true);
    return view.items;
  }

  /** The server's prompts, from the cache while fresh. */
  async prompts(): Promise<Prompt[]> {
    return (await this.#views.get<Prompt>('prompts')).items;
  }

  /** The server's resources, from the cache while fresh. */
  async resources(): Promise<Resource[]> {
    return (await this.#views.get<Resource>('resources')).items;
  }

  /**
   * Starts `transport` and settles the era: probed with `server/discover` (`era: 'auto'`),
   * or pinned, or taken from `eraCache`. On failure the transport is closed again. A closed
   * client may connect again.
   * @throws McpkitError `UNSUPPORTED_ERA` when no protocol version is mutually supported;
   *   `INVALID_ARGUMENT` when already connected; errors of the handshake otherwise.
   */
  async connect(transport: Transport): Promise<void> {
    if (this.#connecting || (this.#connection && !this.#connection.isClosed)) {
      throw new McpkitError('INVALID_ARGUMENT', 'client is already connected');
    }
    this.#connecting = true;
    this.#tools.forget();
    this.#views.clear();
    try {
      this.#connection = await Connection.open(transport, {
        options: this.#options,
        capabilities: this.#capabilities,
        clientInfo: this.#clientInfo,
        onNotification: (n) => this.#onNotification(n),
      });
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
  get serverInfo(): Implementation | undefined {
    return this.#connection?.server.serverInfo;
  }

  /** The server's capabilities, when known (a pinned modern era learns them from `discover()`). */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#connection?.server.serverCapabilities;
  }

  /** The server's instructions for the model, when it gave any. */
  get instructions(): string | undefined {
    return this.#connection?.server.instructions;
  }

  /**
   * Sends any request and returns its complete result. On modern, `_meta` gets the
   * per-request protocol fields (caller `_meta` is kept); on legacy, params go as given.
   * An `input_required` result (modern tools/call, resources/read, prompts/get) is answered
   * with the `handlers` and the request retried, with a new id, until it completes
   * (basic/patterns/mrtr); `options.signal` also aborts the handlers.
   * With `relayInputRequired` an `input_required` result is returned as it is, and
   * `clientCapabilities` replaces the declared capabilities in a modern request's `_meta`
   * (both for proxies relaying another client's request). With `acceptTask` a task result
   * (`resultType: "task"`, SEP-2663) is returned as it is too.
   * @throws McpkitError `INVALID_RESULT` for an unknown `resultType`, `input_required` where
   *   it is not allowed, an input request no handler answers, or more than
   *   `maxInputRounds` rounds; `ABORTED`; whatever a handler throws.
   */
  request<M extends string>(
    method: M,
    params?: Params,
    options?: RequestOptions & RelayOptions & Pick<CallOptions, 'acceptTask'>,
  ): Promise<ResultFor<M>> {
    return this.#connected().roundTrip(method, params, options) as Promise<ResultFor<M>>;
  }

  /**
   * `server/discover` (modern only): refreshes `serverInfo`, `serverCapabilities` and
   * `instructions`.
   * @throws McpkitError `UNSUPPORTED_ERA` on a legacy server.
   */
  discover(options?: RequestOptions): Promise<DiscoverResult> {
    return this.#connected().discover(options);
  }

  /** All tools, every page fetched (`tools/list`); also what `callTool` validates against. */
  async listTools(options?: RequestOptions): Promise<Tool[]> {
    const tools = await this.#lists.all<Tool>('tools', options);
    this.#tools.record(tools, true);
    return tools;
  }

  /** One page of `tools/list`, raw. */
  async listToolsPage(cursor?: string, options?: RequestOptions): Promise<ListPage<'tools'>> {
    const page = await this.#lists.page('tools', cursor, options);
    this.#tools.record(page.tools, false);
    return page;
  }

  /** All resources, every page fetched (`resources/list`). */
  listResources(options?: RequestOptions): Promise<Resource[]> {
    return this.#lists.all<Resource>('resources', options);
  }

  /** One page of `resources/list`, raw. */
  listResourcesPage(cursor?: string, options?: RequestOptions): Promise<ListPage<'resources'>> {
    return this.#lists.page('resources', cursor, options);
  }

  /** All resource templates, every page fetched (`resources/templates/list`). */
  listResourceTemplates(options?: RequestOptions): Promise<ResourceTemplate[]> {
    return this.#lists.all<ResourceTemplate>('resourceTemplates', options);
  }

  /** One page of `resources/templates/list`, raw. */
  listResourceTemplatesPage(
    cursor?: string,
    options?: RequestOptions,
  ): Promise<ListPage<'resourceTemplates'>> {
    return this.#lists.page('resourceTemplates', cursor, options);
  }

  /** All prompts, every page fetched (`prompts/list`). */
  listPrompts(options?: RequestOptions): Promise<Prompt[]> {
    return this.#lists.all<Prompt>('prompts', options);
  }

  /** One page of `prompts/list`, raw. */
  listPromptsPage(cursor?: string, options?: RequestOptions): Promise<ListPage<'prompts'>> {
    return this.#lists.page('prompts', cursor, options);
  }

  /**
   * `tools/call`. When the tool declares an `outputSchema` (from the last `listTools()`,
   * fetched first if the tool is unknown) and the result is not `isError: true`, its
   * `structuredContent` must be present and match (server/tools "Output schema").
   * With `{ task: 'allow' }` the call declares the Tasks extension and the server may
   * answer with a task instead: you then get a {@link TaskHandle} (SEP-2663).
   * @throws McpkitError `INVALID_RESULT` on a missing or mismatching `structuredContent`.
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
  async callTool(
    name: string,
    args?: { [key: string]: unknown },
    options: ToolCallOptions = {},
  ): Promise<ResultOf<'tools/call'> | TaskHandle> {
    await this.#tools.ensureListed(name, () => this.listTools());
    const params = args === undefined ? { name } : { name, arguments: args };
    const { task, ...rest } = options;
    const callOptions = task === 'allow' ? { ...rest, extensions: TASKS, acceptTask: true } : rest;
    const result = await this.#call('tools/call', params, callOptions);
    if (task === 'allow' && result.resultType === 'task') return this.#taskHandle(name, result);
    await this.#tools.check(name, result);
    return result;
  }

  /** A handle on a task from its serialised {@link TaskReference} (e.g. after a restart). */
  resumeTask(reference: TaskReference): TaskHandle {
    return new TaskHandle(this.#taskPort(), reference);
  }

  #taskHandle(name: string, created: Params): TaskHandle {
    if (typeof created.taskId !== 'string')
      throw new McpkitError('INVALID_RESULT', 'tools/call: a task result without a taskId');
    const reference: TaskReference = { taskId: created.taskId, toolName: name };
    if (typeof created.pollIntervalMs === 'number') reference.pollIntervalMs = created.pollIntervalMs;
    return new TaskHandle(this.#taskPort(), reference);
  }

  #taskPort(): TaskPort {
    return {
      request: (method, params) => this.#connected().roundTrip(method, params, { extensions: TASKS }),
      answerInputs: (label, requests, signal) => this.#connected().answerInputs(label, requests, signal),
      listen: (taskId) => this.listen({ taskIds: [taskId] }),
      checkResult: async (name, result) => {
        await this.#tools.ensureListed(name, () => this.listTools());
        await this.#tools.check(name, result as ResultOf<'tools/call'>);
      },
    };
  }

  /** `resources/read`. An unknown resource is an McpError (-32602 modern, -32002 legacy). */
  async readResource(uri: string, options?: RequestOptions): Promise<ResultOf<'resources/read'>> {
    return this.#call('resources/read', { uri }, options);
  }

  /** `prompts/get` with string arguments. */
  async getPrompt(
    name: string,
    args?: { [key: string]: string },
    options?: RequestOptions,
  ): Promise<ResultOf<'prompts/get'>> {
    const params = args === undefined ? { name } : { name, arguments: args };
    return this.#call('prompts/get', params, options);
  }

  /** `completion/complete`: suggestions for `argument` of a prompt or resource template. */
  async complete(
    ref: CompletionArguments['ref'],
    argument: CompletionArguments['argument'],
    context?: CompletionArguments['context'],
    options?: RequestOptions,
  ): Promise<ResultOf<'completion/complete'>> {
    const params: Params = context === undefined ? { ref, argument } : { ref, argument, context };
    return this.#call('completion/complete', params, options);
  }

  /**
   * `ping` (legacy only; the modern protocol has none).
   * @throws McpkitError `UNSUPPORTED_ERA` on a modern server.
   */
  async ping(options?: RequestOptions): Promise<void> {
    await sendLegacyOnly(this.#connected(), { method: 'ping' }, options);
  }

  /**
   * `logging/setLevel` (legacy only).
   * @throws McpkitError `UNSUPPORTED_ERA` on a modern server, which takes the level per
   *   request: use the `logLevel` option.
   */
  async setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
    await sendLegacyOnly(this.#connected(), { method: 'logging/setLevel', params: { level } }, options);
  }

  /**
   * `resources/subscribe` (legacy only); updates arrive through `onNotification`.
   * @throws McpkitError `UNSUPPORTED_ERA` on a modern server (which uses `subscriptions/listen`).
   */
  async subscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    await sendLegacyOnly(this.#connected(), { method: 'resources/subscribe', params: { uri } }, options);
  }

  /**
   * `resources/unsubscribe` (legacy only).
   * @throws McpkitError `UNSUPPORTED_ERA` on a modern server.
   */
  async unsubscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    await sendLegacyOnly(this.#connected(), { method: 'resources/unsubscribe', params: { uri } }, options);
  }

  /**
   * Tells a legacy server the roots changed (`notifications/roots/list_changed`). On modern
   * it does nothing: a modern server asks for roots afresh with each request.
   */
  notifyRootsChanged(): void {
    const connection = this.#connected();
    if (connection.server.era === 'legacy') connection.notify('notifications/roots/list_changed');
  }

  /**
   * Subscribes to change notifications, on either era (basic/patterns/subscriptions).
   * Modern: a long-lived `subscriptions/listen` request (no timeout) whose notifications
   * are those tagged with its id. Legacy: the session's list_changed notifications that
   * `filter` asks for, and `resources/subscribe` for `resourceSubscriptions` (unsubscribed
   * again on close). A tools list_changed also invalidates the tool list `callTool` checks
   * against, as every one the client receives does. Every notification still reaches
   * `onNotification` too.
   * @throws McpkitError `CONNECTION_CLOSED` when not connected; later failures end the
   *   iteration (see {@link Subscription}).
   */
  listen(filter: SubscriptionFilter, options: ListenOptions = {}): Subscription {
    this.#connected();
    return openSubscription({ filter, options, router: this.#subscriptions, connection: () => this.#open() });
  }

  /** Closes the connection; pending requests reject with McpkitError `CONNECTION_CLOSED`. */
  async close(): Promise<void> {
    this.#gate.close();
    await this.#connection?.close();
  }

  #onNotification(notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/tools/list_changed') this.#tools.forget();
    this.#views.invalidate(notification.method);
    this.#subscriptions.deliver(notification);
    if (this.#options.onNotification) this.#gate.receive(notification);
  }

  #connected(): Connection {
    const connection = this.#open();
    if (!connection) throw this.#notConnected();
    return connection;
  }

  /** Why there is no connection: never connected, or closed — and then why it closed. */
  #notConnected(): McpkitError {
    const reason: unknown = this.#connection?.closedSignal.reason;
    // A clean close aborts without a reason of its own (an AbortError).
    if (!(reason instanceof Error) || reason.name === 'AbortError') {
      return new McpkitError('CONNECTION_CLOSED', 'client is not connected');
    }
    const message = `the connection to the server is closed: ${reason.message}`;
    return new McpkitError('CONNECTION_CLOSED', message, { cause: reason });
  }

  #open(): Connection | undefined {
    return this.#connection?.isClosed === false ? this.#connection : undefined;
  }

  async #call<M extends SharedMethod>(
    method: M,
    params: Params,
    options?: RequestOptions,
  ): Promise<ResultOf<M>> {
    return (await this.#connected().roundTrip(method, params, options)) as ResultOf<M>;
  }
}

/** Options of {@link Client.callTool}. */
export interface ToolCallOptions extends RequestOptions {
  /** `'allow'`: declare the Tasks extension; the server may answer with a task (a {@link TaskHandle}). */
  task?: 'allow' | 'never';
}

const TASKS = { [TASKS_EXTENSION]: {} };

/** Creates a client; call `connect(transport)` next. */
export function createClient(options: ClientOptions): Client {
  return new Client(options);
}
