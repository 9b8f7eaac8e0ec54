/**
 * Modern client → modern backend: no parking. The request is relayed as it is with the
 * client's own capabilities; a backend's `input_required` goes to the client with the
 * backend's keys, and the backend's `requestState` waits here (at most `ttlMs`, at most
 * `maxEntries`) until the retry that answers those keys, which carries it back. A retry
 * whose state expired is relayed without it (the backend asks again).
 * Source: 2026-07-28 basic/patterns/mrtr.
 */
import { WireError, type Params } from '../../core/index.js';
import type { RequestContext } from '../../server/index.js';
import type { RelayFields } from '../host.js';
import type { InputKind } from '../inputs.js';
import { askClient } from './parked.js';

const KINDS: Record<string, InputKind> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

interface Held {
  requestState: unknown;
  keys: string[];
  expires: number;
}

/** Backend `requestState`s waiting for their retries. */
export class RelayStates {
  readonly #held = new Map<string, Held[]>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  #size = 0;

  constructor(ttlMs: number, maxEntries = 10_000) {
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
  }

  /** The relay fields of a (re)try of the request `signature` by `ctx`. */
  fieldsFor(ctx: RequestContext, signature: string): RelayFields {
    const answered = ctx.inputResponses;
    const keys = Object.keys(answered);
    const base: RelayFields = { clientCapabilities: ctx.clientCapabilities };
    if (keys.length === 0) return base;
    const held = this.#take(signature, keys);
    const inputResponses = held ? pick(answered, held.keys) : answered;
    return {
      ...base,
      inputResponses,
      ...(held?.requestState === undefined ? {} : { requestState: held.requestState }),
    };
  }

  /**
   * Hands a result back: a complete one as it is; an `input_required` one is asked of the
   * client through `ctx` with the backend's keys (which abandons this run on modern).
   */
  async answer(ctx: RequestContext, signature: string, result: Params): Promise<Params> {
    if (result.resultType !== 'input_required') return result;
    const requests = (result.inputRequests ?? {}) as Record<string, { method?: string; params?: Params }>;
    this.#hold(signature, {
      requestState: result.requestState,
      keys: Object.keys(requests),
      expires: Date.now() + this.#ttlMs,
    });
    await Promise.all(
      Object.entries(requests).map(([key, r]) => {
        const kind =
          typeof r.method === 'string' && Object.hasOwn(KINDS, r.method) ? KINDS[r.method] : undefined;
        if (!kind)
          throw WireError.of(
            'InternalError',
            `a backend asked for unknown input ${JSON.stringify(r.method)}`,
          );
        return askClient(ctx, { key, request: { kind, params: r.params ?? {} } as never });
      }),
    );
    throw WireError.of('InternalError', 'the input requests were answered without a retry');
  }

  #hold(signature: string, held: Held): void {
    if (this.#size >= this.#maxEntries) this.#sweep();
    if (this.#size >= this.#maxEntries) return;
    const list = this.#held.get(signature) ?? [];
    list.push(held);
    this.#held.set(signature, list);
    this.#size++;
  }

  #take(signature: string, keys: readonly string[]): Held | undefined {
    const list = this.#held.get(signature);
    const now = Date.now();
    const index = list?.findIndex((h) => h.expires > now && h.keys.every((k) => keys.includes(k))) ?? -1;
    if (!list || index < 0) return undefined;
    const [held] = list.splice(index, 1);
    this.#size--;
    if (list.length === 0) this.#held.delete(signature);
    return held;
  }

  #sweep(): void {
    const now = Date.now();
    for (const [signature, list] of this.#held) {
      const live = list.filter((h) => h.expires > now);
      this.#size -= list.length - live.length;
      if (live.length) this.#held.set(signature, live);
      else this.#held.delete(signature);
    }
  }
}

function pick(answers: Readonly<Record<string, unknown>>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => Object.hasOwn(answers, k)).map((k) => [k, answers[k]]));
}
