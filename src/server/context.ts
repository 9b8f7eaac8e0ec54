/**
 * The context every tool, resource and prompt handler receives. The same handler code
 * runs on both eras: the context hides whether a request came in a legacy session or as
 * a modern stateless request (DESIGN.md decision 6).
 * Source: 2026-07-28 basic/patterns (progress, cancellation, MRTR), server/utilities/logging;
 * 2025-11-25 client/* (server-initiated requests).
 */
import type { AuthInfo } from '../core/middleware.js';
import { McpError, missingCapabilityError } from '../core/errors.js';
import type { Params, RequestId } from '../core/jsonrpc.js';
import { isLevelEnabled, type Era } from '../core/revisions.js';
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
  LoggingLevel,
} from '../core/types/index.js';
import {
  compileSchema,
  type InferOutput,
  type SchemaLimits,
  type StandardJsonSchema,
} from '../validation/index.js';
import {
  elicitWithSchema,
  hasSchemaObject,
  type SchemaElicitParams,
  type SchemaElicitResult,
} from './schema-elicit.js';

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
  /** The caller's identity when the transport authenticated it. */
  readonly authInfo: AuthInfo | undefined;
  /** The same as {@link authInfo}: the verified principal (subject, client id, scopes, expiry, claims). */
  readonly auth: AuthInfo | undefined;
  /**
   * Modern multi round-trip: the answers known so far, by input request key (those sealed
   * in `requestState` by earlier rounds plus this retry's `inputResponses`). Empty on the
   * first round and on legacy sessions, where `elicit`/`sample`/`listRoots` answer directly.
   */
  readonly inputResponses: Readonly<Record<string, unknown>>;
  /** Reports progress; a no-op unless the request carried a `progressToken`. Progress must increase. */
  progress(progress: number, options?: ProgressOptions): void;
  /** Sends a log message to the client when `level` is at or above the client's threshold. */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /**
   * Asks the user for input (elicitation). Legacy: an `elicitation/create` request on the
   * session. Modern: an `input_required` round trip (see {@link InputOptions}).
   * @throws McpError -32021 when the client did not declare `elicitation`; McpkitError
   *   `INVALID_DEFINITION` when a form `requestedSchema` breaks the server's `limits.schema`.
   */
  elicit(params: ElicitRequestParams, options?: InputOptions): Promise<ElicitResult>;
  /**
   * Form elicitation described by a Standard Schema (zod v4…): sent as its JSON Schema, and
   * an accepted answer is checked and parsed by the schema, so `content` is typed.
   * @throws McpError -32021 without `elicitation`; -32602 when an accepted answer does not match.
   */
  elicit<S extends StandardJsonSchema>(
    params: SchemaElicitParams<S>,
    options?: InputOptions,
  ): Promise<SchemaElicitResult<InferOutput<S>>>;
  /** Asks the client's model for a completion (sampling). @throws McpError -32021 without `sampling`. */
  sample(params: CreateMessageRequestParams, options?: InputOptions): Promise<CreateMessageResult>;
  /** Asks for the client's roots. @throws McpError -32021 without `roots`. */
  listRoots(options?: InputOptions): Promise<ListRootsResult>;
}

/** How a context reaches the client for what it cannot do alone; supplied by the era. */
export interface ContextChannel {
  readonly signal: AbortSignal;
  readonly requestId: RequestId;
  readonly era: Era;
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  readonly meta: Readonly<Record<string, unknown>>;
  readonly authInfo: AuthInfo | undefined;
  /** See {@link RequestContext.inputResponses}; computed when a handler reads it. */
  readonly inputResponses?: () => Readonly<Record<string, unknown>>;
  /** The log threshold in force, or undefined when the client asked for no logs. */
  readonly logLevel: LoggingLevel | undefined;
  /**
   * The server's `limits.schema`: an elicitation's `requestedSchema` is held to them before
   * it is sent, and its answer checked with them (defaults when undefined).
   */
  readonly schemaLimits?: SchemaLimits | undefined;
  /** Sends a notification tied to this request. */
  notify(method: string, params: Params): void;
  /** Sends a request to the client and resolves with its result (legacy) or runs MRTR (modern). */
  ask(
    method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list',
    params: Params,
    key?: string,
  ): Promise<Params>;
}

/** Builds the handler context over a channel. */
export function createContext(channel: ContextChannel): RequestContext {
  return new Context(channel);
}

/** The context as a class: its methods live on the prototype, not in per-request closures. */
class Context implements RequestContext {
  readonly #channel: ContextChannel;
  #lastProgress = -Infinity;

  constructor(channel: ContextChannel) {
    this.#channel = channel;
  }

  get signal(): AbortSignal {
    return this.#channel.signal;
  }
  get requestId(): RequestId {
    return this.#channel.requestId;
  }
  get era(): Era {
    return this.#channel.era;
  }
  get protocolVersion(): string {
    return this.#channel.protocolVersion;
  }
  get clientCapabilities(): ClientCapabilities {
    return this.#channel.clientCapabilities;
  }
  get clientInfo(): Implementation | undefined {
    return this.#channel.clientInfo;
  }
  get meta(): Readonly<Record<string, unknown>> {
    return this.#channel.meta;
  }
  get authInfo(): AuthInfo | undefined {
    return this.#channel.authInfo;
  }
  get auth(): AuthInfo | undefined {
    return this.#channel.authInfo;
  }
  get inputResponses(): Readonly<Record<string, unknown>> {
    return this.#channel.inputResponses?.() ?? {};
  }

  progress(progress: number, options: ProgressOptions = {}): void {
    const token = this.#channel.meta.progressToken;
    if ((typeof token !== 'string' && typeof token !== 'number') || progress <= this.#lastProgress) return;
    this.#lastProgress = progress;
    this.#channel.notify('notifications/progress', { progressToken: token, progress, ...options });
  }

  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const threshold = this.#channel.logLevel;
    if (threshold === undefined || !isLevelEnabled(level, threshold)) return;
    this.#channel.notify(
      'notifications/message',
      logger === undefined ? { level, data } : { level, data, logger },
    );
  }

  elicit(params: ElicitRequestParams, options?: InputOptions): Promise<ElicitResult>;
  elicit<S extends StandardJsonSchema>(
    params: SchemaElicitParams<S>,
    options?: InputOptions,
  ): Promise<SchemaElicitResult<InferOutput<S>>>;
  elicit(
    params: ElicitRequestParams | SchemaElicitParams<StandardJsonSchema>,
    options?: InputOptions,
  ): Promise<ElicitResult | SchemaElicitResult<unknown>> {
    const send = (wire: ElicitRequestParams): Promise<ElicitResult> =>
      ask(this.#channel, 'elicitation', 'elicitation/create', wire, options?.key) as Promise<ElicitResult>;
    const limits = this.#channel.schemaLimits;
    if (hasSchemaObject(params)) return elicitWithSchema(params, send, limits);
    try {
      checkRequestedSchema(params, limits);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return send(params);
  }

  sample(params: CreateMessageRequestParams, options?: InputOptions): Promise<CreateMessageResult> {
    return ask(
      this.#channel,
      'sampling',
      'sampling/createMessage',
      params,
      options?.key,
    ) as Promise<CreateMessageResult>;
  }

  listRoots(options?: InputOptions): Promise<ListRootsResult> {
    return ask(this.#channel, 'roots', 'roots/list', {}, options?.key) as Promise<ListRootsResult>;
  }
}

/** Holds a JSON Schema `requestedSchema` to the server's schema limits before it is sent. */
function checkRequestedSchema(params: ElicitRequestParams, limits: SchemaLimits | undefined): void {
  const schema = (params as { requestedSchema?: unknown }).requestedSchema;
  if (params.mode === 'url' || typeof schema !== 'object' || schema === null) return;
  compileSchema(schema as Record<string, unknown>, limits, 'elicitation requestedSchema');
}

async function ask(
  channel: ContextChannel,
  capability: 'elicitation' | 'sampling' | 'roots',
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list',
  params: object,
  key: string | undefined,
): Promise<unknown> {
  const missing = missingCapability(channel.clientCapabilities, capability, params);
  if (missing) throw capabilityError(channel.era, missing);
  if (channel.signal.aborted) throw new McpError(-32603, 'Request was cancelled');
  return channel.ask(method, params as Params, key);
}

/** The capability the client lacks for this input request, as a `requiredCapabilities` object. */
function missingCapability(
  caps: ClientCapabilities,
  capability: string,
  params: object,
): Record<string, unknown> | undefined {
  const declared = caps[capability as keyof ClientCapabilities] as Record<string, unknown> | undefined;
  if (declared === undefined) return { [capability]: {} };
  if (capability !== 'elicitation') return undefined;
  // An empty elicitation capability means form mode only (2025-11-25 client/elicitation).
  const mode = (params as { mode?: unknown }).mode === 'url' ? 'url' : 'form';
  const modes = Object.keys(declared);
  const ok = mode === 'url' ? modes.includes('url') : modes.length === 0 || modes.includes('form');
  return ok ? undefined : { elicitation: { [mode]: {} } };
}

// -32021 exists only from 2026-07-28 on; legacy sessions get -32600 with the same data.
function capabilityError(era: Era, required: Record<string, unknown>): McpError {
  if (era === 'modern') return missingCapabilityError(required);
  return McpError.of('InvalidRequest', `The client did not declare the capability this request needs`, {
    requiredCapabilities: required,
  });
}
