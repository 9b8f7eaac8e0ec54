/**
 * `createGateway(host)`: the host's merged registry served as one MCP server, on both
 * eras, over any transport mcpkit serves (stdio, Streamable HTTP). Tools, prompts,
 * resources and templates follow the host's registry as it changes (with list_changed to
 * the gateway's own clients); calls are forwarded with progress, logging and cancellation;
 * input requests of backends cross the era bridge (see `parked.ts` for its lifetime rules).
 * Source: 2026-07-28 architecture, basic/patterns/mrtr; 2025-11-25 basic/lifecycle.
 */
import {
  compileUriTemplate,
  createServer,
  type Completer,
  errorResult,
  type McpServer,
  type RequestContext,
  serveApps,
} from '../../server/index.js';
import { WireError, type Params, type ResourceTemplate, type Tool } from '../../core/index.js';
import { negotiatesUi } from '../../core/apps.js';
import { isAppOnly } from '../apps.js';
import { passThrough } from '../../server/runtime.js';
import type { StandardJsonSchema } from '../../validation/index.js';
import type { Host } from '../host.js';
import type { ListKind } from '../lists.js';
import { forward, frontError, type ForwardSetup } from './forward.js';
import { ParkedCalls } from './parked.js';
import { RelayStates } from './relay.js';
import { GatewaySubscriptions } from './subscriptions.js';
import { SearchableTools } from './searchable.js';
import { TaskIds } from './task-ids.js';
import { principalOf } from '../../core/runtime.js';
import { createToolSearch, installToolSearch } from '../../tool-search/index.js';
import { tasksMiddleware } from './tasks.js';
import { advertiseRelayed, relayExtension } from './extension-relay.js';
import type { GatewayOptions } from './options.js';
import { requireScopes, scopeMapping, scopesField, type ScopeMapping } from './scope-mapping.js';
import { isUnsafeIntegerError } from '../exact-numbers.js';
import { exactRequests } from './exact-requests.js';

export type { GatewayFeature, GatewayOptions } from './options.js';

/** A running gateway: its server definition (serve it with `serveStdio` or `serve`) and its bookkeeping. */
export interface Gateway {
  readonly server: McpServer;
  /** Registry problems the gateway could not serve (e.g. a schema it cannot compile), by name. */
  readonly issues: ReadonlyMap<string, string>;
  /** Parked and running calls for modern clients. */
  readonly parkedCalls: number;
  /**
   * Stops following the host, ends the gateway's own listen streams gracefully (each gets
   * its completion result) and closes the backend subscriptions (does not close the host).
   */
  close(): void;
}

/** The lists the gateway serves and announces changes of, whatever the backends hold now. */
const FRONT_LISTS = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { listChanged: true, subscribe: true },
} as const;

/** Serves `host`'s merged registry as one MCP server. The host should be started (or starting). */
export function createGateway(host: Host, options: GatewayOptions = {}): Gateway {
  const subscriptions = new GatewaySubscriptions({
    host,
    // Called only once clients subscribe, after `server` is set.
    notify: (uri) => server.notifyResourceUpdated(uri),
    max: options.maxSubscriptions ?? 1000,
  });
  const server = createServer({
    name: options.name ?? 'mcpkit-gateway',
    version: options.version ?? '0.1.0',
    ...options.server,
    // Declared before any backend is ready, so sessions opened early hear of the lists' changes.
    capabilities: { ...FRONT_LISTS, ...options.server?.capabilities },
    resourceSubscriptions: subscriptions,
  });
  // App-only tools reach only front clients that negotiated the UI extension (their apps).
  serveApps(server);
  const taskIds = new TaskIds(options.taskIdKey);
  // Before anything reads a front request: a number it may have rounded is never relayed.
  server.use(exactRequests());
  server.use(tasksMiddleware(host, taskIds));
  server.use(advertiseRelayed(host)).use(relayExtension(host));
  const parked = new ParkedCalls({
    parkTimeoutMs: options.parkTimeoutMs ?? 120_000,
    maxParkedCalls: options.maxParkedCalls,
    maxParkedCallsPerPrincipal: options.maxParkedCallsPerPrincipal,
  });
  const setup: GatewaySetup = {
    taskIds,
    relays: new RelayStates(options.parkTimeoutMs ?? 120_000),
    eraOf: (name) => host.eraOf(name),
    parked,
    callTimeoutMs: options.callTimeoutMs ?? 600_000,
    scopesOf: scopeMapping(options.scopes),
    ...(options.toolSearch ? { searchable: new SearchableTools() } : {}),
  };
  const sync = new RegistrySync(host, server, setup);
  sync.all();
  if (setup.searchable) {
    const search = typeof options.toolSearch === 'object' ? options.toolSearch : {};
    installToolSearch(server, createToolSearch(setup.searchable, search));
  }
  const offs = [
    host.on('change', ({ kinds }) => sync.all(kinds)),
    host.on('status', ({ name, state }) => {
      if (state === 'ready') subscriptions.resubscribe(name);
    }),
  ];
  return {
    server,
    issues: sync.issues,
    get parkedCalls() {
      return parked.size;
    },
    close: () => {
      offs.forEach((off) => off());
      server.closeSubscriptions();
      subscriptions.close();
    },
  };
}

/** What forwarded calls share, and the ids relayed tasks reach the client under. */
interface GatewaySetup extends ForwardSetup {
  readonly taskIds: TaskIds;
  /** The front scopes a backend feature needs (GatewayOptions.scopes). */
  readonly scopesOf: ScopeMapping;
  /** Set when the tools are served behind tool search. */
  readonly searchable?: SearchableTools;
}

/** Keeps the server's features equal to the host's registry. */
class RegistrySync {
  readonly issues = new Map<string, string>();
  readonly #host: Host;
  readonly #server: McpServer;
  readonly #setup: GatewaySetup;
  readonly #served = {
    tools: new Map<string, string>(),
    prompts: new Map<string, string>(),
    resources: new Map<string, string>(),
  };

  constructor(host: Host, server: McpServer, setup: GatewaySetup) {
    this.#host = host;
    this.#server = server;
    this.#setup = setup;
  }

  /**
   * Serves what the host's registry holds now. The gateway's clients hear of a list that
   * gained entries, and of every list a backend announced as changed (`kinds`), even when
   * the re-listing found nothing new for the gateway to add.
   */
  all(kinds: readonly ListKind[] = []): void {
    const host = this.#host;
    const tools = this.#apply(
      'tools',
      host.tools().map((t) => [t.name, t.definition, t.server] as const),
      {
        add: (n, d, s) => this.#addTool(n, d as Tool, s),
        remove: (n) => {
          this.#setup.searchable?.delete(n);
          this.#server.removeTool(n);
        },
      },
    );
    if (tools || kinds.includes('tools')) this.#server.notifyToolsChanged();
    const prompts = this.#apply(
      'prompts',
      host.prompts().map((p) => [p.name, p.definition, p.server] as const),
      { add: (n, d, s) => this.#addPrompt(n, d as never, s), remove: (n) => this.#server.removePrompt(n) },
    );
    if (prompts || kinds.includes('prompts')) this.#server.notifyPromptsChanged();
    const fixed = host.resources().map((r) => [r.uri, r.definition, r.server] as const);
    const templates = host.resourceTemplates().map((t) => [t.uriTemplate, t.definition, t.server] as const);
    const resources = this.#apply('resources', [...fixed, ...templates], {
      add: (n, d, s) => this.#addResource(n, d as never, s),
      remove: (n) => this.#server.removeResource(n),
    });
    if (resources || kinds.includes('resources') || kinds.includes('templates'))
      this.#server.notifyResourcesChanged();
  }

  /** Adds what is new or changed, removes what is gone; true when anything was added. */
  #apply(
    kind: 'tools' | 'prompts' | 'resources',
    wanted: readonly (readonly [string, object, string])[],
    edit: {
      add: (name: string, definition: object, server: string) => void;
      remove: (name: string) => void;
    },
  ): boolean {
    const { add, remove } = edit;
    const served = this.#served[kind];
    const next = new Map(wanted.map(([name, def, server]) => [name, JSON.stringify([server, def])]));
    let added = false;
    for (const [name, signature] of served)
      if (next.get(name) !== signature) {
        served.delete(name);
        remove(name);
      }
    for (const [name, def, server] of wanted) {
      if (served.has(name)) continue;
      try {
        add(name, def, server);
        served.set(name, next.get(name) as string);
        this.issues.delete(name);
        added = true;
      } catch (error) {
        this.issues.set(name, `server '${server}': ${(error as Error).message}`);
      }
    }
    return added;
  }

  /**
   * Serves a backend tool with its schemas as the backend declared them (`$schema` and any
   * dialect included), checking nothing here: the backend checks the arguments, the front
   * client the structured output.
   */
  #addTool(name: string, tool: Tool, server: string): void {
    const { name: _n, inputSchema, outputSchema, ...rest } = tool;
    const appOnly = isAppOnly(tool);
    const scoped = scopesField(this.#setup.scopesOf, { server, kind: 'tool', name });
    const definition = {
      ...rest,
      ...scoped,
      inputSchema: asDeclared(inputSchema),
      ...(outputSchema ? { outputSchema: asDeclared(outputSchema) } : {}),
    };
    const handler = async (args: Record<string, unknown>, ctx: RequestContext) => {
      // A front host without the UI extension has no app: its model must not call an app-only tool.
      if (appOnly && !negotiatesUi(ctx.clientCapabilities))
        throw WireError.of('InvalidParams', `Tool ${name} is callable only from its app`);
      // Behind tool search, call_tool reaches this handler without the front's scope check.
      if (this.#setup.searchable) requireScopes(ctx, scoped.scopes);
      const signature = JSON.stringify(['tools/call', name, args]);
      let result: Params;
      try {
        result = await forward(this.#setup, { ctx, server, signature }, (o) =>
          this.#host.callTool(name, args, o),
        );
      } catch (error) {
        // A backend's wire error keeps its code (a refused inexact number is a tool error);
        // a local failure is a tool error naming the server.
        if (isUnsafeIntegerError(error)) return errorResult(error.message);
        if (error instanceof WireError) throw error;
        return errorResult(frontError(server, error).message);
      }
      // A task (the client declared the Tasks extension): sent as it is, under the gateway's id.
      if (result.resultType === 'task') return this.#createdTask(server, result, ctx);
      return result as never;
    };
    // An app-only tool is listed to apps' hosts, never offered to a model's search.
    if (this.#setup.searchable && !appOnly) return this.#setup.searchable.set({ ...tool, name }, handler);
    this.#server.tool(name, definition as never, handler);
  }

  /** A backend's task as the client's result: under a gateway task id, passed through as it is. */
  #createdTask(server: string, task: Params, ctx: RequestContext): never {
    if (typeof task.taskId !== 'string')
      throw WireError.of('InternalError', `server '${server}' answered with a task without a taskId`);
    const taskId = this.#setup.taskIds.wrap({ server, taskId: task.taskId }, principalOf(ctx.auth));
    return passThrough({ ...task, taskId }) as never;
  }

  #addPrompt(
    name: string,
    prompt: { title?: string; description?: string; arguments?: never[]; icons?: never[] },
    server: string,
  ): void {
    const { name: _n, ...rest } = prompt as typeof prompt & { name?: string };
    const argNames = ((rest.arguments ?? []) as { name: string }[]).map((a) => a.name);
    const definition = {
      ...rest,
      ...scopesField(this.#setup.scopesOf, { server, kind: 'prompt', name }),
      complete: this.#completers(argNames, { type: 'ref/prompt', name }),
    };
    this.#server.prompt(name, definition, async (args: Record<string, string>, ctx: RequestContext) => {
      const signature = JSON.stringify(['prompts/get', name, args]);
      try {
        return (await forward(this.#setup, { ctx, server, signature }, (o) =>
          this.#host.getPrompt(name, args, o),
        )) as never;
      } catch (error) {
        throw frontError(server, error);
      }
    });
  }

  /** Completers that ask the owning server (`completion/complete`) for each of `names`. */
  #completers(
    names: readonly string[],
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
  ): Record<string, Completer> {
    const complete =
      (name: string): Completer =>
      async (value, { arguments: args, request }) => {
        try {
          return await this.#host.complete(ref, { name, value }, { arguments: args, signal: request.signal });
        } catch {
          return []; // A backend that cannot complete offers nothing; the front still answers.
        }
      };
    return Object.fromEntries(names.map((n) => [n, complete(n)]));
  }

  #addResource(key: string, definition: Partial<ResourceTemplate> & { uri?: string }, server: string): void {
    const { uri: _u, uriTemplate: _t, ...meta } = definition;
    const read = async (uri: string, ctx: RequestContext) => {
      const signature = JSON.stringify(['resources/read', uri]);
      try {
        return (await forward(this.#setup, { ctx, server, signature }, (o) =>
          this.#host.readResource(uri, o),
        )) as never;
      } catch (error) {
        throw frontError(server, error);
      }
    };
    const kind = definition.uriTemplate === undefined ? 'resource' : 'template';
    const scoped = { ...meta, ...scopesField(this.#setup.scopesOf, { server, kind, name: key }) };
    if (definition.uriTemplate === undefined) return void this.#server.resource(key, scoped, read);
    const variables = compileUriTemplate(definition.uriTemplate).variables;
    const complete = this.#completers(variables, { type: 'ref/resource', uri: key });
    this.#server.resourceTemplate(key, { ...scoped, complete }, (uri, _v, ctx) => read(uri, ctx));
  }
}

/** A schema listed as given that accepts every value (a Standard Schema describing itself as `schema`). */
function asDeclared(schema: Record<string, unknown>): StandardJsonSchema {
  const props = {
    version: 1,
    vendor: 'mcpkit-gateway',
    validate: (value: unknown) => ({ value }),
    jsonSchema: { input: () => schema, output: () => schema },
  };
  return { '~standard': props } as unknown as StandardJsonSchema;
}
