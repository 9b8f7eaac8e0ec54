/**
 * One place for user-facing input: elicitation, sampling and roots requests from any
 * server reach the host's handlers with the server's name, after the server's allow/deny
 * policy. A call in flight may take them over, and its server's log messages too (the
 * gateway does, to pass them to its own client). Nothing reaches a call unless it is
 * shown to be that call's, in this order:
 * 1. the call in whose async context it arrives (modern backends answer `input_required`
 *    inside the call);
 * 2. the call the transport links it to: on Streamable HTTP a server sends what relates to
 *    a call on that call's POST SSE stream (`Transport.relatedRequest`, and the `related`
 *    id of a notification's frame);
 * 3. the call whose progress token an input request carries in `_meta.progressToken`;
 * 4. on a channel that names no call (stdio): the server's only call in flight, if it has
 *    just one (the host runs a legacy stdio server's calls one at a time, see turns.ts).
 * Otherwise it is no call's: an input request goes to the host's handlers (refused when
 * calls that take input are in flight, since it may be theirs), a log message only to the
 * host's `notification` event.
 * Source: 2025-11-25 client/elicitation, client/sampling, client/roots, basic/transports
 * (a standalone GET stream carries messages unrelated to any request); 2026-07-28
 * basic/patterns/mrtr, server/utilities/logging (log messages are request-scoped).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  WireError,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitResult,
  type ListRootsResult,
  type Params,
  type RequestId,
  type Root,
} from '../core/index.js';
import type { ClientHandlers, HandlerContext } from '../client/index.js';
import type { InputPolicy } from './config.js';

/** The kinds of input a server may ask the host for. */
export type InputKind = 'elicitation' | 'sampling' | 'roots';

/** The method of each input kind. */
const INPUT_METHOD = {
  elicitation: 'elicitation/create',
  sampling: 'sampling/createMessage',
  roots: 'roots/list',
} as const;

/** What a host handler gets besides the request's params. */
export interface HostInputContext {
  /** The name of the server (its key in `mcpServers`) that asked. */
  readonly server: string;
  /** Aborted when the server cancels its request or the connection closes. */
  readonly signal: AbortSignal;
}

/** The host's answers to input requests from any server. */
export interface HostHandlers {
  elicitation?: (params: Params, context: HostInputContext) => Promise<ElicitResult>;
  sampling?: (params: CreateMessageRequestParams, context: HostInputContext) => Promise<CreateMessageResult>;
  roots?: (context: HostInputContext) => Promise<ListRootsResult>;
}

/** One input request a call may take over (see `CallOptions.onInput`). */
export interface InputRequestEvent {
  readonly server: string;
  readonly kind: InputKind;
  readonly method: (typeof INPUT_METHOD)[InputKind];
  readonly params: Params;
  readonly signal: AbortSignal;
}

/** A call in flight that may take input requests and log messages of its server. */
export interface CallScope {
  readonly server: string;
  onInput?: ((request: InputRequestEvent) => Promise<Params>) | undefined;
  /** Receives the params of the server's `notifications/message` that belong to this call. */
  onLog?: ((params: Params) => void) | undefined;
  /** The JSON-RPC ids the call's requests went out with (its progress tokens too). */
  readonly requestIds?: Set<RequestId>;
}

/** What a server's input request is answered under: the host's policy and roots, and what links it to a call. */
export interface InputLink {
  /** The host's policy for the server that asked. */
  readonly policy: InputPolicy | undefined;
  /** The host's roots for that server, if any. */
  readonly roots?: readonly Root[] | undefined;
  /** The call's request whose stream carried it (Streamable HTTP). */
  readonly relatedRequestId?: RequestId | undefined;
}

/** Routes input requests per server; see the module comment. */
export class InputRouter {
  readonly #handlers: HostHandlers;
  readonly #defaults: InputPolicy;
  readonly #calls = new Map<string, Set<CallScope>>();
  readonly #context = new AsyncLocalStorage<CallScope>();
  readonly #streams: (server: string) => boolean;

  /** `streams(server)`: true when the server's transport carries each call on its own stream (HTTP). */
  constructor(handlers: HostHandlers, defaults: InputPolicy, streams: (server: string) => boolean) {
    this.#handlers = handlers;
    this.#defaults = defaults;
    this.#streams = streams;
  }

  /**
   * Whether `kind` is allowed for a server: its policy, else the host's, else allowed
   * when the host has a handler for it (roots: also when the server has configured roots).
   */
  allows(kind: InputKind, policy: InputPolicy | undefined, roots: readonly Root[] | undefined): boolean {
    const decision = policy?.[kind] ?? this.#defaults[kind];
    if (decision !== undefined) return decision === 'allow';
    return this.#handlers[kind] !== undefined || (kind === 'roots' && roots !== undefined);
  }

  /**
   * Runs `fn` as call `scope`: input requests of its server may come to it. `inContext`
   * also marks the async context, so requests arising inside the call (a modern server's
   * `input_required`, answered by the client within the call) find it among several.
   */
  async within<T>(scope: CallScope, fn: () => Promise<T>, inContext = true): Promise<T> {
    let set = this.#calls.get(scope.server);
    if (!set) this.#calls.set(scope.server, (set = new Set()));
    set.add(scope);
    try {
      // Only calls that take input need the async context (it costs every promise a little).
      return await (scope.onInput && inContext ? this.#context.run(scope, fn) : fn());
    } finally {
      set.delete(scope);
    }
  }

  /** The calls in flight on `server`, oldest first. */
  callsOn(server: string): CallScope[] {
    return [...(this.#calls.get(server) ?? [])];
  }

  /**
   * Answers one input request from `server`.
   * @throws WireError -32600 when policy denies it; -32603 when nothing can answer it.
   */
  async route(request: InputRequestEvent, link: InputLink): Promise<Params> {
    const { server, kind } = request;
    const { policy, roots } = link;
    if (!this.allows(kind, policy, roots)) {
      throw WireError.of(
        'InvalidRequest',
        `the host's policy denies ${kind} requests from server '${server}'`,
      );
    }
    if (kind === 'roots' && roots) return { roots: [...roots] };
    const current = this.#context.getStore();
    const call =
      current?.server === server
        ? current
        : this.#callFor(server, [link.relatedRequestId, progressTokenOf(request.params)]);
    if (call?.onInput) return call.onInput(request);
    if (call === undefined && this.callsOn(server).some((c) => c.onInput))
      throw WireError.of(
        'InternalError',
        `server '${server}' sent ${request.method} that names none of its calls in flight; ` +
          `the host passes it to no caller rather than risk another caller's`,
      );
    return this.#answer(request);
  }

  /**
   * Passes a server's `notifications/message` to the call it belongs to (see the module
   * comment), if any; `related` is the id of the request whose stream carried it.
   */
  notify(server: string, params: Params, related: RequestId | undefined): void {
    this.#callFor(server, [related])?.onLog?.(params);
  }

  /** The call `ids` (related request, progress token) name; else the only call on a channel that names none. */
  #callFor(server: string, ids: readonly (RequestId | undefined)[]): CallScope | undefined {
    const calls = this.callsOn(server);
    for (const id of ids) {
      const linked = id === undefined ? undefined : calls.find((c) => c.requestIds?.has(id));
      if (linked) return linked;
    }
    if (this.#streams(server) || calls.length !== 1) return undefined;
    return calls[0];
  }

  async #answer(request: InputRequestEvent): Promise<Params> {
    const context: HostInputContext = { server: request.server, signal: request.signal };
    const h = this.#handlers;
    if (request.kind === 'elicitation' && h.elicitation)
      return h.elicitation(request.params, context) as unknown as Promise<Params>;
    if (request.kind === 'sampling' && h.sampling)
      return h.sampling(
        request.params as unknown as CreateMessageRequestParams,
        context,
      ) as unknown as Promise<Params>;
    if (request.kind === 'roots' && h.roots) return h.roots(context) as unknown as Promise<Params>;
    throw WireError.of(
      'InternalError',
      `the host has no ${request.kind} handler for server '${request.server}'`,
    );
  }
}

function progressTokenOf(params: Params): RequestId | undefined {
  const token = (params._meta as Params | undefined)?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/**
 * The client handlers for one server's connection: each kind its policy allows is routed
 * through `inputs` (see {@link InputRouter.route}); the others are left out, so the client
 * does not declare them.
 */
export function clientHandlersOf(
  inputs: InputRouter,
  source: { server: string; policy: InputPolicy | undefined; roots: readonly Root[] | undefined },
): ClientHandlers {
  const { server, policy, roots } = source;
  const handlers: ClientHandlers = {};
  const ask = (kind: InputKind) => (params: unknown, context: HandlerContext) =>
    inputs.route(
      {
        server,
        kind,
        method: INPUT_METHOD[kind],
        params: (params ?? {}) as Params,
        signal: context.signal,
      },
      { policy, roots, relatedRequestId: context.relatedRequestId },
    );
  if (inputs.allows('elicitation', policy, roots)) handlers.elicitation = ask('elicitation') as never;
  if (inputs.allows('sampling', policy, roots)) handlers.sampling = ask('sampling') as never;
  if (inputs.allows('roots', policy, roots)) handlers.roots = ask('roots') as never;
  return handlers;
}
