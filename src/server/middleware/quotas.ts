/**
 * Per-principal quotas, counted the same way on every transport: a token bucket (requests
 * per second, off by default), a cap on requests in progress with a short FIFO queue before
 * it refuses, and counts of what a principal holds open (listen streams, tasks). A
 * long-lived stream (a listen, a legacy GET stream) is held under its own bound, never as a
 * request in progress, so idle subscribers cannot lock their principal out. {@link principalQuotas} is the built-in
 * server middleware that applies the first two to every request, whatever carried it;
 * the HTTP endpoint counts with the same {@link PrincipalBudgets} before it reads a body
 * and answers a refusal 429 with `Retry-After`.
 *
 * At most `maxTracked` principals have their own budgets. A new principal takes the place
 * of a tracked one only if that one is idle with a full bucket (forgetting it hands out
 * nothing it would not have anyway); when none is, the new principal shares one overflow
 * budget with every other untracked principal. So a flood of fresh keys never gets fresh
 * budgets by pushing out the ones it has spent, and tracked principals keep theirs.
 * Source: RFC 6585 §4 (429), RFC 9110 §10.2.3 (Retry-After).
 */
import { WireError, type Middleware, type Params } from '../../core/index.js';
import { principalKey, thenOrNow } from '../../core/runtime.js';
import { principalShare } from './shares.js';

/** Bounds on what one principal may ask of a server at once and over time. */
export interface PrincipalRateLimits {
  /** Requests per second one principal may make, on average (default: unlimited). */
  requestsPerSecond?: number;
  /** Requests one principal may make at once above the average (default 2 × `requestsPerSecond`, at least 1). */
  burst?: number;
  /** Requests one principal may have in progress (default 100); long-lived streams are not counted. */
  maxConcurrentRequests?: number;
  /**
   * Requests of one principal that wait, first come first served, for one of its
   * `maxConcurrentRequests` slots instead of being refused (default 102, a tenth of the 1 024
   * connections `serve()` holds, since a queued HTTP request holds one; 0 refuses at once).
   */
  maxQueuedRequests?: number;
  /** Milliseconds a queued request waits for a slot before it is refused (default 30 000; 0 refuses at once). */
  queueTimeoutMs?: number;
  /**
   * Principals with budgets of their own at once (default 10 000). Beyond it, new principals
   * share one budget until a tracked one is idle with a full bucket (see the module comment).
   */
  maxTracked?: number;
  /** Longest principal key, in UTF-16 code units (default 512); a longer one is refused. */
  maxKeyLength?: number;
}

/** Why a principal's request was refused: the bound it is over, and whole seconds to wait. */
export interface QuotaRefusal {
  /** `key`: the principal's key is longer than `maxKeyLength` (a bad request, not a rate). */
  readonly limit: 'key' | 'concurrency' | 'rate';
  /** Names the bound, e.g. `more than 5 requests per second (requestsPerSecond)`. */
  readonly why: string;
  /** Seconds until a retry may pass (1 for `concurrency` and `key`). */
  readonly retryAfterS: number;
}

/** Longest wait reported (one day): a whole number of seconds, never `Infinity` or `1e+30`. */
const MAX_RETRY_AFTER_S = 86_400;

/** Tracked entries examined for one new principal when the table is full. */
const SWEEP = 8;

interface Entry {
  tokens: number;
  refilledAt: number;
  inFlight: number;
  /** Requests waiting for a slot, oldest first (made on the first wait). */
  waiting?: Waiter[];
}

interface Waiter {
  /** Hands the waiter a slot its releaser left (inFlight unchanged). */
  grant(): void;
}

/**
 * How a request is admitted. `signal` is read only when the request has to wait in the queue,
 * so a lazily made signal (an HTTP request's, a scope's) is never made for one admitted at once.
 */
export interface AdmitOptions {
  /** Aborted when the caller goes away: a queued request leaves the queue. */
  readonly signal?: AbortSignal | undefined;
  /** A long-lived stream held under its own bound: rate only, never a request in progress. */
  readonly stream?: boolean | undefined;
}

/** The release of an admitted request (idempotent), or why it was refused; a promise while it is queued. */
export type Admitted = (() => void) | QuotaRefusal;

/** Longest timer a runtime keeps (2^31 − 1 ms); a longer wait means no timeout. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The release of a request nobody in particular made: nothing was counted (compare by identity). */
export function noRelease(): void {}

/** The budgets of every principal of one server or endpoint ('' is nobody in particular: never counted). */
export class PrincipalBudgets {
  readonly #entries = new Map<string, Entry>();
  readonly #rate: number;
  readonly #burst: number;
  readonly #maxInFlight: number;
  readonly #maxQueued: number;
  readonly #queueMs: number;
  readonly #maxTracked: number;
  readonly #maxKeyLength: number;
  readonly #option: string;
  /** The budget shared by principals beyond `maxTracked`. */
  readonly #overflow: Entry;

  /**
   * `option` prefixes the option names in errors (`principals`, `limits.perPrincipal`).
   * @throws RangeError when a limit is not a positive number (NaN would silently turn it off).
   */
  constructor(limits: PrincipalRateLimits, option: string) {
    this.#option = option;
    const positive = (name: string, value: number): number => {
      if (typeof value === 'number' && value > 0) return value;
      throw new RangeError(`${option}.${name} must be a positive number, not ${String(value)}`);
    };
    this.#rate = positive('requestsPerSecond', limits.requestsPerSecond ?? Infinity);
    this.#burst = positive('burst', limits.burst ?? Math.max(1, Math.ceil(2 * this.#rate)));
    this.#maxInFlight = positive('maxConcurrentRequests', limits.maxConcurrentRequests ?? 100);
    const nonNegative = (name: string, value: number): number => (value === 0 ? 0 : positive(name, value));
    this.#maxQueued = nonNegative('maxQueuedRequests', limits.maxQueuedRequests ?? principalShare(Infinity));
    this.#queueMs = nonNegative('queueTimeoutMs', limits.queueTimeoutMs ?? 30_000);
    this.#maxTracked = positive('maxTracked', limits.maxTracked ?? 10_000);
    this.#maxKeyLength = positive('maxKeyLength', limits.maxKeyLength ?? 512);
    this.#overflow = { tokens: this.#burst, refilledAt: performance.now(), inFlight: 0 };
  }

  /**
   * Admits a request of `principal`: the release to call once it has ended (idempotent), or
   * the refusal. Over `maxConcurrentRequests`, a promise that settles when a slot frees up,
   * or with the refusal once the queue is full, `queueTimeoutMs` passed, or `signal` aborted.
   */
  admit(principal: string, options: AdmitOptions = {}): Admitted | Promise<Admitted> {
    if (principal === '') return noRelease;
    if (principal.length > this.#maxKeyLength) return this.#tooLong();
    const entry = this.#entry(principal);
    const waitS = this.#take(entry);
    if (waitS > 0) return this.#overRate(waitS);
    if (options.stream) return noRelease;
    if (entry.inFlight >= this.#maxInFlight) return this.#enqueue(entry, options.signal);
    entry.inFlight++;
    return this.#releaseOf(entry);
  }

  #releaseOf(entry: Entry): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = entry.waiting?.shift();
      if (next) next.grant();
      else entry.inFlight--;
    };
  }

  // Waits for a slot of `entry`, first come first served, within the queue's bounds.
  #enqueue(entry: Entry, signal: AbortSignal | undefined): QuotaRefusal | Promise<Admitted> {
    const waiting = (entry.waiting ??= []);
    if (waiting.length >= this.#maxQueued || this.#queueMs === 0 || signal?.aborted) return this.#busy();
    return new Promise((resolve) => {
      const settle = (admitted: Admitted): void => {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', refuse);
        resolve(admitted);
      };
      const waiter: Waiter = { grant: () => settle(this.#releaseOf(entry)) };
      const refuse = (): void => {
        const at = waiting.indexOf(waiter);
        if (at !== -1) waiting.splice(at, 1);
        settle(this.#busy());
      };
      const timer = this.#queueMs > MAX_TIMER_MS ? undefined : setTimeout(refuse, this.#queueMs);
      signal?.addEventListener('abort', refuse, { once: true });
      waiting.push(waiter);
    });
  }

  #busy(): QuotaRefusal {
    const queued = this.#maxQueued > 0 && this.#queueMs > 0 ? ' and the queue is full or its wait over' : '';
    const why = `more than ${this.#maxInFlight} requests in progress (maxConcurrentRequests)${queued}`;
    return { limit: 'concurrency', why, retryAfterS: 1 };
  }

  /** The refusal of a request of `principal` when its rate is spent (nothing is taken), else undefined. */
  spent(principal: string): QuotaRefusal | undefined {
    if (principal.length > this.#maxKeyLength) return this.#tooLong();
    if (principal === '' || this.#rate === Infinity) return undefined;
    const entry =
      this.#entries.get(principal) ?? (this.#entries.size >= this.#maxTracked ? this.#overflow : undefined);
    if (!entry) return undefined;
    const waitS = this.#wait(entry);
    return waitS > 0 ? this.#overRate(waitS) : undefined;
  }

  /** Charges one request that is not admitted (a failed authentication) to `principal`'s rate. */
  charge(principal: string): QuotaRefusal | undefined {
    if (principal === '' || this.#rate === Infinity) return undefined;
    const waitS = this.#take(this.#entry(principal));
    return waitS > 0 ? this.#overRate(waitS) : undefined;
  }

  // Takes a token; 0 when one was available, else the seconds until one will be.
  #take(entry: Entry): number {
    const waitS = this.#wait(entry);
    if (waitS === 0 && this.#rate !== Infinity) entry.tokens--;
    return waitS;
  }

  // Refills the bucket; 0 when a token is available, else the seconds until one will be.
  #wait(entry: Entry): number {
    if (this.#rate === Infinity) return 0;
    const now = performance.now();
    entry.tokens = Math.min(this.#burst, entry.tokens + ((now - entry.refilledAt) / 1000) * this.#rate);
    entry.refilledAt = now;
    if (entry.tokens >= 1) return 0;
    return Math.min(MAX_RETRY_AFTER_S, Math.max(1, Math.ceil((1 - entry.tokens) / this.#rate)));
  }

  /** The entry of `principal`: its own, a new one, or the shared overflow (module comment). */
  #entry(principal: string): Entry {
    const known = this.#entries.get(principal);
    if (known) return known;
    if (this.#entries.size >= this.#maxTracked && !this.#forgetOne()) return this.#overflow;
    const entry = { tokens: this.#burst, refilledAt: performance.now(), inFlight: 0 };
    this.#entries.set(principal, entry);
    return entry;
  }

  // Forgets one of the first SWEEP entries that is idle with a full bucket (the others go to the back).
  #forgetOne(): boolean {
    for (let i = 0; i < SWEEP; i++) {
      const [key, entry] = this.#entries.entries().next().value!;
      this.#entries.delete(key);
      if (entry.inFlight === 0 && this.#wait(entry) === 0 && entry.tokens >= this.#burst) return true;
      this.#entries.set(key, entry);
    }
    return false;
  }

  #overRate(waitS: number): QuotaRefusal {
    return {
      limit: 'rate',
      why: `more than ${this.#rate} requests per second (requestsPerSecond)`,
      retryAfterS: waitS,
    };
  }

  #tooLong(): QuotaRefusal {
    return {
      limit: 'key',
      why: `principal key longer than ${this.#maxKeyLength} characters (${this.#option}.maxKeyLength)`,
      retryAfterS: 1,
    };
  }
}

/**
 * The wire error of a refusal: -32600 `TooManyRequests` (HTTP 429) naming the bound and
 * the wait, with `data.retryAfterS`; a too-long key is -32600 `InvalidRequest` (400).
 */
function quotaError(refusal: QuotaRefusal): WireError {
  if (refusal.limit === 'key') return WireError.of('InvalidRequest', `Bad Request: ${refusal.why}`);
  const message = `Too Many Requests: ${refusal.why}; retry after ${refusal.retryAfterS} s`;
  return WireError.of('TooManyRequests', message, { retryAfterS: refusal.retryAfterS });
}

/**
 * The built-in middleware behind `createServer({ limits: { perPrincipal } })`: every
 * incoming request is counted against its caller's budget (the principal in `ctx.auth`,
 * set by the transport or by an auth middleware before this one) and refused with
 * {@link quotaError} when over one; a request stays in progress until its result or error,
 * and over `maxConcurrentRequests` it first waits in the principal's queue. A
 * `subscriptions/listen` is charged to the rate only (its own bound holds it). Anonymous
 * callers and notifications are not counted.
 */
export function principalQuotas(limits: PrincipalRateLimits): Middleware {
  const budgets = new PrincipalBudgets(limits, 'limits.perPrincipal');
  const run = (
    admitted: Admitted,
    handle: () => Promise<Params | undefined>,
  ): Promise<Params | undefined> => {
    if (typeof admitted !== 'function') return Promise.reject(quotaError(admitted));
    let handled;
    try {
      handled = handle();
    } catch (error) {
      admitted();
      throw error;
    }
    return handled.finally(admitted);
  };
  return (next) => (message, ctx) => {
    if (message.kind !== 'request' || ctx.direction !== 'incoming') return next(message, ctx);
    // A listen is a long-lived stream, bounded by limits.maxListenStreamsPerPrincipal.
    const stream = message.method === 'subscriptions/listen';
    const admitted = budgets.admit(principalKey(ctx.auth, undefined), {
      get signal() {
        return ctx.signal;
      },
      stream,
    });
    const handle = () => next(message, ctx);
    // run answers with a promise, so both branches do.
    return thenOrNow(admitted, run, handle) as Promise<Params | undefined>;
  };
}

/** Counts held per principal under one bound (listen streams, tasks). */
export class PrincipalQuota {
  readonly #counts = new Map<string, number>();
  readonly #max: number;
  readonly #what: string;

  /** `what` names the bound in errors, e.g. `listen streams (limits.maxListenStreamsPerPrincipal)`. */
  constructor(max: number, what: string) {
    this.#max = max;
    this.#what = what;
  }

  /**
   * Takes one unit for `principal`; returns its release (idempotent).
   * @throws WireError -32600 `TooManyRequests` (HTTP 429) when the principal already holds the maximum.
   */
  acquire(principal: string): () => void {
    if (principal === '') return noRelease;
    const held = this.#counts.get(principal) ?? 0;
    if (held >= this.#max)
      throw WireError.of(
        'TooManyRequests',
        `Too Many Requests: this client holds ${this.#max} ${this.#what}`,
      );
    this.#counts.set(principal, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#counts.get(principal) ?? 1) - 1;
      if (left > 0) this.#counts.set(principal, left);
      else this.#counts.delete(principal);
    };
  }
}
