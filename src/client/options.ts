/**
 * The options of {@link createClient} and the handlers a host supplies for the requests a
 * server may make of it (sampling, elicitation, roots).
 * Source: 2026-07-28 basic/versioning, basic/index "_meta"; 2025-11-25 basic/lifecycle,
 * client/sampling, client/elicitation, client/roots.
 */
import type { SchemaLimits } from '../validation/index.js';
import type { ClientExtension } from './extension.js';
import type {
  JsonRpcNotification,
  RequestId,
  Middleware,
  Era,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  LegacyElicitRequestParams,
  LegacyRequestParams,
  ListRootsResult,
  LoggingLevel,
} from '../core/index.js';

/** What a handler of a server's request gets besides its params. */
export interface HandlerContext {
  /**
   * Legacy: aborted when the server cancels the request or the connection closes. Modern
   * (answering `inputRequests`): aborted when the call's own signal aborts or the
   * connection closes.
   */
  readonly signal: AbortSignal;
  /**
   * Legacy: the server's id of this request, and the id of the client's own request it
   * belongs to when the transport tells (Streamable HTTP: it arrived on that request's SSE
   * stream); undefined when answering modern `inputRequests` or when unknown.
   */
  readonly requestId?: RequestId | undefined;
  readonly relatedRequestId?: RequestId | undefined;
}

/** What `onNotification` learns of where a notification came from. */
export interface NotificationContext {
  /**
   * The id of the client's own request whose stream carried the notification (Streamable
   * HTTP: that request's SSE stream); undefined on stdio and on standalone streams.
   */
  readonly relatedRequestId?: RequestId | undefined;
}

/**
 * Answers to the requests a server makes of the client. Each handler resolves with the
 * result to send; throwing an `WireError` answers with that wire error, anything else with
 * -32603. Supplying a handler also declares the matching client capability.
 * Legacy sessions receive these as server-initiated requests (2025-11-25 client/*); on
 * modern they answer the `inputRequests` of an `input_required` result, after which the
 * client retries the call by itself (2026-07-28 basic/patterns/mrtr).
 */
export interface ClientHandlers {
  /** `sampling/createMessage`: sample the host's model (client/sampling). */
  sampling?: (params: CreateMessageRequestParams, context: HandlerContext) => Promise<CreateMessageResult>;
  /** `elicitation/create`: ask the user; form mode, and URL mode when enabled (client/elicitation). */
  elicitation?: (
    params: ElicitRequestParams | LegacyElicitRequestParams,
    context: HandlerContext,
  ) => Promise<ElicitResult>;
  /** `roots/list`: the host's roots, `file://` URIs (client/roots). */
  roots?: (params: LegacyRequestParams, context: HandlerContext) => Promise<ListRootsResult>;
}

/** `'auto'` probes the server (stdio "Backward Compatibility"); `'modern'`/`'legacy'` pin the era. */
export type EraPreference = 'auto' | Era;

/**
 * A verdict store shared across clients: cache key → era. Hosts keep one per process so a
 * server configuration is probed once (basic/versioning "Backward Compatibility": clients
 * SHOULD cache the era determination).
 */
export type EraCache = Map<string, Era>;

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** `clientInfo.name`. */
  name: string;
  /** `clientInfo.version`. */
  version: string;
  /** `clientInfo.title`, a display name. */
  title?: string;
  /** Declared capabilities; `handlers` add sampling, elicitation and roots to these. */
  capabilities?: ClientCapabilities;
  /**
   * Extensions this client supports (build them with `defineExtension`), advertised in
   * `capabilities.extensions` with their settings: in every modern request's `_meta` and in
   * legacy `initialize`, or, for `advertise: 'on-use'`, only in the requests for their own
   * methods. The Tasks extension is built in (on use); one given here with its id replaces it.
   */
  extensions?: readonly ClientExtension[];
  /** Which era to speak; default `'auto'` (probe with `server/discover`). */
  era?: EraPreference;
  /** Preferred modern revision; default `LATEST_REVISION`. */
  protocolVersion?: string;
  /** Legacy revision offered in `initialize`; default `LATEST_LEGACY_REVISION`. */
  legacyProtocolVersion?: string;
  /** Milliseconds to wait for the `server/discover` probe before assuming legacy; default 5 000. */
  probeTimeoutMs?: number;
  /** Default timeout of every request in milliseconds (default: the core Peer's, 60 000). */
  timeoutMs?: number;
  /**
   * The option a timeout error names for the default `timeoutMs` (default `'timeoutMs'`), for
   * a library that sets it from an option of its own (the host names `requestTimeoutMs`).
   */
  timeoutOption?: string;
  /** Most pages an auto-paginating `list*()` call fetches before giving up; default 1 000. */
  maxListPages?: number;
  /** Answers to server requests; each one declares its capability. */
  handlers?: ClientHandlers;
  /**
   * Most `input_required` results one call answers before giving up (multi round-trip
   * requests, modern only); default 10.
   */
  maxInputRounds?: number;
  /**
   * Fill the fields an accepted form elicitation omits with the `default` of the requested
   * schema before answering (see `applyElicitationDefaults`); both eras, default true.
   */
  fillElicitationDefaults?: boolean;
  /** Elicitation modes the `elicitation` handler supports; default `['form']`. */
  elicitationModes?: readonly ('form' | 'url')[];
  /**
   * Middleware around every request and notification the client sends and receives, the
   * first outermost (see `client/middleware.ts` for the built-in steps inside them).
   */
  middleware?: readonly Middleware[];
  /**
   * Told about things worth logging: tool definitions rejected for invalid `x-mcp-header`
   * annotations; a modern server whose tool can ask for input only on legacy sessions.
   */
  onWarning?: (message: string) => void;
  /**
   * Every notification from the server, progress included (progress also reaches
   * `onprogress`), at a bounded rate: progress coalesced to the latest per token per
   * event-loop turn, log messages capped by `limits.maxLogMessagesPerSecond` with a
   * summary of how many were dropped.
   */
  onNotification?: (notification: JsonRpcNotification, context: NotificationContext) => void;
  /**
   * Minimum log level the server should emit. Modern: sent as `_meta`
   * `io.modelcontextprotocol/logLevel` on every request. Legacy: sent once with
   * `logging/setLevel` after `initialize` when the server declares `logging`.
   */
  logLevel?: LoggingLevel;
  /** Where the era verdict is kept between connections; used with `cacheKey`. */
  eraCache?: EraCache;
  /** This server configuration's key in `eraCache` (e.g. the command line or the origin). */
  cacheKey?: string;
  /** Bounds on what the server may send; see {@link ClientLimits} for the defaults. */
  limits?: ClientLimits;
}

/**
 * Bounds on what a (possibly hostile) server may send to this client. Going over one fails
 * the call concerned with LocalError `LIMIT_EXCEEDED` (or `INVALID_DEFINITION` for a schema)
 * naming the limit; the connection keeps working.
 */
export interface ClientLimits {
  /** Deepest JSON nesting in one message (default 256). */
  maxJsonDepth?: number;
  /** Most server-to-client requests (sampling, elicitation, roots) handled at once (default 16). */
  maxConcurrentRequests?: number;
  /**
   * Bounds on each `outputSchema` before it is compiled (defaults: depth 32, 1 000
   * subschemas, 256 KiB of JSON text); over them, the call fails with `INVALID_DEFINITION`.
   */
  schema?: SchemaLimits;
  /** Most `inputRequests` answered in one `input_required` result (default 16). */
  maxInputRequests?: number;
  /**
   * Most `notifications/message` delivered to `onNotification` per second (default 100);
   * the rest are dropped and then summed up in one `warning` from logger `mcpkit`.
   */
  maxLogMessagesPerSecond?: number;
}
