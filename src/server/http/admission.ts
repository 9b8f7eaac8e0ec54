/**
 * Per-principal admission to the HTTP endpoint: a token bucket (requests per second,
 * off by default) and a cap on requests in progress (an open SSE stream counts until it
 * ends). A request over either is answered 429 Too Many Requests with `Retry-After` and a
 * JSON-RPC error body, before its body is read; other principals are not affected.
 *
 * The principal is who the auth guard verified (`auth:<subject or client id>`), else the
 * peer's address group (`addr:<ip>`, when the adapter knows it: an IPv4 address, an IPv6
 * address's /64 network `addr:2001:db8:1:2::/64`, an IPv4-mapped IPv6 address as IPv4),
 * else nobody in particular: an unidentified request is held only to the global bounds.
 * Behind a reverse proxy every client has the proxy's address: give `principal` to read a
 * forwarded header instead. A principal key longer than `maxKeyLength` is refused (400).
 *
 * At most `maxTracked` principals have their own budgets. A new principal takes the place
 * of a tracked one only if that one is idle with a full bucket (forgetting it hands out
 * nothing it would not have anyway); when none is, the new principal shares one overflow
 * budget with every other untracked principal. So a flood of fresh keys (many addresses)
 * never gets fresh budgets by pushing out the ones it has spent, and tracked principals
 * keep theirs.
 *
 * With an auth guard, a request whose credentials fail is charged to the principal it has
 * without them (its address, by default) against the same request rate; once failures
 * have spent that rate, every request from there is refused 429 before its credentials are
 * checked, until the bucket refills, so a flood of bad tokens costs no verification.
 * Source: RFC 6585 §4 (429), RFC 9110 §10.2.3 (Retry-After); 2026-07-28
 * basic/transports/streamable-http (a request may be refused with an HTTP error status).
 */
import type { AuthInfo } from '../context.js';
import type { HeaderReader, HttpRequest, HttpResponse } from './exchange.js';
import { addressGroup } from './address-group.js';
import { principalOf } from './auth-guard.js';
import { rpcError } from './responses.js';

/** What a {@link PrincipalKey} function sees of a request. */
export interface PrincipalSource {
  readonly headers: HeaderReader;
  /** The peer's IP address, when the adapter knows it (node:http, Express, Fastify do). */
  readonly remoteAddress: string | undefined;
  /** The verified principal, when an auth guard is configured. */
  readonly auth: AuthInfo | undefined;
}

/** Names the principal of a request; undefined (or '') leaves it to the global bounds only. */
export type PrincipalKey = (request: PrincipalSource) => string | undefined;

/** Per-principal bounds of the HTTP endpoint (`createHttpHandler({ principals })`). */
export interface PrincipalLimits {
  /** Names a request's principal (default: verified identity, else remote address). */
  principal?: PrincipalKey;
  /**
   * Requests per second one principal may make, on average (default: unlimited). With an
   * auth guard, failed authentications are charged to the principal the request has without
   * credentials (by default its address); once they spend it, 429 before credentials are checked.
   */
  requestsPerSecond?: number;
  /** Requests one principal may make at once above the average (default 2 × `requestsPerSecond`, at least 1). */
  burst?: number;
  /** Requests (and open SSE streams) one principal may have in progress (default 100). */
  maxConcurrentRequests?: number;
  /** Legacy sessions one principal may hold open (default 1 000; the global bound is `maxSessions`). */
  maxSessions?: number;
  /**
   * Principals with budgets of their own at once (default 10 000). Beyond it, new principals
   * share one budget until a tracked one is idle with a full bucket (see the module comment).
   */
  maxTracked?: number;
  /** Longest principal key, in UTF-16 code units (default 512); a longer one is refused with 400. */
  maxKeyLength?: number;
}

/** The default principal: verified identity, else the remote address's group (IPv6: its /64). */
function defaultPrincipal(request: PrincipalSource): string | undefined {
  if (request.auth) return `auth:${principalOf(request.auth)}`;
  return request.remoteAddress === undefined ? undefined : addressPrincipal(request.remoteAddress);
}

// The last address's key: a keep-alive connection (and a local client) repeats it.
let lastAddress: string | undefined;
let lastAddressKey = '';

function addressPrincipal(address: string): string {
  if (address !== lastAddress) {
    lastAddressKey = `addr:${addressGroup(address)}`;
    lastAddress = address;
  }
  return lastAddressKey;
}

/** Tracked entries examined for one new principal when the table is full. */
const SWEEP = 8;

interface Entry {
  tokens: number;
  refilledAt: number;
  inFlight: number;
}

/** The admission state of one endpoint. */
export class Admission {
  readonly #entries = new Map<string, Entry>();
  readonly #key: PrincipalKey;
  readonly #rate: number;
  readonly #burst: number;
  readonly #maxInFlight: number;
  readonly #maxTracked: number;
  readonly #maxKeyLength: number;
  /** The budget shared by principals beyond `maxTracked`. */
  readonly #overflow: Entry;

  /** @throws RangeError when a limit is not a positive number (NaN would silently turn it off). */
  constructor(limits: PrincipalLimits = {}) {
    this.#key = limits.principal ?? defaultPrincipal;
    this.#rate = positive('requestsPerSecond', limits.requestsPerSecond ?? Infinity);
    this.#burst = positive('burst', limits.burst ?? Math.max(1, Math.ceil(2 * this.#rate)));
    this.#maxInFlight = positive('maxConcurrentRequests', limits.maxConcurrentRequests ?? 100);
    this.#maxTracked = positive('maxTracked', limits.maxTracked ?? 10_000);
    this.#maxKeyLength = positive('maxKeyLength', limits.maxKeyLength ?? 512);
    if (limits.maxSessions !== undefined) positive('maxSessions', limits.maxSessions); // counted by the session table
    this.#overflow = { tokens: this.#burst, refilledAt: performance.now(), inFlight: 0 };
  }

  /** The principal key of a request ('' when unidentified). */
  principalOf(request: HttpRequest): string {
    return (
      this.#key({ headers: request.headers, remoteAddress: request.remoteAddress, auth: request.auth }) ?? ''
    );
  }

  /**
   * Admits a request of `principal`: the release function to call when its response has
   * ended, or the 429 response refusing it.
   */
  admit(principal: string): { release: () => void } | { response: HttpResponse } {
    if (principal === '') return { release: noop };
    if (principal.length > this.#maxKeyLength) return { response: this.#tooLong() };
    const entry = this.#entry(principal);
    if (entry.inFlight >= this.#maxInFlight)
      return {
        response: tooMany(`more than ${this.#maxInFlight} requests in progress (maxConcurrentRequests)`, 1),
      };
    const waitS = this.#take(entry);
    if (waitS > 0) return { response: overRate(this.#rate, waitS) };
    entry.inFlight++;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      entry.inFlight--;
    };
    return { release };
  }

  /**
   * The 429 for a request of `principal` when its rate is spent (nothing is taken), else
   * undefined. Used before credentials are checked, with the unauthenticated principal.
   */
  spent(principal: string): HttpResponse | undefined {
    if (principal.length > this.#maxKeyLength) return this.#tooLong();
    if (principal === '' || this.#rate === Infinity) return undefined;
    const entry =
      this.#entries.get(principal) ?? (this.#entries.size >= this.#maxTracked ? this.#overflow : undefined);
    if (!entry) return undefined;
    const waitS = this.#wait(entry);
    return waitS > 0 ? overRate(this.#rate, waitS) : undefined;
  }

  /**
   * Charges one request (a failed authentication) to `principal`'s rate: the 429 when it
   * was over the rate, else undefined.
   */
  charge(principal: string): HttpResponse | undefined {
    if (principal === '' || this.#rate === Infinity) return undefined;
    const waitS = this.#take(this.#entry(principal));
    return waitS > 0 ? overRate(this.#rate, waitS) : undefined;
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

  #tooLong(): HttpResponse {
    const why = `principal key longer than ${this.#maxKeyLength} characters (principals.maxKeyLength)`;
    return rpcError('InvalidRequest', `Bad Request: ${why}`, { status: 400 });
  }
}

function noop(): void {}

/** Longest `Retry-After` sent (one day): a whole number of seconds, never `Infinity` or `1e+30`. */
const MAX_RETRY_AFTER_S = 86_400;

function positive(name: string, value: number): number {
  if (typeof value === 'number' && value > 0) return value;
  throw new RangeError(`principals.${name} must be a positive number, not ${String(value)}`);
}

function overRate(rate: number, waitS: number): HttpResponse {
  return tooMany(`more than ${rate} requests per second (requestsPerSecond)`, waitS);
}

/** 429 with `Retry-After` (whole seconds) and a -32600 body naming the limit. */
function tooMany(why: string, retryAfterS: number): HttpResponse {
  return rpcError('InvalidRequest', `Too Many Requests: ${why}; retry after ${retryAfterS} s`, {
    status: 429,
    headers: { 'retry-after': String(retryAfterS) },
  });
}

/**
 * The response with its release tied to the end of the body: at once for a whole body,
 * when the stream ends or is cancelled for SSE.
 */
export function releasedWith(response: HttpResponse, release: () => void): HttpResponse {
  const { body } = response;
  if (release === noop) return response;
  if (!(body instanceof ReadableStream)) {
    release();
    return response;
  }
  const reader = body.getReader();
  const tracked = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read().catch((error: unknown) => {
        release();
        throw error;
      });
      if (chunk.done) {
        release();
        controller.close();
      } else controller.enqueue(chunk.value);
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return { ...response, body: tracked };
}
