/**
 * One {@link RequestScope} per request: what the transport knows about it (cancellation,
 * where its notifications go, the caller, headers, the legacy session) and what the server
 * learns while routing it (era, revision, client capabilities, how to ask the client for
 * input). The transport builds it once; the server's middleware and dispatch work on it;
 * the handler gets it as its {@link RequestContext}. Era differences in how `elicit`,
 * `sample` and `listRoots` reach the client are an {@link InputAsker}: the modern round
 * (`input_required`), a task (`tasks/update`), or, with none, the legacy session's request.
 * Source: 2026-07-28 basic/patterns (progress, cancellation, MRTR), server/utilities/logging;
 * 2025-11-25 client/* (server-initiated requests).
 */
import {
  WireError,
  type AuthInfo,
  type JsonRpcRequest,
  type Params,
  type RequestId,
  type Era,
  type LegacyRevision,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitResult,
  type Implementation,
  type ListRootsResult,
  type LoggingLevel,
} from '../core/index.js';
import { isLevelEnabled } from '../core/runtime.js';
import type { InferOutput, SchemaLimits, StandardJsonSchema } from '../validation/index.js';
import {
  capabilityError,
  checkRequestedSchema,
  missingCapability,
  noInputOn,
  type AskedMethod,
} from './answers.js';
import type { InputOptions, ProgressOptions, RequestContext } from './context.js';
import { askSession } from './legacy/input.js';
import type { LegacySession } from './legacy/session.js';
import type { ModernMeta } from './modern.js';
import { openUserState, type ServedBy, type UserState } from './user-state.js';
import {
  elicitWithSchema,
  hasSchemaObject,
  type SchemaElicitParams,
  type SchemaElicitResult,
} from './schema-elicit.js';

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

/** The transport's line for one request: its cancellation and its related notifications. */
export interface ScopeLine {
  /** Aborted when the client cancels the request or goes away (may be made on first read). */
  readonly signal: AbortSignal;
  /** Sends a notification tied to this request (progress, log messages). */
  notify(method: string, params: Params): void;
  /**
   * Aborted when the transport asks the request to end gracefully (shutdown, a listen's
   * lifetime bound): a listen then sends its completion result. Absent: never.
   */
  readonly closing?: AbortSignal | undefined;
}

/**
 * What the transport binds a request to besides its line: often one object per connection
 * or exchange, read when the scope is built.
 */
export interface ScopeBinding {
  /** The era the transport already established (a modern HTTP exchange); see core/era.ts. */
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
  /** The legacy session the request belongs to, if any. */
  readonly session?: LegacySession | undefined;
  /** Opens a legacy session for `initialize`; absent where sessions cannot be opened. */
  openSession?(init: SessionInit): LegacySession;
}

/** How a handler's input requests reach the client on its era (see the module comment). */
export interface InputAsker {
  /** The answers known so far, by input request key (see {@link RequestContext.inputResponses}). */
  readonly known: Readonly<Record<string, unknown>>;
  ask(method: AskedMethod, params: Params, key?: string): Promise<Params>;
  /** Optional: records `value` under `key` as known, sealed with the answers into the next round. */
  remember?(key: string, value: unknown): void;
}

/** The server's middleware chains, as a chained request's scope reaches them (server/chains.ts). */
export interface ScopeChain {
  /** Sends the request's notification through the outgoing chain. */
  notify(scope: RequestScope, method: string, params: Params): void;
  /** Passes what a session opened by the request sends through the outgoing chain. */
  opened(session: LegacySession): void;
}

const NONE: Readonly<Record<string, never>> = Object.freeze({});
const NO_BINDING: ScopeBinding = Object.freeze({});

/** The request a scope routes: the JSON-RPC request as the middleware passed it on. */
export type ScopeRequest = Pick<JsonRpcRequest, 'id' | 'method' | 'params'>;

type ChainedCtx = { readonly signal: AbortSignal; readonly auth?: AuthInfo | undefined };

// The server's own operations on a scope. The scope is the handler's ctx, so its internals
// are `#private` (nothing of them is reachable from a handler: `'rewrite' in ctx` is false);
// these functions, set once by the class, are how the server layer reaches them.

/** The request as the middleware passed it on (the transport's, when no middleware changed it). */
export let requestOf: (scope: RequestScope) => ScopeRequest;
/** Routes the scope as `request`: the request as the middleware passed it on. */
export let rewrite: (scope: RequestScope, request: ScopeRequest) => void;
/** The transport's binding (also the request's `EraSource` for core/era.ts). */
export let bindingOf: (scope: RequestScope) => ScopeBinding;
/** The server's `limits.schema` for the request, which also bound elicitation `requestedSchema`s. */
export let schemaLimitsOf: (scope: RequestScope) => SchemaLimits | undefined;
/** Sets what the server serving the request keeps for all its requests (read by {@link schemaLimitsOf}, `userState`). */
export let setServed: (scope: RequestScope, served: ServedBy | undefined) => void;
/** Serves the request as modern, with its `_meta` fields checked. */
export let enterModern: (scope: RequestScope, meta: ModernMeta) => void;
/** The modern `_meta` fields, once {@link enterModern} checked them. */
export let modernOf: (scope: RequestScope) => ModernMeta | undefined;
/**
 * Sends the handler's input requests through `asker`. `abandonable`: the handler's signal
 * also fires on {@link abandon} (an MRTR run given up for input).
 */
export let askThrough: (scope: RequestScope, asker: InputAsker, abandonable?: boolean) => void;
/** Gives up the run: aborts the handler's signal if it was read, with `reason`. */
export let abandon: (scope: RequestScope, reason: unknown) => void;
/** Serves the request in its legacy session (input requests go to the client on it). */
export let enterLegacy: (scope: RequestScope) => void;
/**
 * Records what the server's middleware passed on: the ctx's signal (read when first asked)
 * and principal, and where the request's notifications go (through the outgoing chain).
 */
export let chained: (scope: RequestScope, ctx: ChainedCtx, via: ScopeChain) => void;
/** The ctx the middleware passed on, once {@link chained}; undefined before. */
export let chainCtxOf: (scope: RequestScope) => object | undefined;
/** The transport's line of the request, past any middleware (its signal, `closing`, `notify`). */
export let lineOf: (scope: RequestScope) => ScopeLine;
/** Opens the legacy session an `initialize` asks for. @throws WireError -32600 where none can be opened. */
export let openSession: (scope: RequestScope, init: SessionInit) => LegacySession;
/** The scope behind a handler's ctx, or undefined for a ctx the server did not make. */
export let scopeOf: (ctx: RequestContext) => RequestScope | undefined;
let remember: (scope: RequestScope, key: string, value: unknown) => boolean;

/**
 * One request, from the transport to the handler (see the module comment). Its public
 * members are exactly {@link RequestContext}'s; the server reaches the rest through the
 * functions of this module ({@link requestOf}, {@link enterModern}, …).
 */
export class RequestScope implements RequestContext {
  static {
    requestOf = (scope) => scope.#request;
    rewrite = (scope, request) => void (scope.#request = request);
    bindingOf = (scope) => scope.#binding;
    schemaLimitsOf = (scope) => scope.#served?.schema;
    setServed = (scope, served) => void (scope.#served = served);
    enterModern = (scope, meta) => void ((scope.#era = 'modern'), (scope.#modern = meta));
    modernOf = (scope) => scope.#modern;
    askThrough = (scope, asker, abandonable = false) =>
      void ((scope.#asker = asker), (scope.#abandonable = abandonable));
    abandon = (scope, reason) => scope.#local?.abort(reason);
    enterLegacy = (scope) => void (scope.#era = 'legacy');
    chained = (scope, ctx, via) => void ((scope.#auth = ctx.auth), (scope.#ctx = ctx), (scope.#via = via));
    chainCtxOf = (scope) => scope.#ctx;
    lineOf = (scope) => scope.#line;
    openSession = (scope, init) => scope.#openSession(init);
    scopeOf = (ctx) => (#line in ctx ? (ctx as RequestScope) : undefined);
    remember = (scope, key, value) => scope.#remember(key, value);
  }

  #request: ScopeRequest;
  readonly #binding: ScopeBinding;
  #served: ServedBy | undefined;
  readonly #line: ScopeLine;
  #era: Era = 'modern';
  #modern: ModernMeta | undefined;
  #asker: InputAsker | undefined;
  #auth: AuthInfo | undefined;
  #ctx: ChainedCtx | undefined;
  #via: ScopeChain | undefined;
  #abandonable = false;
  #local: AbortController | undefined;
  #lastProgress = -Infinity;

  constructor(request: ScopeRequest, line: ScopeLine, binding: ScopeBinding = NO_BINDING) {
    this.#request = request;
    this.#line = line;
    this.#binding = binding;
    this.#auth = binding.authInfo;
  }

  /** Made on first read: most requests never need an AbortController. */
  get signal(): AbortSignal {
    if (this.#local) return this.#local.signal;
    const base = this.#ctx ? this.#ctx.signal : this.#line.signal;
    if (!this.#abandonable) return base;
    this.#local = new AbortController();
    if (base.aborted) this.#local.abort(base.reason);
    else base.addEventListener('abort', () => this.#local?.abort(base.reason), { once: true });
    return this.#local.signal;
  }
  get requestId(): RequestId {
    return this.#request.id;
  }
  get era(): Era {
    return this.#era;
  }
  get protocolVersion(): string {
    return this.#era === 'legacy'
      ? (this.#binding.session?.protocolVersion ?? '')
      : (this.#modern?.protocolVersion ?? '');
  }
  get clientCapabilities(): ClientCapabilities {
    const legacy = this.#era === 'legacy';
    return (legacy ? this.#binding.session?.clientCapabilities : this.#modern?.clientCapabilities) ?? NONE;
  }
  get clientInfo(): Implementation | undefined {
    return this.#era === 'legacy' ? this.#binding.session?.clientInfo : this.#modern?.clientInfo;
  }
  get meta(): Readonly<Record<string, unknown>> {
    if (this.#modern) return this.#modern.meta;
    const meta = this.#request.params?._meta;
    return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : NONE;
  }
  get auth(): AuthInfo | undefined {
    return this.#auth;
  }
  get inputResponses(): Readonly<Record<string, unknown>> {
    return this.#asker?.known ?? NONE;
  }
  /** Made on each read, only when read: a request that never uses it pays nothing. */
  get userState(): UserState {
    return openUserState(this.#served?.userState, this.#auth, this.#binding);
  }

  #remember(key: string, value: unknown): boolean {
    if (!this.#asker?.remember) return false;
    this.#asker.remember(key, value);
    return true;
  }

  /** The log threshold in force (legacy: read at each message, so `logging/setLevel` applies at once). */
  get #logLevel(): LoggingLevel | undefined {
    return this.#era === 'legacy' ? this.#binding.session?.logLevel : this.#modern?.logLevel;
  }

  /** Sends a notification tied to this request, through the outgoing middleware when there is some. */
  notify(method: string, params: Params): void {
    if (this.#via) this.#via.notify(this, method, params);
    else this.#line.notify(method, params);
  }

  #openSession(init: SessionInit): LegacySession {
    if (this.#binding.session || !this.#binding.openSession)
      throw WireError.of('InvalidRequest', 'This connection is already initialized');
    const session = this.#binding.openSession(init);
    this.#via?.opened(session);
    return session;
  }

  progress(progress: number, options: ProgressOptions = {}): void {
    const token = this.meta.progressToken;
    if ((typeof token !== 'string' && typeof token !== 'number') || progress <= this.#lastProgress) return;
    this.#lastProgress = progress;
    this.notify('notifications/progress', { progressToken: token, progress, ...options });
  }

  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const threshold = this.#logLevel;
    if (threshold === undefined || !isLevelEnabled(level, threshold)) return;
    this.notify('notifications/message', logger === undefined ? { level, data } : { level, data, logger });
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
      this.#ask('elicitation/create', wire, options?.key) as Promise<ElicitResult>;
    const limits = this.#served?.schema;
    if (hasSchemaObject(params)) return elicitWithSchema(params, send, limits);
    try {
      checkRequestedSchema(params, limits);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return send(params);
  }

  sample(params: CreateMessageRequestParams, options?: InputOptions): Promise<CreateMessageResult> {
    return this.#ask('sampling/createMessage', params, options?.key) as Promise<CreateMessageResult>;
  }

  listRoots(options?: InputOptions): Promise<ListRootsResult> {
    return this.#ask('roots/list', {}, options?.key) as Promise<ListRootsResult>;
  }

  async #ask(method: AskedMethod, params: object, key: string | undefined): Promise<unknown> {
    const missing = missingCapability(this.clientCapabilities, method, params);
    if (missing) throw capabilityError(this.#era, missing);
    if (this.signal.aborted) throw WireError.of('InternalError', 'Request was cancelled');
    if (this.#asker) return this.#asker.ask(method, params as Params, key);
    const session = this.#era === 'legacy' ? this.#binding.session : undefined;
    if (!session) throw noInputOn(this.#request.method);
    const question = { method, params: params as Params, limits: this.#served?.schema, signal: this.signal };
    return askSession(session, question);
  }
}

/**
 * Keeps `value` under `key` in the `requestState` the server seals into this request's next
 * `input_required` result, so the retry's run reads it back in `ctx.inputResponses[key]`.
 * For extensions and proxies that hand a round of their own to the client (the gateway
 * relays a backend's `input_required` this way). Returns false, keeping nothing, where the
 * request has no such round: legacy sessions, tasks, requests that cannot ask for input.
 * Source: 2026-07-28 basic/patterns/mrtr ("requestState").
 */
export function keepInRequestState(ctx: RequestContext, key: string, value: unknown): boolean {
  const scope = scopeOf(ctx);
  return scope !== undefined && remember(scope, key, value);
}
