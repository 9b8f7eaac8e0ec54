/** The options of `createGateway` (src/host/gateway/gateway.ts). */
import type { ServerOptions } from '../../server/index.js';
import type { ToolSearchOptions } from '../../tool-search/index.js';

/** A backend feature the gateway serves, as {@link GatewayOptions.scopes} is asked about it. */
export interface GatewayFeature {
  /** The backend server's name (its key in the host's `servers`). */
  server: string;
  kind: 'tool' | 'prompt' | 'resource' | 'template';
  /** The name (tool, prompt) or URI or URI template the gateway serves it under. */
  name: string;
}

/** Options of {@link createGateway}. */
export interface GatewayOptions {
  /** The gateway's `serverInfo` name; default `mcpkit-gateway`. */
  name?: string;
  version?: string;
  /** How long a parked backend request waits for the client's retry; default 120 000 ms. */
  parkTimeoutMs?: number;
  /** Most backend calls parked (or running) for modern clients at once; default 1 000 (→ -32600, HTTP 429). */
  maxParkedCalls?: number;
  /** Most of them one verified principal may hold; default 100 (anonymous clients: only `maxParkedCalls`). */
  maxParkedCallsPerPrincipal?: number;
  /** Timeout of each forwarded call in milliseconds (reset by progress); default 600 000. */
  callTimeoutMs?: number;
  /**
   * Most backend resource subscriptions open at once, over all servers (default 1 000): a
   * client's subscription to a further URI is refused (legacy: -32602; modern: the URI is
   * left out of the listen's acknowledged filter).
   */
  maxSubscriptions?: number;
  /**
   * The key (32 bytes) that binds the gateway's task ids to their server and principal;
   * default random per gateway (give one key to every gateway of a fleet).
   */
  taskIdKey?: Uint8Array;
  /**
   * Scope mapping: the OAuth scopes a front caller (`ctx.auth`, from the gateway's own
   * auth guard) needs to reach a backend's features. Every backend call goes out with the
   * gateway's own credentials for that backend, whoever the front caller is; this decides
   * which callers may make it. A record maps a server name to its scopes (servers not named
   * need none); a function is asked per feature. The scopes become the front features'
   * `scopes`, so the front server's scope check enforces them on every method that names
   * them (tools/call, prompts/get, resources/read and subscribe, completion, listen
   * filters), resolved as served, with the 403 step-up challenge over HTTP. Callers without
   * `ctx.auth` (stdio, an endpoint without a guard) are not checked.
   */
  scopes?: Record<string, string[]> | ((feature: GatewayFeature) => string[] | undefined);
  /** Passed on to `createServer` (request-state keys for fleets, eras, instructions…). */
  server?: Omit<ServerOptions, 'name' | 'version'>;
  /**
   * Serve the backends' tools behind `search_tools` and `call_tool` (mcpkit/tool-search)
   * instead of listing them all; `true` for the default search options.
   */
  toolSearch?: boolean | ToolSearchOptions;
}
