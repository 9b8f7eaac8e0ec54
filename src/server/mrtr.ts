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
  DEFAULT_MAX_STATE_CHARS,
} from '../core/runtime.js';
import {
  checkInputAnswer,
  checkInputRequests,
  isAskedMethod,
  questionShape,
  type AskedQuestion,
} from './answers.js';
import type { SchemaLimits } from '../validation/index.js';
import { abandon, askThrough, requestOf, schemaLimitsOf, type RequestScope } from './scope.js';

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

/**
 * The answers known for one run of a handler, and the questions it asked that are not answered.
 * Every answer that reaches the handler (through `ctx.*` or `ctx.inputResponses`) was checked
 * against the question that asked for it: a fresh answer to a question of the previous round
 * against that question as sealed in `requestState`, and any answer, sealed or fresh, again
 * against the question the handler asks now (its schema may have changed since).
 */
export class InputRound {
  /** Checked answers: sealed by earlier rounds, and this retry's answers to sealed questions. */
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
   * Returns the recorded answer for this question, or registers it and never settles. A
   * recorded answer is checked against the question as asked now: a sealed one that no
   * longer fits (the schema changed) is asked again; a fresh one that does not fit refuses.
   * @throws WireError -32602 when a fresh answer is not a valid result for the question
   *   (see `checkInputAnswer`).
   */
  ask(method: InputMethod, params: Params, key?: string): Promise<Params> {
    const k = key ?? this.#autoKey(method);
    const question = { method, params, limits: this.schemaLimits };
    const fresh = ownEntry(this.#fresh, k);
    if (Object.hasOwn(this.answers, k) && this.answers[k] !== fresh)
      return checkInputAnswer(question, this.answers[k], `requestState answer ${k}`).then(
        (answer) => answer,
        () => (Reflect.deleteProperty(this.answers, k), this.#pend(k, { method, params })),
      );
    if (isObject(fresh)) {
      return checkAnswer(k, question, fresh).then((answer) => {
        setOwn(this.answers, k, answer);
        return answer;
      });
    }
    return this.#pend(k, { method, params });
  }

  #pend(key: string, request: InputRequest): Promise<Params> {
    setOwn(this.pending, key, request);
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

  /**
   * Every checked answer known to this run: sealed ones, and this retry's answers to the
   * questions sealed with the state. A fresh answer to a question not sealed is not here
   * until the handler asks for it (and it passes the check).
   */
  get known(): Record<string, unknown> {
    return { ...this.answers };
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
  /** The checked answers so far, by key. */
  a: Record<string, unknown>;
  /** The questions of the round that sealed the state, by key: method and {@link questionShape}. */
  q?: Record<string, { m: InputMethod; p: Params }>;
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
  opening: { sealer: RequestStateSealer; limits: SchemaLimits | undefined },
): Promise<InputRound> {
  const { sealer, limits } = opening;
  const responses = params.inputResponses;
  if (responses !== undefined && !isObject(responses)) {
    throw WireError.of(
      'InvalidParams',
      'inputResponses must be an object mapping input request keys to results',
    );
  }
  const state = await openState(params.requestState, binding, sealer);
  const fresh = responses ?? {};
  const answers = { ...state.a };
  await Promise.all(
    Object.entries(state.q ?? {}).map(async ([key, { m, p }]) => {
      const answer = ownEntry(fresh, key);
      if (isObject(answer))
        setOwn(answers, key, await checkAnswer(key, { method: m, params: p, limits }, answer));
    }),
  );
  return new InputRound(answers, fresh, binding);
}

async function openState(
  state: unknown,
  binding: () => Promise<StateBinding>,
  sealer: RequestStateSealer,
): Promise<StatePayload> {
  if (state === undefined) return { a: {} };
  if (typeof state !== 'string') throw WireError.of('InvalidParams', 'requestState must be a string');
  const max = sealer.maxStateChars ?? DEFAULT_MAX_STATE_CHARS;
  if (state.length > max)
    throw WireError.of('InvalidParams', `Invalid requestState: it is longer than ${max} characters`, {
      maxStateChars: max,
    });
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
  const q: NonNullable<StatePayload['q']> = {};
  for (const [key, { method, params }] of Object.entries(requests))
    if (isAskedMethod(method)) setOwn(q, key, { m: method, p: questionShape(method, params) });
  const payload: StatePayload = { a: round.answers, q };
  const requestState = await round.sealer!.seal(payload, binding);
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
  const params = requestOf(scope).params ?? {};
  let binding: Promise<StateBinding> | undefined;
  const bind = (): Promise<StateBinding> =>
    (binding ??= bindingOf(requestOf(scope).method, params, principalOf(scope.auth)));
  if (params.requestState === undefined && params.inputResponses === undefined)
    return beginRound(new InputRound({}, {}, bind), scope, sealer);
  return openRound(params, bind, { sealer, limits: schemaLimitsOf(scope) }).then((round) =>
    beginRound(round, scope, sealer),
  );
}

function beginRound(round: InputRound, scope: RequestScope, sealer: RequestStateSealer): InputRound {
  round.schemaLimits = schemaLimitsOf(scope);
  round.scope = scope;
  round.sealer = sealer;
  askThrough(scope, round, true);
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
  abandon(scope, new LocalError('ABORTED', 'input required'));
  return inputRequiredResult(round, requests, await round.bind!());
}
