/** What a transport hands the server with each request. */
import type { Params } from '../core/jsonrpc.js';
import type { Era, LegacyRevision } from '../core/revisions.js';
import type { ClientCapabilities, Implementation } from '../core/types/index.js';
import type { AuthInfo } from './context.js';
import type { LegacySession } from './legacy/session.js';

/** What `initialize` establishes; the transport turns it into a {@link LegacySession}. */
export interface SessionInit {
  protocolVersion: LegacyRevision;
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities;
}

/** Reads request headers by name (case-insensitive, as `Headers.get` does). */
export interface HeaderReader {
  get(name: string): string | null;
  /**
   * Calls `callback` once per header, as `Headers.forEach` does. Optional: without it,
   * server middleware sees no `ctx.headers` for the request.
   */
  forEach?(callback: (value: string, name: string) => void): void;
}

/** The transport's side of one request. */
export interface RequestChannel {
  /** Aborted when the client cancels the request or disconnects. */
  readonly signal: AbortSignal;
  /** Sends a notification tied to this request (progress, log messages). */
  notify(method: string, params: Params): void;
  /** The legacy session the request belongs to, if any. */
  readonly session?: LegacySession | undefined;
  /** Opens a legacy session for `initialize`; absent where sessions cannot be opened. */
  openSession?(init: SessionInit): LegacySession;
  /**
   * The era the transport already determined (e.g. from a modern `MCP-Protocol-Version`
   * header); undefined lets the server decide from the message itself.
   */
  readonly era?: Era | undefined;
  /** The caller's identity, when the transport authenticated it. */
  readonly authInfo?: AuthInfo | undefined;
  /**
   * Whom per-principal bounds count this request against ('' when unidentified); default:
   * the verified identity. The HTTP endpoint names it (identity, else the peer's address).
   */
  readonly principal?: string | undefined;
  /** The HTTP request's headers (Streamable HTTP); undefined on other transports. */
  readonly headers?: HeaderReader | undefined;
}
