/**
 * Multi round-trip requests on the modern wire. A handler calls `ctx.elicit()`,
 * `ctx.sample()` or `ctx.listRoots()` as if the client answered at once; when an answer is
 * not yet known the SDK abandons that run and answers `input_required` with every pending
 * input request and a sealed `requestState` carrying the answers so far. On the retry the
 * handler runs again and each call returns its recorded answer, in order.
 * Source: 2026-07-28 basic/patterns/mrtr.
 */
import { LocalError, WireError, type Params } from '../core/index.js';
import {
  isObject,
  ownEntry,
  setOwn,
  digestParams,
  type RequestStateSealer,
  type StateBinding,
  principalOf,
} from '../core/runtime.js';
import { checkInputAnswer, checkInputRequests, type AskedQuestion } from './answers.js';
import type { SchemaLimits } from '../validation/index.js';
import type { RequestScope } from './scope.js';

/** Methods whose handlers may answer `input_required`. */
export const INPUT_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

/** The request methods a server may put in `inputRequests`. */
export type InputMethod = 'elicitation/create' | 'sampling/createMessage' | 'roots/list';

/** One input request as sent in `inputRequests`. */
export interface InputRequest {
  method: InputMethod;
  params: Params;
}

const MARK = Symbol.for('mcpkit.inputRequired');

/** An explicit `input_required` answer a handler may return instead of its normal result. */
export interface InputRequiredAnswer {
  readonly [MARK]: true;
  readonly inputRequests: Record<string, InputRequest>;
}

/** Builds an explicit `input_required` answer (the SDK seals and adds `requestState`). */
export function inputRequired(inputRequests: Record<string, InputRequest>): InputRequiredAnswer {
  return { [MARK]: true, inputRequests };
}

/** True for a value built by {@link inputRequired}. */
export function isInputRequired(value: unknown): value is InputRequiredAnswer {
  return typeof value === 'object' && value !== null && MARK in value;
}

const PREFIX: Record<InputMethod, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** The answers known for one run of a handler, and the questions it asked that are not answered. */
export class InputRound {
  /** Answers sealed in `requestState` by earlier rounds: trusted as they are. */
  readonly answers: Record<string, unknown>;
  /** Answers sent in this retry's `inputResponses`: checked against the question when asked. */
  readonly #fresh: Record<string, unknown>;
  readonly pending: Record<string, InputRequest> = {};
  #counts: Map<string, number> | undefined; // made when a handler first asks without a key
  /** Called once the handler asked for something not yet answered (after siblings had a turn). */
  onNeeded: (() => void) | undefined;
  /** The server's `limits.schema`, applied to the `requestedSchema` a fresh answer is checked against. */
  schemaLimits: SchemaLimits | undefined;
  /** What {@link settleRound} needs (set by {@link openInputRound}): the scope, the sealer, the state binding. */
  scope: RequestScope | undefined;
  sealer: RequestStateSealer | undefined;
  bind: (() => Promise<StateBinding>) | undefined;
  #scheduled = false;

  constructor(
    answers: Record<string, unknown>,
    fresh: Record<string, unknown> = {},
    bind?: () => Promise<StateBinding>,
  ) {
    this.answers = { ...answers };
    this.#fresh = fresh;
    this.bind = bind;
  }

  /**
   * Returns the recorded answer for this question, or registers it and never settles.
   * @throws WireError -32602 when a fresh answer is not a valid result for the question
   *   (see `checkInputAnswer`).
   */
  ask(method: InputMethod, params: Params, key?: string): Promise<Params> {
    const k = key ?? this.#autoKey(method);
    if (Object.hasOwn(this.answers, k)) return Promise.resolve(this.answers[k] as Params);
    const fresh = ownEntry(this.#fresh, k);
    if (isObject(fresh)) {
      return checkAnswer(k, { method, params, limits: this.schemaLimits }, fresh).then((answer) => {
        setOwn(this.answers, k, answer);
        return answer;
      });
    }
    setOwn(this.pending, k, { method, params });
    // Let calls made in the same turn (Promise.all of several inputs) register too.
    if (!this.#scheduled) {
      this.#scheduled = true;
      setTimeout(() => this.onNeeded?.(), 0);
    }
    return new Promise<Params>(() => undefined);
  }

  /** Records `value` under `key` as an answer, so the next `requestState` seals it. */
  remember(key: string, value: unknown): void {
    setOwn(this.answers, key, value);
  }

  /** Every answer known to this run: sealed ones and this retry's fresh ones (unchecked). */
  get known(): Record<string, unknown> {
    return { ...this.#fresh, ...this.answers };
  }

  #autoKey(method: InputMethod): string {
    this.#counts ??= new Map();
    const n = (this.#counts.get(method) ?? 0) + 1;
    this.#counts.set(method, n);
    return `${PREFIX[method]}-${n}`;
  }
}

/** The params that identify a request for binding its state. */
function salientParams(method: string, params: Params): unknown {
  return method === 'resources/read' ? [params.uri] : [params.name, params.arguments ?? {}];
}

/** Builds the binding of a request's state. */
async function bindingOf(method: string, params: Params, principal: string): Promise<StateBinding> {
  return { principal, method, digest: await digestParams(salientParams(method, params)) };
}

interface StatePayload {
  a: Record<string, unknown>;
}

/**
 * Opens the round of a retry: the sealed answers so far plus the new `inputResponses`.
 * Unknown keys are simply never asked for; non-object answers count as missing.
 * @throws WireError -32602 for malformed `inputResponses`/`requestState`, or for tampered,
 *   expired or foreign state.
 */
async function openRound(
  params: Params,
  binding: () => Promise<StateBinding>,
  sealer: RequestStateSealer,
): Promise<InputRound> {
  const responses = params.inputResponses;
  if (responses !== undefined && !isObject(responses)) {
    throw WireError.of(
      'InvalidParams',
      'inputResponses must be an object mapping input request keys to results',
    );
  }
  const state = await openState(params.requestState, binding, sealer);
  return new InputRound(state.a, responses ?? {}, binding);
}

async function openState(
  state: unknown,
  binding: () => Promise<StateBinding>,
  sealer: RequestStateSealer,
): Promise<StatePayload> {
  if (state === undefined) return { a: {} };
  if (typeof state !== 'string') throw WireError.of('InvalidParams', 'requestState must be a string');
  const bound = await binding();
  try {
    return (await sealer.open(state, bound)) as StatePayload;
  } catch (error) {
    throw WireError.of('InvalidParams', error instanceof Error ? error.message : 'Invalid requestState');
  }
}

function checkAnswer(key: string, question: AskedQuestion, answer: Params): Promise<Params> {
  return checkInputAnswer(question, answer, `inputResponses.${key}`);
}

/** Seals the answers so far (with the round's sealer) and the pending questions into the `input_required` result. */
async function inputRequiredResult(
  round: InputRound,
  requests: Record<string, InputRequest>,
  binding: StateBinding,
): Promise<Params> {
  const requestState = await round.sealer!.seal({ a: round.answers } satisfies StatePayload, binding);
  return { resultType: 'input_required', inputRequests: requests, requestState };
}

/**
 * Opens the round of a modern request whose handler may ask the client for input: the
 * answers known so far (sealed `requestState` plus this retry's `inputResponses`). The
 * scope's input requests then go through it, and its signal also fires when the run is
 * abandoned for input. A first round (no state, no responses) needs no await.
 * @throws WireError -32602 for malformed or foreign `inputResponses`/`requestState`.
 */
export function openInputRound(
  scope: RequestScope,
  sealer: RequestStateSealer,
): InputRound | Promise<InputRound> {
  const params = scope.request.params ?? {};
  let binding: Promise<StateBinding> | undefined;
  const bind = (): Promise<StateBinding> =>
    (binding ??= bindingOf(scope.request.method, params, principalOf(scope.auth)));
  if (params.requestState === undefined && params.inputResponses === undefined)
    return beginRound(new InputRound({}, {}, bind), scope, sealer);
  return openRound(params, bind, sealer).then((round) => beginRound(round, scope, sealer));
}

function beginRound(round: InputRound, scope: RequestScope, sealer: RequestStateSealer): InputRound {
  round.schemaLimits = scope.schemaLimits;
  round.scope = scope;
  round.sealer = sealer;
  scope.askThrough(round, true);
  return round;
}

/**
 * Settles a round once its handler answered or asked for something not yet answered:
 * the handler's result, or `input_required` with every pending input request and the
 * answers so far sealed into `requestState` (the abandoned run's signal aborts).
 */
export async function settleRound(round: InputRound, running: Promise<Params> | Params): Promise<Params> {
  const scope = round.scope!;
  const outcome = await new Promise<Params | undefined>((resolve, reject) => {
    round.onNeeded = () => resolve(undefined);
    Promise.resolve(running).then(resolve, reject);
  });
  const requests =
    outcome === undefined ? round.pending : isInputRequired(outcome) ? outcome.inputRequests : undefined;
  if (!requests) return outcome as Params;
  if (outcome !== undefined) checkInputRequests(scope.clientCapabilities, 'modern', requests);
  scope.abandon(new LocalError('ABORTED', 'input required'));
  return inputRequiredResult(round, requests, await round.bind!());
}
