/**
 * `createHost()`: many MCP servers from one `mcpServers` configuration, connected in
 * parallel, merged into one registry, with one place for user-facing input.
 * Source: 2026-07-28 architecture (host → clients → servers), server/tools "Tool Names".
 */
import type { EraCache, ResultOf } from '../client/index.js';
import { LocalError, type JsonRpcNotification, type RequestId, type Root } from '../core/index.js';
import { resolveServers } from './config.js';
import { clientHandlersOf, InputRouter, type CallScope } from './inputs.js';
import { ServerLink, type ServerStatus } from './link.js';
import type { ListKind } from './lists.js';
import { defaultQualify, type QualifyName } from './names.js';
import {
  Registry,
  type HostPrompt,
  type HostResource,
  type HostTemplate,
  type HostTool,
} from './registry.js';
import { Listeners, type HostEvents } from './events.js';
import type { HostCallOptions, HostOptions } from './options.js';
import { relay, relayed } from './gateway/front-relay.js';
import { isAppOnly } from './apps.js';
import { compileUriTemplate } from '../server/index.js';

export type { HostCallOptions, HostOptions, RelayFields } from './options.js';

/** Many servers as one. Create with {@link createHost}, then `await host.start()`. */
export class Host {
  readonly #links = new Map<string, ServerLink>();
  readonly #inputs: InputRouter;
  readonly #qualify: QualifyName;
  readonly #events = new Listeners<HostEvents>();
  readonly #eraCache: EraCache = new Map();
  /** The servers reached over HTTP, where each call has its own stream. */
  readonly #http = new Set<string>();
  #registry: Registry = new Registry([], defaultQualify);

  constructor(options: HostOptions) {
    this.#inputs = new InputRouter(options.handlers ?? {}, options.policy ?? {}, (name) =>
      this.#http.has(name),
    );
    this.#qualify = options.qualify ?? defaultQualify;
    for (const server of resolveServers(options.servers, options.env)) {
      const link: ServerLink = new ServerLink({
        server,
        handlers: clientHandlersOf(this.#inputs, {
          server: server.name,
          policy: server.policy,
          roots: server.roots as Root[] | undefined,
        }),
        timeoutMs: server.timeoutMs ?? options.connectTimeoutMs ?? 30_000,
        requestTimeoutMs: options.requestTimeoutMs,
        logLevel: options.logLevel,
        reconnect: options.reconnect ?? {},
        health: options.health ?? {},
        eraCache: this.#eraCache,
        onStatus: (status) => this.#events.emit('status', status),
        onWarning: (message) => this.#events.emit('warning', { server: server.name, message }),
        onLists: (kinds) => this.#rebuild(link, kinds),
        onNotification: (notification, related) => {
          if (notification.method === 'notifications/message')
            this.#inputs.notify(server.name, notification.params ?? {}, related);
          const event = { server: server.name, notification };
          this.#events.emit(
            'notification',
            related === undefined ? event : { ...event, relatedRequestId: related },
          );
        },
      });
      this.#links.set(server.name, link);
      if (server.url !== undefined) this.#http.add(server.name);
    }
  }

  /**
   * Connects every server in parallel; resolves once each one's first attempt ended: ready,
   * `reconnecting` (it is retried, see `reconnect.firstConnectAttempts`) or failed. Never rejects.
   */
  async start(): Promise<void> {
    // Template matching loads its engine on first use: have it ready before clients come.
    const matching = compileUriTemplate('{uri}').ready.catch(() => undefined);
    await Promise.all([...this.#links.values()].map((link) => link.start()).concat(matching));
  }

  /** Each server's status, in configuration order. */
  status(): ServerStatus[] {
    return [...this.#links.values()].map((link) => link.status);
  }

  /** The era of a server while it is ready. */
  eraOf(server: string): 'modern' | 'legacy' | undefined {
    return this.#links.get(server)?.client?.era;
  }

  /** The names of the configured servers (disabled ones left out). */
  get servers(): string[] {
    return [...this.#links.keys()];
  }

  /** Listens to `status` changes, registry `change`s (with the kinds that changed) and every server `notification`. */
  on<E extends keyof HostEvents>(event: E, listener: (payload: HostEvents[E]) => void): () => void {
    return this.#events.on(event, listener);
  }

  /** Every tool of the registry, app-only ones included (a gateway or an app host needs them). */
  tools(): HostTool[] {
    return [...this.#registry.tools.values()];
  }
  /**
   * The tools to offer a model: {@link tools} without the app-only ones (`_meta.ui.visibility`
   * without `"model"`), which only their server's app calls, through {@link callTool}.
   * Source: ext-apps specification 2026-01-26 "Visibility".
   */
  modelTools(): HostTool[] {
    return this.tools().filter((t) => !isAppOnly(t.definition));
  }
  prompts(): HostPrompt[] {
    return [...this.#registry.prompts.values()];
  }
  resources(): HostResource[] {
    return [...this.#registry.resources.values()];
  }
  resourceTemplates(): HostTemplate[] {
    return [...this.#registry.templates];
  }

  /**
   * Calls a tool by its qualified name on its server, with progress, cancellation
   * (`signal`) and timeout carried to the server.
   * @throws LocalError `INVALID_ARGUMENT` for an unknown name, `CONNECTION_CLOSED` when its
   *   server is not ready; the client's errors otherwise (WireError from the server).
   */
  async callTool(
    name: string,
    args?: Record<string, unknown>,
    options: HostCallOptions = {},
  ): Promise<ResultOf<'tools/call'>> {
    const tool = this.#registry.tools.get(name);
    if (!tool) throw new LocalError('INVALID_ARGUMENT', `no tool named '${name}' in the host's registry`);
    const params = { name: tool.originalName, ...(args === undefined ? {} : { arguments: args }) };
    return this.#call(tool.server, options, (client, req) =>
      relayed(client, req)
        ? relay(client, { method: 'tools/call', params }, req)
        : client.callTool(tool.originalName, args, req),
    );
  }

  /** Gets a prompt by its qualified name. @throws as {@link Host.callTool}. */
  async getPrompt(
    name: string,
    args?: Record<string, string>,
    options: HostCallOptions = {},
  ): Promise<ResultOf<'prompts/get'>> {
    const prompt = this.#registry.prompts.get(name);
    if (!prompt) throw new LocalError('INVALID_ARGUMENT', `no prompt named '${name}' in the host's registry`);
    return this.#call(prompt.server, options, (client, req) =>
      client.getPrompt(prompt.originalName, args, req),
    );
  }

  /**
   * Reads a resource by its URI in the merged registry (a listed URI, a `server+uri`
   * prefixed one, or one matching a server's template). The result's `contents[].uri`
   * are mapped back to the registry's URIs.
   * @throws LocalError `INVALID_ARGUMENT` when no server offers the URI; as `callTool` otherwise.
   */
  async readResource(uri: string, options: HostCallOptions = {}): Promise<ResultOf<'resources/read'>> {
    await Promise.all(this.#registry.templates.map((t) => t.matcher.ready));
    const route = this.route(uri);
    if (!route) throw new LocalError('INVALID_ARGUMENT', `no server offers the resource '${uri}'`);
    const result = await this.#call(route.server, options, (client, req) =>
      client.readResource(route.uri, req),
    );
    if (route.uri === uri) return result;
    const contents = result.contents.map((c) => (c.uri === route.uri ? { ...c, uri } : c));
    return { ...result, contents };
  }

  /**
   * `completion/complete` for an argument of a prompt (by its qualified name) or a
   * variable of a resource template (by its template in the merged registry), routed to
   * the server that owns it. Resolves with the suggested values (none when the server
   * does not declare `completions`).
   * @throws LocalError `INVALID_ARGUMENT` for an unknown prompt or template; as `callTool` otherwise.
   */
  async complete(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: { name: string; value: string },
    options: HostCallOptions & { arguments?: Record<string, string> } = {},
  ): Promise<string[]> {
    const target = this.#completionTarget(ref);
    const { arguments: args, ...call } = options;
    const context = args === undefined ? undefined : { arguments: args };
    const result = await this.#call(target.server, call, async (client, req) =>
      client.serverCapabilities?.completions
        ? client.complete(target.ref, argument, context, req)
        : undefined,
    );
    return result?.completion.values ?? [];
  }

  #completionTarget(ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string }): {
    server: string;
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  } {
    if (ref.type === 'ref/prompt') {
      const prompt = this.#registry.prompts.get(ref.name);
      if (prompt) return { server: prompt.server, ref: { type: 'ref/prompt', name: prompt.originalName } };
    } else {
      const template = this.#registry.templates.find((t) => t.uriTemplate === ref.uri);
      if (template)
        return { server: template.server, ref: { type: 'ref/resource', uri: template.originalTemplate } };
    }
    throw new LocalError(
      'INVALID_ARGUMENT',
      `nothing in the host's registry completes ${JSON.stringify(ref)}`,
    );
  }

  /**
   * The server and its own URI for a URI of the merged registry.
   * @throws LocalError `NOT_READY` when a template must be matched before its engine has
   *   loaded (only before `start()` resolved; see `UriTemplate.ready`).
   */
  route(uri: string): { server: string; uri: string } | undefined {
    return this.#registry.route(uri, this.servers);
  }

  /** The client of a ready server, for what the registry does not cover (completion, subscriptions). */
  clientOf(server: string): ServerLink['client'] {
    return this.#links.get(server)?.client;
  }

  /** Drops `server`'s connection (if any) and connects again now. */
  async reconnect(server: string): Promise<void> {
    await this.#link(server).reconnect();
  }

  /** Closes every server; stdio children are shut down and reaped before this resolves. */
  async close(): Promise<void> {
    await Promise.all([...this.#links.values()].map((link) => link.close()));
  }

  async #call<T>(
    server: string,
    options: HostCallOptions,
    run: (client: NonNullable<ServerLink['client']>, req: Omit<HostCallOptions, 'onInput'>) => Promise<T>,
  ): Promise<T> {
    const link = this.#link(server);
    const client = link.client;
    if (!client) {
      const { state, reason } = link.status;
      throw new LocalError(
        'CONNECTION_CLOSED',
        `server '${server}' is ${state}${reason ? `: ${reason}` : ''}`,
      );
    }
    const { onInput, onLog, ...rest } = options;
    const requestIds = new Set<RequestId>();
    const scope: CallScope = { server, onInput, onLog, requestIds };
    const request = { ...rest, onRequestId: (id: RequestId) => void requestIds.add(id) };
    const release = link.oneCallAtATime ? await link.turns.take(server, rest.signal) : undefined;
    try {
      // Legacy servers' requests arrive outside any call's async context: no need to mark it.
      return await this.#inputs.within(
        scope,
        () => run(client, request),
        client.era === 'modern' && !relayed(client, request),
      );
    } finally {
      release?.();
    }
  }

  #link(server: string): ServerLink {
    const link = this.#links.get(server);
    if (!link) throw new LocalError('INVALID_ARGUMENT', `no server named '${server}' in the host`);
    return link;
  }

  #rebuild(link: ServerLink, kinds: readonly ListKind[]): void {
    const sources = [...this.#links.values()].map((l) => ({
      name: l.name,
      lists: l.lists,
      filter: l.filter,
    }));
    this.#registry = new Registry(sources, this.#qualify);
    for (const l of this.#links.values()) l.issues = this.#registry.issues.get(l.name) ?? [];
    this.#events.emit('change', { server: link.name, kinds: [...kinds] });
  }
}

/**
 * Creates a host over the `mcpServers` map; call `start()` to connect.
 * @throws LocalError `INVALID_ARGUMENT` for a configuration of an unknown shape (naming
 *   the server and key) or an unset `${VAR}`.
 */
export function createHost(options: HostOptions): Host {
  return new Host(options);
}

export type { JsonRpcNotification };
