/**
 * Modern client → modern backend: no parking. The request is relayed as it is with the
 * client's own capabilities; a backend's `input_required` goes to the client with each
 * backend key behind a handle of its own (`gwr.<128-bit random hex>.<backend key>`), and the
 * backend's `requestState` waits here under that handle (at most `ttlMs`, at most
 * `maxEntries`) until the retry that answers those keys, which carries it back. Only a
 * retry naming the handle, of the same request, by the same principal, takes it: another
 * client calling the same tool with the same arguments never gets this client's state. A
 * retry whose state expired is relayed with its answers but without state (the backend asks again).
 * Source: 2026-07-28 basic/patterns/mrtr.
 */
import { randomBytes } from 'node:crypto';
import { WireError, type Params } from '../../core/index.js';
import { principalOf } from '../../core/runtime.js';
import { keepInRequestState, type RequestContext } from '../../server/index.js';
import type { RelayFields } from '../host.js';
import type { InputKind } from '../inputs.js';
import { askClient } from './parked.js';

const KINDS: Record<string, InputKind> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** The sealed answer under which a round's handle and backend keys travel with the client's state. */
const HANDLE_KEY = 'io.mcpkit/gateway-relay';

interface RelayRound {
  handle: string;
  keys: string[];
}

function relayRoundOf(value: unknown): RelayRound | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { handle, keys } = value as Partial<RelayRound>;
  if (typeof handle !== 'string' || !Array.isArray(keys)) return undefined;
  return { handle, keys: keys.filter((k): k is string => typeof k === 'string') };
}

interface Held {
  requestState: unknown;
  signature: string;
  principal: string;
  expires: number;
}

/** Longest backend `requestState` held for a retry, in characters (as a server accepts by default). */
const MAX_HELD_STATE_CHARS = 1024 * 1024;

/**
 * Backend `requestState`s waiting for their retries, by handle: at most `maxEntries` in all
 * and a tenth of them per principal, each at most 1 MiB. One not held (over a bound) makes
 * that caller's retry go without state, so the backend asks again; another principal's
 * states are never pushed out.
 */
export class RelayStates {
  readonly #held = new Map<string, Held>();
  readonly #perPrincipal = new Map<string, number>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #maxPerPrincipal: number;

  constructor(ttlMs: number, maxEntries = 10_000) {
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
    this.#maxPerPrincipal = Math.max(1, Math.floor(maxEntries / 10));
  }

  /** The relay fields of a (re)try of the request `signature` by `ctx`. */
  fieldsFor(ctx: RequestContext, signature: string): RelayFields {
    const answered = ctx.inputResponses;
    const base: RelayFields = { clientCapabilities: ctx.clientCapabilities };
    const round = relayRoundOf(Object.hasOwn(answered, HANDLE_KEY) ? answered[HANDLE_KEY] : undefined);
    if (!round) return base;
    const inputResponses: Record<string, unknown> = {};
    for (const key of round.keys)
      if (Object.hasOwn(answered, key)) Object.defineProperty(inputResponses, key, ownValue(answered[key]));
    const handle = round.handle;
    const held = this.#take(handle, signature, principalOf(ctx.auth));
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
    const handle = randomBytes(16).toString('hex');
    // Without a round to seal it in (not an MRTR request), the retry goes without state.
    keepInRequestState(ctx, HANDLE_KEY, { handle, keys: Object.keys(requests) });
    this.#hold(handle, {
      requestState: result.requestState,
      signature,
      principal: principalOf(ctx.auth),
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
        const request = { kind, params: r.params ?? {} } as never;
        return askClient(ctx, { key, request });
      }),
    );
    throw WireError.of('InternalError', 'the input requests were answered without a retry');
  }

  #hold(handle: string, held: Held): void {
    const state = held.requestState;
    if (typeof state === 'string' && state.length > MAX_HELD_STATE_CHARS) return;
    const mine = this.#perPrincipal.get(held.principal) ?? 0;
    if (this.#held.size >= this.#maxEntries || mine >= this.#maxPerPrincipal) this.#sweep();
    if (this.#held.size >= this.#maxEntries) return;
    if ((this.#perPrincipal.get(held.principal) ?? 0) >= this.#maxPerPrincipal) return;
    this.#held.set(handle, held);
    this.#perPrincipal.set(held.principal, (this.#perPrincipal.get(held.principal) ?? 0) + 1);
  }

  /** The state held under `handle`, once, if it is the same request's and principal's and not expired. */
  #take(handle: string, signature: string, principal: string): Held | undefined {
    const held = this.#held.get(handle);
    if (!held || held.signature !== signature || held.principal !== principal) return undefined;
    this.#drop(handle, held);
    return held.expires > Date.now() ? held : undefined;
  }

  #drop(handle: string, held: Held): void {
    this.#held.delete(handle);
    const left = (this.#perPrincipal.get(held.principal) ?? 1) - 1;
    if (left > 0) this.#perPrincipal.set(held.principal, left);
    else this.#perPrincipal.delete(held.principal);
  }

  #sweep(): void {
    const now = Date.now();
    for (const [handle, held] of this.#held) if (held.expires <= now) this.#drop(handle, held);
  }
}

function ownValue(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true };
}
