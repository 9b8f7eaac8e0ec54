/**
 * The parts behind {@link Client}: the connection slot, the caches (tool schemas, list
 * views) and the routing of every notification the server sends (caches, listen
 * subscriptions, the rate-limited `onNotification` gate). `Client` is the public face and
 * delegates here.
 * Source: 2026-07-28 basic/patterns/subscriptions, server/utilities/caching.
 */
import type { JsonRpcNotification, Params } from '../core/jsonrpc.js';
import type { RequestOptions } from '../core/peer.js';
import type { Transport } from '../core/transport.js';
import type { CompletionArguments, Implementation, SubscriptionFilter, Tool } from '../core/types/index.js';
import { clientInfoOf, declareCapabilities, type DeclaredCapabilities } from './capabilities.js';
import { ConnectionSlot } from './connection-slot.js';
import { sendLegacyOnly, type LegacyOnlyMethod } from './legacy/only.js';
import { openSubscription, SubscriptionRouter, type ListenOptions } from './listen.js';
import { createLister, LIST_KINDS, type Lister, type ListPage } from './lists.js';
import { NotificationGate } from './notification-gate.js';
import type { ClientOptions } from './options.js';
import type { ResultOf, SharedMethod } from './request-types.js';
import type { Subscription } from './subscription.js';
import { ToolCalls } from './tool-calls.js';
import { ListViews } from './views.js';

/** Everything one {@link Client} holds; its methods are what the client's delegate to. */
export class ClientCore {
  /** Tool calls and the tool schemas they check results against. */
  readonly tools: ToolCalls;
  /** Whole lists and single pages, fetched fresh. */
  readonly lists: Lister;
  /** Cached views of the server's lists. */
  readonly views: ListViews;
  readonly #options: ClientOptions;
  readonly #capabilities: DeclaredCapabilities;
  readonly #clientInfo: Implementation;
  readonly #subscriptions = new SubscriptionRouter();
  readonly #gate: NotificationGate;
  readonly #slot = new ConnectionSlot();

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#capabilities = declareCapabilities(options);
    this.#clientInfo = clientInfoOf(options);
    const connected = () => this.#slot.connected();
    this.tools = new ToolCalls(
      { connected, listTools: () => this.listTools(), listen: (filter) => this.listen(filter) },
      options.limits?.schema,
    );
    this.lists = createLister(connected, options.maxListPages ?? 1000);
    this.views = new ListViews((kind, params) => connected().roundTrip(LIST_KINDS[kind].method, params), {
      maxPages: options.maxListPages ?? 1000,
    });
    const maxLogMessagesPerSecond = options.limits?.maxLogMessagesPerSecond;
    this.#gate = new NotificationGate(
      (notification) => this.#options.onNotification?.(notification),
      maxLogMessagesPerSecond === undefined ? {} : { maxLogMessagesPerSecond },
    );
  }

  /** What the last connection learnt about the server; undefined before the first connect. */
  get server() {
    return this.#slot.last?.server;
  }

  /** Opens the slot on `transport`, forgetting the caches of an earlier connection. */
  async connect(transport: Transport): Promise<void> {
    if (!this.#slot.live()) {
      this.tools.forget();
      this.views.clear();
    }
    await this.#slot.open(transport, {
      options: this.#options,
      capabilities: this.#capabilities,
      clientInfo: this.#clientInfo,
      onNotification: (n) => this.#onNotification(n),
    });
  }

  /** The open connection. @throws McpkitError `CONNECTION_CLOSED` when there is none. */
  connected() {
    return this.#slot.connected();
  }

  /** A shared-method request, its result typed. */
  async call<M extends SharedMethod>(
    method: M,
    params: Params,
    options?: RequestOptions,
  ): Promise<ResultOf<M>> {
    return (await this.connected().roundTrip(method, params, options)) as ResultOf<M>;
  }

  /** A legacy-only request (see {@link sendLegacyOnly}). */
  legacy(request: { method: LegacyOnlyMethod; params?: Params }, options?: RequestOptions): Promise<void> {
    return sendLegacyOnly(this.connected(), request, options);
  }

  /** The tools from the cached view, recorded for `callTool`'s checks. */
  async cachedTools(): Promise<Tool[]> {
    const view = await this.views.get<Tool>('tools');
    this.tools.record(view.items, true);
    return view.items;
  }

  /** Every page of `tools/list`, recorded for `callTool`'s checks. */
  async listTools(options?: RequestOptions): Promise<Tool[]> {
    const tools = await this.lists.all<Tool>('tools', options);
    this.tools.record(tools, true);
    return tools;
  }

  /** One page of `tools/list`, its tools recorded too. */
  async listToolsPage(cursor?: string, options?: RequestOptions): Promise<ListPage<'tools'>> {
    const page = await this.lists.page('tools', cursor, options);
    this.tools.record(page.tools, false);
    return page;
  }

  /** A listen subscription on the live connection (see `Client.listen`). */
  listen(filter: SubscriptionFilter, options: ListenOptions = {}): Subscription {
    this.connected();
    const connection = () => this.#slot.live();
    return openSubscription({ filter, options, router: this.#subscriptions, connection });
  }

  /** Sends `notifications/roots/list_changed` on legacy; a modern server needs none. */
  notifyRootsChanged(): void {
    const connection = this.connected();
    if (connection.server.era === 'legacy') connection.notify('notifications/roots/list_changed');
  }

  /** Stops the notification gate and closes the connection. */
  async close(): Promise<void> {
    this.#gate.close();
    await this.#slot.close();
  }

  #onNotification(notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/tools/list_changed') this.tools.forget();
    this.views.invalidate(notification.method);
    this.#subscriptions.deliver(notification);
    if (this.#options.onNotification) this.#gate.receive(notification);
  }
}

/** `completion/complete` params; `context` only when given. */
export function completionParams(
  ref: CompletionArguments['ref'],
  argument: CompletionArguments['argument'],
  context: CompletionArguments['context'] | undefined,
): Params {
  return context === undefined ? { ref, argument } : { ref, argument, context };
}
