/**
 * The options of a host and of its calls.
 * Source: 2026-07-28 architecture (host → clients → servers).
 */
import type { ProgressUpdate } from '../client/index.js';
import type { ClientCapabilities, LoggingLevel, Params } from '../core/index.js';
import type { InputPolicy, ServersConfig } from './config.js';
import type { HostHandlers, InputRequestEvent } from './inputs.js';
import type { HealthPolicy } from './health.js';
import type { ReconnectPolicy } from './link.js';
import type { QualifyName } from './names.js';

/** Options of {@link createHost}. */
export interface HostOptions {
  /** The `mcpServers` map (as in the apps' JSON files, or from `loadHostConfig`). */
  servers: ServersConfig;
  /** Answers to elicitation, sampling and roots requests from any server. */
  handlers?: HostHandlers;
  /** Default allow/deny per input kind for every server (a server's own `policy` wins). */
  policy?: InputPolicy;
  /** Qualified names of tools and prompts; default `server__name`. */
  qualify?: QualifyName;
  /** Milliseconds a server may take to connect and list; default 30 000 (a server's `timeoutMs` wins). */
  connectTimeoutMs?: number;
  /** Default timeout of each call to a server in milliseconds (reset by progress); default 60 000. */
  requestTimeoutMs?: number;
  /**
   * The log level to ask of every server (modern: per request; legacy: `logging/setLevel`
   * after `initialize`); their log messages arrive as `notification` events. Default: none.
   */
  logLevel?: LoggingLevel;
  /** Reconnection after a dropped connection, and retries of a failed first connection. */
  reconnect?: ReconnectPolicy;
  /**
   * Health probes of connected servers (`ping`, or `server/discover` on modern), so that an
   * HTTP server that went away is noticed before a call fails; a closed listen stream is
   * noticed without them. See {@link HealthPolicy}.
   */
  health?: HealthPolicy;
  /** Where `${VAR}` references are looked up; default `process.env`. */
  env?: Record<string, string | undefined>;
}

/** Per-call options of {@link Host.callTool} and friends. */
export interface HostCallOptions {
  signal?: AbortSignal;
  /** Milliseconds without a response or progress; default the host's `requestTimeoutMs`. */
  timeoutMs?: number;
  /** The option a timeout error names for `timeoutMs` (default `'timeoutMs'`). */
  timeoutOption?: string;
  onprogress?: (update: ProgressUpdate) => void;
  /**
   * Takes over the input requests (elicitation, sampling, roots) the server makes while
   * this call runs, instead of the host's handlers (policy still applies).
   */
  onInput?: (request: InputRequestEvent) => Promise<Params>;
  /**
   * Receives the params of the server's `notifications/message` that belong to this call:
   * sent on this call's stream (Streamable HTTP), or over stdio while this was the server's
   * only call in flight. A log message that cannot be shown to be this call's never comes
   * here (every one still reaches the host's `notification` event).
   */
  onLog?: (params: Params) => void;
  /**
   * Relays a modern client's request to a modern server as it is (a gateway's modern
   * front): the retry fields and the client's capabilities are passed on, and an
   * `input_required` result is returned as it is instead of being answered. Ignored for
   * legacy servers.
   */
  relay?: RelayFields;
}

/** What a relayed modern request carries of its own client. */
export interface RelayFields {
  clientCapabilities: ClientCapabilities;
  inputResponses?: unknown;
  requestState?: unknown;
}
