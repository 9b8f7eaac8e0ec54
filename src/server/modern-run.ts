/**
 * Running a feature method for a modern request: the handler context, and for the methods
 * that may ask the client for input, the multi round-trip bookkeeping (the round of known
 * answers, abandoning a run that waits for input, sealing the answers into `requestState`).
 * Source: 2026-07-28 basic/patterns/mrtr.
 */
import { McpError } from '../core/errors.js';
import { principalOf } from '../core/principal.js';
import type { JsonRpcRequest, Params } from '../core/jsonrpc.js';
import type { RequestStateSealer, StateBinding } from '../core/request-state.js';
import type { RequestChannel } from './channel.js';
import { createContext, type ContextChannel, type RequestContext } from './context.js';
import type { ModernMeta } from './modern.js';
import type { SchemaLimits } from '../validation/index.js';
import {
  INPUT_METHODS,
  InputRound,
  bindingOf,
  inputRequiredResult,
  isInputRequired,
  openRound,
  type InputMethod,
} from './mrtr.js';

/** What the server lends the modern path: its feature dispatch and its state sealer. */
export interface ModernRunner {
  readonly sealer: RequestStateSealer;
  /** The server's `limits.schema`, which also bound elicitation `requestedSchema`s. */
  readonly schemaLimits?: SchemaLimits | undefined;
  runFeature(method: string, params: Params, ctx: RequestContext): Promise<Params> | Params;
}

/** Runs the feature method of a modern request; resolves with its result (not yet decorated). */
export function runModernFeature(
  runner: ModernRunner,
  request: JsonRpcRequest,
  channel: RequestChannel,
  meta: ModernMeta,
): Promise<Params> | Params {
  if (INPUT_METHODS.has(request.method)) return runWithInputs(runner, request, channel, meta);
  const ctx = createContext(modernChannel(request, channel, meta, () => channel.signal, undefined));
  return runner.runFeature(request.method, request.params ?? {}, ctx);
}

/** Runs a handler that may ask the client for input. */
async function runWithInputs(
  runner: ModernRunner,
  request: JsonRpcRequest,
  channel: RequestChannel,
  meta: ModernMeta,
): Promise<Params> {
  const params = request.params ?? {};
  const principal = principalOf(channel.authInfo);
  let binding: Promise<StateBinding> | undefined;
  const bind = (): Promise<StateBinding> => (binding ??= bindingOf(request.method, params, principal));
  // A first round (no state, no responses) needs no await.
  const first = params.requestState === undefined && params.inputResponses === undefined;
  const round = first ? new InputRound({}) : await openRound(params, bind, runner.sealer);
  round.schemaLimits = runner.schemaLimits;
  // The handler's signal also fires when the run is abandoned for input; made on first use.
  let local: AbortController | undefined;
  const signal = (): AbortSignal => (local ??= followSignal(channel.signal)).signal;
  const ctx = createContext(modernChannel(request, channel, meta, signal, round));
  const outcome = await new Promise<Params | undefined>((resolve, reject) => {
    round.onNeeded = () => resolve(undefined);
    // A synchronous throw inside this executor rejects the promise, as a handler's would.
    Promise.resolve(runner.runFeature(request.method, params, ctx)).then(resolve, reject);
  });
  const requests =
    outcome === undefined ? round.pending : isInputRequired(outcome) ? outcome.inputRequests : undefined;
  if (!requests) return outcome as Params;
  local?.abort(new Error('input required'));
  return inputRequiredResult(round, requests, await bind(), runner.sealer);
}

/** The context channel of a modern request; `round` is set where input may be asked. */
function modernChannel(
  request: JsonRpcRequest,
  channel: RequestChannel,
  meta: ModernMeta,
  signal: () => AbortSignal,
  round: InputRound | undefined,
): ContextChannel {
  return new ModernChannel(request, channel, meta, signal, round);
}

/** A class rather than a literal with accessors: one of these is made for every call. */
class ModernChannel implements ContextChannel {
  readonly era = 'modern' as const;
  readonly requestId: JsonRpcRequest['id'];
  readonly meta: Readonly<Record<string, unknown>>;
  readonly protocolVersion: string;
  readonly clientCapabilities: ModernMeta['clientCapabilities'];
  readonly clientInfo: ModernMeta['clientInfo'];
  readonly logLevel: ModernMeta['logLevel'];
  readonly authInfo: RequestChannel['authInfo'];
  readonly schemaLimits: SchemaLimits | undefined;
  readonly #method: string;
  readonly #channel: RequestChannel;
  readonly #signal: () => AbortSignal;
  readonly #round: InputRound | undefined;

  constructor(
    request: JsonRpcRequest,
    channel: RequestChannel,
    meta: ModernMeta,
    signal: () => AbortSignal,
    round: InputRound | undefined,
  ) {
    this.requestId = request.id;
    this.#method = request.method;
    this.meta = meta.meta;
    this.protocolVersion = meta.protocolVersion;
    this.clientCapabilities = meta.clientCapabilities;
    this.clientInfo = meta.clientInfo;
    this.logLevel = meta.logLevel;
    this.authInfo = channel.authInfo;
    this.#channel = channel;
    this.#signal = signal;
    this.#round = round;
    this.schemaLimits = round?.schemaLimits;
  }

  get signal(): AbortSignal {
    return this.#signal();
  }

  inputResponses(): Readonly<Record<string, unknown>> {
    return this.#round?.known ?? {};
  }

  notify(method: string, params: Params): void {
    this.#channel.notify(method, params);
  }

  ask(method: InputMethod, params: Params, key?: string): Promise<Params> {
    return this.#round ? this.#round.ask(method, params, key) : Promise.reject(noInputOn(this.#method));
  }
}

/** A controller that aborts when `parent` does. */
function followSignal(parent: AbortSignal): AbortController {
  const controller = new AbortController();
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', () => controller.abort(parent.reason), { once: true });
  return controller;
}

function noInputOn(method: string): McpError {
  return McpError.of(
    'InternalError',
    `${method} cannot ask the client for input; only tools/call, resources/read and prompts/get can`,
  );
}
