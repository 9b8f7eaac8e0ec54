/**
 * The context every tool, resource and prompt handler receives (the author's view of the
 * request's scope, server/scope.ts). The same handler code
 * runs on both eras: the context hides whether a request came in a legacy session or as
 * a modern stateless request (DESIGN.md decision 6).
 * Source: 2026-07-28 basic/patterns (progress, cancellation, MRTR), server/utilities/logging;
 * 2025-11-25 client/* (server-initiated requests).
 */
import type {
  AuthInfo,
  RequestId,
  Era,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
  LoggingLevel,
  Params,
} from '../core/index.js';
import type { InferOutput, StandardJsonSchema } from '../validation/index.js';
import type { SchemaElicitParams, SchemaElicitResult } from './schema-elicit.js';
import type { UserState } from './user-state.js';

/** Who is calling, as established by the transport (e.g. a verified bearer token). */
export type { AuthInfo };

/** Options of {@link RequestContext.progress}. */
export interface ProgressOptions {
  /** Total amount of work, if known (same unit as `progress`). */
  total?: number;
  /** A human-readable status line. */
  message?: string;
}

/** Options of the input calls of {@link RequestContext}. */
export interface InputOptions {
  /**
   * The key of this input request in a modern `inputRequests` map (default: `elicitation-1`,
   * `sampling-1`, … in call order). Keys must be unique within the request.
   */
  key?: string;
}

/** What a handler of a tool, resource or prompt gets besides its arguments. */
export interface RequestContext {
  /** Aborted when the client cancels the request or goes away. */
  readonly signal: AbortSignal;
  readonly requestId: RequestId;
  readonly era: Era;
  /** The protocol revision of this request (modern) or session (legacy). */
  readonly protocolVersion: string;
  /** The capabilities the client declared (per request when modern, per session when legacy). */
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  /** The request's `_meta` as sent. */
  readonly meta: Readonly<Record<string, unknown>>;
  /**
   * The verified principal (subject, client id, scopes, expiry, claims) when the transport
   * or an auth middleware established it; the same value middleware sees as `ctx.auth`.
   */
  readonly auth: AuthInfo | undefined;
  /**
   * Modern multi round-trip: the answers known so far, by input request key (those sealed
   * in `requestState` by earlier rounds plus this retry's `inputResponses` to the questions
   * sealed with it, each checked against its question; -32602 when one does not fit). An
   * answer to a key that was not asked appears only once a `ctx.*` call asks for it. Empty on
   * the first round and on legacy sessions, where `elicit`/`sample`/`listRoots` answer directly.
   */
  readonly inputResponses: Readonly<Record<string, unknown>>;
  /**
   * What the server keeps for this caller between requests: a small JSON key-value store
   * with per-entry TTLs (`createServer({ userState })` sets its store and bounds). The same
   * on both eras, and across a fleet with a shared store: its scope is the verified
   * principal (`ctx.auth`), else the legacy session, else the stdio connection; an anonymous
   * modern HTTP request has none (its calls reject with -32600 `Forbidden`). Where a
   * legacy server kept per-user data on its session, a modern one keeps it here.
   * Source: 2026-07-28 client/elicitation "Statefulness".
   */
  readonly userState: UserState;
  /** Reports progress; a no-op unless the request carried a `progressToken`. Progress must increase. */
  progress(progress: number, options?: ProgressOptions): void;
  /**
   * Sends a notification tied to this request (on its stream): an extension's own
   * notifications. Progress and log messages have {@link progress} and {@link log}.
   */
  notify(method: string, params: Params): void;
  /** Sends a log message to the client when `level` is at or above the client's threshold. */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /**
   * Asks the user for input (elicitation). Legacy: an `elicitation/create` request on the
   * session. Modern: an `input_required` round trip (see {@link InputOptions}).
   * @throws WireError -32021 when the client did not declare `elicitation`; LocalError
   *   `INVALID_DEFINITION` when a form `requestedSchema` breaks the server's `limits.schema`.
   */
  elicit(params: ElicitRequestParams, options?: InputOptions): Promise<ElicitResult>;
  /**
   * Form elicitation described by a Standard Schema (zod v4…): sent as its JSON Schema, and
   * an accepted answer is checked and parsed by the schema, so `content` is typed.
   * @throws WireError -32021 without `elicitation`; -32602 when an accepted answer does not match.
   */
  elicit<S extends StandardJsonSchema>(
    params: SchemaElicitParams<S>,
    options?: InputOptions,
  ): Promise<SchemaElicitResult<InferOutput<S>>>;
  /** Asks the client's model for a completion (sampling). @throws WireError -32021 without `sampling`. */
  sample(params: CreateMessageRequestParams, options?: InputOptions): Promise<CreateMessageResult>;
  /** Asks for the client's roots. @throws WireError -32021 without `roots`. */
  listRoots(options?: InputOptions): Promise<ListRootsResult>;
}
