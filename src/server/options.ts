/** The options of `createServer()` and the server identity they describe. */
import type { SchemaLimits } from '../validation/index.js';
import type {
  EventBus,
  JsonRpcRequest,
  Era,
  Icon,
  Implementation,
  ServerCapabilities,
} from '../core/index.js';
import type { RequestStateSealer, SealerOptions } from '../core/runtime.js';
import type { CacheHints } from './modern.js';
import type { ServerExtension } from './extension.js';
import type { TaskOptions } from './tasks/runner.js';
import type { ResourceSubscriptionHooks } from './subscriptions.js';
import type { PrincipalRateLimits } from './middleware/quotas.js';
import type { UserStateOptions } from './user-state.js';

/** What a server sets on every request's scope, built once from its options (server/user-state.ts). */
export { servedBy, type ServedBy } from './user-state.js';

/** Options of {@link createServer}. */
export interface ServerOptions {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
  /** Guidance for the model on how to use this server (sent in discover and initialize). */
  instructions?: string;
  /** Eras served; default both. A modern-only server rejects `initialize` naming its versions. */
  eras?: readonly Era[];
  /** Cache hints on every cacheable modern result (default ttlMs 0, cacheScope "private"). */
  cache?: Partial<CacheHints>;
  /** Items per list page (default 100). */
  pageSize?: number;
  /** Extra capabilities to declare (experimental, extensions). */
  capabilities?: Pick<ServerCapabilities, 'experimental' | 'extensions'>;
  /** Where change events travel (default: in-memory, this process only). */
  eventBus?: EventBus;
  /**
   * Whether the tool, prompt and resource lists may change while serving (default true).
   * `false` (a static server: everything registered before serving, as serverless
   * deployments usually are) leaves `listChanged` out of the declared capabilities, so
   * clients open no listen for list changes (one asking only for them is completed at
   * once); `notify*Changed()` and `remove*()` then throw LocalError `INVALID_ARGUMENT`.
   * Source: 2026-07-28 server/tools, server/prompts, server/resources "Capabilities".
   */
  listChanged?: boolean;
  /**
   * How multi-round-trip `requestState` is sealed: sealer options (a key ring shared by a
   * fleet, a TTL) or a sealer of your own. Default: AES-GCM with a random per-process key.
   */
  requestState?: SealerOptions | RequestStateSealer;
  /**
   * Tasks extension settings (store, TTL, poll interval, lease). Giving them offers the
   * extension even before a tool declares a task policy.
   */
  tasks?: TaskOptions;
  /**
   * Extensions to serve (see `defineExtension`): each is declared in
   * `capabilities.extensions` and its methods are routed. LocalError `INVALID_DEFINITION`
   * from `createServer` for two with one id or one method.
   */
  extensions?: readonly ServerExtension<object>[];
  /**
   * Sees the cause of every error the client does not see in full: a handler's exception
   * answered as -32603 (a resource, prompt or extension handler; a tool result that fails
   * its `outputSchema`), and a tool's exception turned into an `isError` result. `request`
   * is undefined for a failure tied to no request. Without it, each is logged as one line
   * on stderr (`mcpkit server: internal error in <method> '<name>': <error> (at <frame>)`),
   * which never disturbs the stdio transport; give `onError` to log elsewhere or not at all.
   */
  onError?: (error: unknown, request: JsonRpcRequest | undefined) => void;
  /**
   * Hooks on resource subscriptions, counted over every client of this instance: `subscribe`
   * when the first client subscribes to a URI (legacy `resources/subscribe` or a listen's
   * `resourceSubscriptions`; may refuse), `unsubscribe` when the last one leaves.
   */
  resourceSubscriptions?: ResourceSubscriptionHooks;
  /** Bounds on what clients may make this server hold; see {@link ServerLimits} for the defaults. */
  limits?: ServerLimits;
  /**
   * Where `ctx.userState` keeps each caller's data (default: in memory) and its TTL and
   * bounds; see {@link UserStateOptions}. Nothing is made until a handler first uses it.
   */
  userState?: UserStateOptions;
}

/**
 * Bounds on what (possibly hostile) clients may make the server hold. Going over one is
 * answered with a JSON-RPC error naming the limit; other requests keep being served.
 * HTTP-level bounds (body size, sessions, connections, timeouts) are options of
 * `createHttpHandler` and `serve`.
 */
export interface ServerLimits {
  /** Most `subscriptions/listen` streams open at once, all clients together (default 10 000). */
  maxListenStreams?: number;
  /**
   * Most listen streams one principal holds open (default: a tenth of `maxListenStreams` or of
   * the 1 024 connections `serve()` holds, whichever is smaller: 102; → -32600, HTTP 429).
   * The principal is the verified identity, else (HTTP) the peer's address; an
   * unidentified caller is held only to `maxListenStreams`.
   */
  maxListenStreamsPerPrincipal?: number;
  /**
   * Per-principal request bounds, on every transport (off by default): requests per second
   * and requests in progress of each caller named by `ctx.auth` (the HTTP auth guard's
   * principal, or one an auth middleware set). Over one → -32600 `TooManyRequests` (HTTP 429
   * with `Retry-After`) naming the bound; other principals are not affected. Anonymous callers
   * are not counted here (HTTP: see `createHttpHandler({ principals })`, which also counts
   * peer addresses before reading a body). RangeError from `createServer` for a non-positive bound.
   */
  perPrincipal?: PrincipalRateLimits;
  /** Most tasks one principal has running on this instance (default 1 000; → -32600, HTTP 429). */
  maxTasksPerPrincipal?: number;
  /** Most URIs in one listen request's `resourceSubscriptions` (default 1 000). */
  maxResourceSubscriptions?: number;
  /**
   * Longest wait for one `resourceSubscriptions` hook call, in milliseconds (default 30 000;
   * Infinity waits forever). A `subscribe` still pending then fails its subscribers with
   * -32603 naming this limit and frees the URI; a pending `unsubscribe` no longer holds up
   * the URI's next hook. RangeError from `createServer` when not a positive number.
   */
  subscriptionHookTimeoutMs?: number;
  /** Most requests one stdio (or other stream) connection has in flight at once (default 256). */
  maxConcurrentRequests?: number;
  /** Deepest JSON nesting accepted in one message, every transport (default 256). */
  maxJsonDepth?: number;
  /** Bounds on the tools' own JSON Schemas (defaults: depth 32, 1 000 subschemas, 1 MiB). */
  schema?: SchemaLimits;
}

/** The server's `Implementation` (serverInfo) from its options. */
export function implementationOf(o: ServerOptions): Implementation {
  const info: Implementation = { name: o.name, version: o.version };
  if (o.title !== undefined) info.title = o.title;
  if (o.description !== undefined) info.description = o.description;
  if (o.websiteUrl !== undefined) info.websiteUrl = o.websiteUrl;
  if (o.icons !== undefined) info.icons = o.icons;
  return info;
}
