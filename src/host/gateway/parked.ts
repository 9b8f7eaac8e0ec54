/**
 * The era bridge for modern clients: a backend call that asks for input mid-call (a legacy
 * server's `elicitation/create`, `sampling/createMessage` or `roots/list` on its session,
 * or a modern backend's `input_required`) is parked, and the gateway answers its own
 * client `input_required` with the question under the key `gw.<park id>.<n>` and a sealed
 * `requestState`. The client's retry carries the answer; the gateway hands it to the
 * waiting backend request and waits for the call's next question or its result.
 *
 * Lifetime rules:
 * - A parked call waits at most `parkTimeoutMs` (default 120 000 ms) for the retry that
 *   answers its question. Then the backend's requests still waiting (several may, when it
 *   asks concurrently; the client gets them one round each) are answered as if the user
 *   dismissed them (elicitation: `{ action: "cancel" }`; sampling and roots: error -32603 naming the
 *   timeout), the backend call is cancelled (`notifications/cancelled`), and the park is
 *   forgotten: a later retry for it gets -32602 "unknown or expired".
 * - While the client's retry waits for the backend, the backend call runs under the
 *   gateway's `callTimeoutMs` (reset by progress); if it expires the retry gets an error
 *   naming the server.
 * - A retry for a different tool or different arguments than the parked call is refused
 *   with -32602. Park ids are 128-bit random; earlier answers travel sealed in `requestState`.
 * - A parked call belongs to the principal that started it (core/principal.ts): a retry by
 *   anyone else is answered as if the park did not exist (-32602 "unknown or expired"),
 *   and the call stays parked for its owner. Anonymous callers share the principal '', so
 *   between them only the unguessable park id keeps calls apart.
 * Source: 2026-07-28 basic/patterns/mrtr; 2025-11-25 client/elicitation, client/sampling.
 */
import { randomBytes } from 'node:crypto';
import { LocalError, WireError, type Params } from '../../core/index.js';
import { principalOf, setTimer } from '../../core/runtime.js';
import type { RequestContext } from '../../server/index.js';
import type { InputRequestEvent } from '../inputs.js';
import { firstUnsafeInteger, unsafeIntegerMessage } from '../exact-numbers.js';

/** What happened next in a parked call. */
type Step =
  | { kind: 'done'; result: unknown }
  | { kind: 'failed'; error: unknown }
  | { kind: 'question'; key: string; request: InputRequestEvent };

const KEY = /^gw\.([0-9a-f]{32})\.(\d+)$/;

/** One backend call that may be parked between rounds. */
class ParkedCall {
  readonly id = randomBytes(16).toString('hex');
  readonly signature: string;
  /** The principal that started the call; only its retries resume it. */
  readonly owner: string;
  readonly abort = new AbortController();
  /** The context of the front request now driving this call (progress and logs go there). */
  current: RequestContext | undefined;
  waiting = false;
  /** The question the client was last asked and has not answered yet. */
  pending: Extract<Step, { kind: 'question' }> | undefined;
  #asked = 0;
  #steps: Step[] = [];
  #wake: (() => void) | undefined;
  /** The backend's input requests waiting for the client's answers, by key (several may wait at once). */
  readonly #waiting = new Map<
    string,
    { resolve: (value: Params) => void; reject: (error: unknown) => void }
  >();
  #expiry: ReturnType<typeof setTimeout> | undefined;

  constructor(signature: string, owner: string) {
    this.signature = signature;
    this.owner = owner;
  }

  /** The backend asks for input: queue the question, resolve when the client answers. */
  ask(request: InputRequestEvent): Promise<Params> {
    const key = `gw.${this.id}.${++this.#asked}`;
    const answer = new Promise<Params>((resolve, reject) => this.#waiting.set(key, { resolve, reject }));
    this.#push({ kind: 'question', key, request });
    return answer;
  }

  settle(outcome: Step): void {
    this.#push(outcome);
  }

  /** Hands the client's answer (or a failure) to the backend request asked under `key`. */
  reply(key: string, answer: Params | undefined, error?: unknown): void {
    const waiting = this.#waiting.get(key);
    this.#waiting.delete(key);
    if (error !== undefined) waiting?.reject(error);
    else waiting?.resolve(answer ?? {});
  }

  /** Answers every backend request still waiting (queued or asked) as `outcome` says: the park expired. */
  expireAll(outcome: (request: InputRequestEvent) => { answer?: Params; error?: unknown }): void {
    const requests = new Map<string, InputRequestEvent>();
    for (const step of [...(this.pending ? [this.pending] : []), ...this.#steps])
      if (step.kind === 'question') requests.set(step.key, step.request);
    for (const [key, request] of requests) {
      const { answer, error } = outcome(request);
      this.reply(key, answer, error);
    }
  }

  /** The next step of the call. */
  async next(): Promise<Step> {
    while (this.#steps.length === 0) await new Promise<void>((resolve) => (this.#wake = resolve));
    return this.#steps.shift() as Step;
  }

  /** Starts the park timer; `onExpire` runs if no retry comes in time. */
  park(ms: number, onExpire: () => void): void {
    this.waiting = true;
    clearTimeout(this.#expiry);
    this.#expiry = setTimer(onExpire, ms);
    this.#expiry?.unref?.();
  }

  unpark(): void {
    this.waiting = false;
    clearTimeout(this.#expiry);
  }

  #push(step: Step): void {
    this.#steps.push(step);
    this.#wake?.();
    this.#wake = undefined;
  }
}

/** Starts the backend call; `onInput` receives its input requests. */
export type StartCall = (options: {
  signal: AbortSignal;
  onInput: (request: InputRequestEvent) => Promise<Params>;
  context: () => RequestContext | undefined;
}) => Promise<unknown>;

/** Bounds on the parked calls of one gateway. */
export interface ParkLimits {
  /** How long a parked call waits for the client's retry, in milliseconds. */
  parkTimeoutMs: number;
  /** Most calls parked or running for modern clients at once (default 1 000). */
  maxParkedCalls?: number | undefined;
  /** Most of them one verified principal may hold (default 100; anonymous callers: only the global bound). */
  maxParkedCallsPerPrincipal?: number | undefined;
}

/** The parked calls of one gateway. */
export class ParkedCalls {
  readonly #calls = new Map<string, ParkedCall>();
  readonly #parkTimeoutMs: number;
  readonly #max: number;
  readonly #maxPerPrincipal: number;
  readonly #owners = new Map<ParkedCall, string>();
  readonly #perPrincipal = new Map<string, number>();

  constructor(limits: ParkLimits) {
    this.#parkTimeoutMs = limits.parkTimeoutMs;
    this.#max = limits.maxParkedCalls ?? 1000;
    this.#maxPerPrincipal = limits.maxParkedCallsPerPrincipal ?? 100;
  }

  /** How many calls are parked or running for modern clients now. */
  get size(): number {
    return this.#calls.size;
  }

  /**
   * Runs (or resumes) a call for a modern client's request. Resolves with the call's result;
   * when the backend asks for input, asks the client through `ctx` (which abandons this
   * run with `input_required`, see the module comment).
   * @throws WireError -32602 for a retry whose park is unknown or expired or belongs to another call;
   *   -32600 (HTTP 429) for a new call beyond `maxParkedCalls` or `maxParkedCallsPerPrincipal`.
   */
  async run(ctx: RequestContext, signature: string, start: StartCall): Promise<unknown> {
    const principal = principalOf(ctx.auth);
    const call = this.#resume(ctx, signature, principal) ?? this.#begin(signature, start, principal);
    call.current = ctx;
    call.unpark();
    const onAbort = () => {
      if (!call.waiting) call.abort.abort(ctx.signal.reason);
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.#drive(call, ctx);
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
  }

  #begin(signature: string, start: StartCall, principal: string): ParkedCall {
    this.#admit(principal);
    const call = new ParkedCall(signature, principal);
    this.#calls.set(call.id, call);
    if (principal !== '') {
      this.#owners.set(call, principal);
      this.#perPrincipal.set(principal, (this.#perPrincipal.get(principal) ?? 0) + 1);
    }
    start({ signal: call.abort.signal, onInput: (r) => call.ask(r), context: () => call.current }).then(
      (result) => call.settle({ kind: 'done', result }),
      (error: unknown) => call.settle({ kind: 'failed', error }),
    );
    return call;
  }

  /** The parked call a retry by `principal` answers, with its pending question answered from `ctx`. */
  #resume(ctx: RequestContext, signature: string, principal: string): ParkedCall | undefined {
    const ids = new Set(Object.keys(ctx.inputResponses).flatMap((k) => KEY.exec(k)?.[1] ?? []));
    if (ids.size === 0) return undefined;
    const [id] = ids;
    const found = this.#calls.get(id as string);
    const call = found?.owner === principal ? found : undefined;
    if (!call)
      throw WireError.of('InvalidParams', `the gateway has no parked request ${id}: unknown or expired`);
    if (call.signature !== signature)
      throw WireError.of(
        'InvalidParams',
        `parked request ${id} belongs to another call (tool or arguments differ)`,
      );
    return call;
  }

  async #drive(call: ParkedCall, ctx: RequestContext): Promise<unknown> {
    for (;;) {
      const step = await (call.pending ?? call.next());
      call.pending = undefined;
      if (step.kind === 'done') return this.#finish(call, () => step.result);
      if (step.kind === 'failed') return this.#finish(call, () => Promise.reject(step.error));
      await this.#ask(call, ctx, step);
    }
  }

  /** Asks the client for one answer: at once on a retry that carries it, else by `input_required`. */
  async #ask(
    call: ParkedCall,
    ctx: RequestContext,
    step: Extract<Step, { kind: 'question' }>,
  ): Promise<void> {
    call.pending = step;
    call.park(this.#parkTimeoutMs, () => this.#expire(call));
    let answer: Params;
    try {
      answer = await askClient(ctx, step);
    } catch (error) {
      call.pending = undefined;
      call.unpark();
      call.reply(step.key, undefined, error);
      return;
    }
    call.pending = undefined;
    call.unpark();
    call.reply(step.key, answer);
  }

  #admit(principal: string): void {
    const why =
      this.#calls.size >= this.#max
        ? `${this.#max} calls are waiting for clients (maxParkedCalls)`
        : principal !== '' && (this.#perPrincipal.get(principal) ?? 0) >= this.#maxPerPrincipal
          ? `this client has ${this.#maxPerPrincipal} calls waiting (maxParkedCallsPerPrincipal)`
          : undefined;
    if (why) throw WireError.of('TooManyRequests', `Too Many Requests: ${why}`);
  }

  #forget(call: ParkedCall): void {
    this.#calls.delete(call.id);
    const principal = this.#owners.get(call);
    if (principal === undefined) return;
    this.#owners.delete(call);
    const left = (this.#perPrincipal.get(principal) ?? 1) - 1;
    if (left > 0) this.#perPrincipal.set(principal, left);
    else this.#perPrincipal.delete(principal);
  }

  #expire(call: ParkedCall): void {
    this.#forget(call);
    const ms = this.#parkTimeoutMs;
    call.expireAll((request) =>
      request.kind === 'elicitation'
        ? { answer: { action: 'cancel' } }
        : {
            error: WireError.of('InternalError', `the client did not answer within ${ms} ms (parkTimeoutMs)`),
          },
    );
    call.abort.abort(new LocalError('TIMEOUT', `parked request expired after ${ms} ms (parkTimeoutMs)`));
  }

  async #finish(call: ParkedCall, outcome: () => unknown): Promise<unknown> {
    this.#forget(call);
    return outcome();
  }
}

/**
 * Asks the front client through the request context (modern: MRTR; legacy: a session
 * request). An answer carrying an integer beyond ±(2^53 − 1) is refused with -32602 naming
 * where, never relayed to the backend rounded.
 */
export async function askClient(
  ctx: RequestContext,
  step: { key?: string; request: InputRequestEvent },
): Promise<Params> {
  const options = step.key === undefined ? undefined : { key: step.key };
  const { kind, params } = step.request;
  const answer =
    kind === 'elicitation'
      ? ((await ctx.elicit(params as never, options)) as unknown as Params)
      : kind === 'sampling'
        ? ((await ctx.sample(params as never, options)) as unknown as Params)
        : ((await ctx.listRoots(options)) as unknown as Params);
  const at = firstUnsafeInteger(answer);
  if (at !== undefined)
    throw WireError.of('InvalidParams', unsafeIntegerMessage(`the client's ${kind} answer`, at));
  return answer;
}
