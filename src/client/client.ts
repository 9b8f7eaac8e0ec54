/**
 * The MCP client: connects over any {@link Transport}, finds out the server's era by itself,
 * and sends requests the way that era expects (per-request `_meta` on modern; a session
 * opened by `initialize` on legacy).
 * Source: 2026-07-28 basic/versioning, basic/transports/stdio "Backward Compatibility",
 * basic/index "_meta" and "Result type"; 2025-11-25 basic/lifecycle.
 */
import type { Params } from '../core/jsonrpc.js';
import type { RequestOptions } from '../core/peer.js';
import type { TaskHandle, TaskReference } from './tasks.js';
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
import { ClientCore, completionParams } from './client-core.js';
import type { RelayOptions } from './connection.js';
import type { CallOptions } from './connection-types.js';
import type { ListPage } from './lists.js';
import type { ListViews } from './views.js';
import type { ListenOptions } from './listen.js';
import type { ClientOptions } from './options.js';
import type { ResultFor, ResultOf } from './request-types.js';
import type { Subscription } from './subscription.js';
import type { ToolCallOptions } from './tool-calls.js';

/**
 * A connection to one MCP server. Create it with {@link createClient}, then `connect()`.
 * Every method rejects with McpError for a wire error from the server (including legacy
 * -32002 resource-not-found), McpkitError `TIMEOUT`/`ABORTED`/`CONNECTION_CLOSED` for local
 * failures, and McpkitError `INVALID_RESULT` for a result the client cannot accept.
 */
export class Client {
  readonly #core: ClientCore;

  constructor(options: ClientOptions) {
    this.#core = new ClientCore(options);
  }

  /**
   * Cached views of the server's lists: `views.get('tools')` returns the whole list from
   * the cache while it is fresh (the server's `ttlMs`), otherwise fetches it again; a
   * list_changed notification drops it at once. See {@link ListViews}.
   */
  get views(): Pick<ListViews, 'get'> {
    return this.#core.views;
  }

  /** The server's tools, from the cache while fresh (server/utilities/caching). */
  async tools(): Promise<Tool[]> {
    return this.#core.cachedTools();
  }

  /** The server's prompts, from the cache while fresh. */
  async prompts(): Promise<Prompt[]> {
    return (await this.#core.views.get<Prompt>('prompts')).items;
  }

  /** The server's resources, from the cache while fresh. */
  async resources(): Promise<Resource[]> {
    return (await this.#core.views.get<Resource>('resources')).items;
  }

  /**
   * Starts `transport` and settles the era: probed with `server/discover` (`era: 'auto'`),
   * or pinned, or taken from `eraCache`. On failure the transport is closed again. A closed
   * client may connect again.
   * @throws McpkitError `UNSUPPORTED_ERA` when no protocol version is mutually supported;
   *   `INVALID_ARGUMENT` when already connected; errors of the handshake otherwise.
   */
  async connect(transport: Transport): Promise<void> {
    await this.#core.connect(transport);
  }

  /** `'modern'` or `'legacy'`; undefined before `connect()` resolves. */
  get era(): Era | undefined {
    return this.#core.server?.era;
  }

  /** The revision in use, e.g. `'2026-07-28'` or `'2025-11-25'`. */
  get protocolVersion(): string | undefined {
    return this.#core.server?.protocolVersion;
  }

  /** The server's name and version, when known (legacy: `initialize`; modern: `server/discover`). */
  get serverInfo(): Implementation | undefined {
    return this.#core.server?.serverInfo;
  }

  /** The server's capabilities, when known (a pinned modern era learns them from `discover()`). */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#core.server?.serverCapabilities;
  }

  /** The server's instructions for the model, when it gave any. */
  get instructions(): string | undefined {
    return this.#core.server?.instructions;
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
    return this.#core.connected().roundTrip(method, params, options) as Promise<ResultFor<M>>;
  }

  /**
   * `server/discover` (modern only): refreshes `serverInfo`, `serverCapabilities` and
   * `instructions`.
   * @throws McpkitError `UNSUPPORTED_ERA` on a legacy server.
   */
  discover(options?: RequestOptions): Promise<DiscoverResult> {
    return this.#core.connected().discover(options);
  }

  /** All tools, every page fetched (`tools/list`); also what `callTool` validates against. */
  async listTools(options?: RequestOptions): Promise<Tool[]> {
    return this.#core.listTools(options);
  }

  /** One page of `tools/list`, raw. */
  async listToolsPage(cursor?: string, options?: RequestOptions): Promise<ListPage<'tools'>> {
    return this.#core.listToolsPage(cursor, options);
  }

  /** All resources, every page fetched (`resources/list`). */
  listResources(options?: RequestOptions): Promise<Resource[]> {
    return this.#core.lists.all<Resource>('resources', options);
  }

  /** One page of `resources/list`, raw. */
  listResourcesPage(cursor?: string, options?: RequestOptions): Promise<ListPage<'resources'>> {
    return this.#core.lists.page('resources', cursor, options);
  }

  /** All resource templates, every page fetched (`resources/templates/list`). */
  listResourceTemplates(options?: RequestOptions): Promise<ResourceTemplate[]> {
    return this.#core.lists.all<ResourceTemplate>('resourceTemplates', options);
  }

  /** One page of `resources/templates/list`, raw. */
  listResourceTemplatesPage(
    cursor?: string,
    options?: RequestOptions,
  ): Promise<ListPage<'resourceTemplates'>> {
    return this.#core.lists.page('resourceTemplates', cursor, options);
  }

  /** All prompts, every page fetched (`prompts/list`). */
  listPrompts(options?: RequestOptions): Promise<Prompt[]> {
    return this.#core.lists.all<Prompt>('prompts', options);
  }

  /** One page of `prompts/list`, raw. */
  listPromptsPage(cursor?: string, options?: RequestOptions): Promise<ListPage<'prompts'>> {
    return this.#core.lists.page('prompts', cursor, options);
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
  callTool(name: string, args?: Params, options: ToolCallOptions = {}): Promise<unknown> {
    return this.#core.tools.call(name, args, options);
  }

  /** A handle on a task from its serialised {@link TaskReference} (e.g. after a restart). */
  resumeTask(reference: TaskReference): TaskHandle {
    return this.#core.tools.resume(reference);
  }

  /** `resources/read`. An unknown resource is an McpError (-32602 modern, -32002 legacy). */
  async readResource(uri: string, options?: RequestOptions): Promise<ResultOf<'resources/read'>> {
    return this.#core.call('resources/read', { uri }, options);
  }

  /** `prompts/get` with string arguments. */
  async getPrompt(
    name: string,
    args?: { [key: string]: string },
    options?: RequestOptions,
  ): Promise<ResultOf<'prompts/get'>> {
    return this.#core.call('prompts/get', args === undefined ? { name } : { name, arguments: args }, options);
  }

  /** `completion/complete`: suggestions for `argument` of a prompt or resource template. */
  async complete(
    ref: CompletionArguments['ref'],
    argument: CompletionArguments['argument'],
    context?: CompletionArguments['context'],
    options?: RequestOptions,
  ): Promise<ResultOf<'completion/complete'>> {
    return this.#core.call('completion/complete', completionParams(ref, argument, context), options);
  }

  /**
   * `ping` (legacy only; the modern protocol has none).
   * @throws McpkitError `UNSUPPORTED_ERA` on a modern server.
   */
  async ping(options?: RequestOptions): Promise<void> {
    await this.#core.legacy({ method: 'ping' }, options);
  }

  /**
   * `logging/setLevel` (legacy only).
   * @throws McpkitError `UNSUPPORTED_ERA` on a modern server, which takes the level per
   *   request: use the `logLevel` option.
   */
  async setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
    await this.#core.legacy({ method: 'logging/setLevel', params: { level } }, options);
  }

  /**
   * `resources/subscribe` (legacy only); updates arrive through `onNotification`.
   * @throws McpkitError `UNSUPPORTED_ERA` on a modern server (which uses `subscriptions/listen`).
   */
  async subscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    await this.#core.legacy({ method: 'resources/subscribe', params: { uri } }, options);
  }

  /**
   * `resources/unsubscribe` (legacy only).
   * @throws McpkitError `UNSUPPORTED_ERA` on a modern server.
   */
  async unsubscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    await this.#core.legacy({ method: 'resources/unsubscribe', params: { uri } }, options);
  }

  /**
   * Tells a legacy server the roots changed (`notifications/roots/list_changed`). On modern
   * it does nothing: a modern server asks for roots afresh with each request.
   */
  notifyRootsChanged(): void {
    this.#core.notifyRootsChanged();
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
    return this.#core.listen(filter, options);
  }

  /** Closes the connection; pending requests reject with McpkitError `CONNECTION_CLOSED`. */
  async close(): Promise<void> {
    await this.#core.close();
  }
}

/** Creates a client; call `connect(transport)` next. */
export function createClient(options: ClientOptions): Client {
  return new Client(options);
}
