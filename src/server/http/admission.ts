/**
 * Per-principal admission to the HTTP endpoint: the budgets of middleware/quotas.ts
 * (requests per second, off by default; requests in progress, where an open SSE stream
 * counts until it ends) applied before the body is read, a refusal answered 429 Too Many
 * Requests with `Retry-After` and a JSON-RPC error body; other principals are not affected.
 *
 * The principal is who the auth guard verified (`auth:<subject or client id>`), else the
 * peer's address group (`addr:<ip>`, when the adapter knows it: an IPv4 address, an IPv6
 * address's /64 network `addr:2001:db8:1:2::/64`, an IPv4-mapped IPv6 address as IPv4),
 * else nobody in particular: an unidentified request is held only to the global bounds.
 * Behind a reverse proxy every client has the proxy's address: give `principal` to read a
 * forwarded header instead. A principal key longer than `maxKeyLength` is refused (400).
 *
 * With an auth guard, a request whose credentials fail is charged to the principal it has
 * without them (its address, by default) against the same request rate; once failures
 * have spent that rate, every request from there is refused 429 before its credentials are
 * checked, until the bucket refills, so a flood of bad tokens costs no verification.
 * Source: RFC 6585 §4 (429), RFC 9110 §10.2.3 (Retry-After); 2026-07-28
 * basic/transports/streamable-http (a request may be refused with an HTTP error status).
 */
import type { AuthInfo, PrincipalRateLimits } from '../index.js';
import type { HeaderReader, HttpRequest, HttpResponse } from './exchange.js';
import { addressGroup } from './address-group.js';
import { principalOf, thenOrNow } from '../../core/runtime.js';
import {
  PrincipalBudgets,
  noRelease,
  principalShare,
  type AdmitOptions,
  type Admitted,
  type QuotaRefusal,
} from '../runtime.js';
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

/**
 * Per-principal bounds of the HTTP endpoint (`createHttpHandler({ principals })`). The
 * rate and concurrency bounds are those of `createServer({ limits: { perPrincipal } })`,
 * counted here before the body is read and for principals only HTTP knows (addresses).
 */
export interface PrincipalLimits extends PrincipalRateLimits {
  /** Names a request's principal (default: verified identity, else remote address). */
  principal?: PrincipalKey;
  /**
   * Requests per second one principal may make, on average (default: unlimited). With an
   * auth guard, failed authentications are charged to the principal the request has without
   * credentials (by default its address); once they spend it, 429 before credentials are checked.
   */
  requestsPerSecond?: number;
  /**
   * Requests one principal may have in progress (default 100, at most a tenth of the
   * connections), an SSE response counted until
   * it ends; beyond it requests queue (`maxQueuedRequests`, `queueTimeoutMs`). Long-lived
   * streams (listens, legacy GET streams) have their own bounds and are not counted.
   */
  maxConcurrentRequests?: number;
  /**
   * Legacy sessions one principal may hold open, each with at most one GET stream (default: a
   * tenth of `maxSessions` or of the connections, whichever is smaller: 102).
   */
  maxSessions?: number;
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

/**
 * The `principals` bounds of an endpoint behind a server that holds at most `connections`
 * connections (`serve()`'s `maxConnections`): the defaults of what holds a connection become
 * a tenth of it at most (requests in progress and queued, legacy sessions with their GET
 * streams); what `principals` sets stays.
 */
export function connectionShares(
  principals: PrincipalLimits | undefined,
  globals: { connections: number; maxSessions?: number | undefined },
): PrincipalLimits {
  const share = principalShare(Infinity, globals.connections);
  return {
    maxConcurrentRequests: Math.min(100, share),
    maxQueuedRequests: share,
    maxSessions: principalShare(globals.maxSessions ?? 10_000, globals.connections),
    ...principals,
  };
}

/** The admission state of one endpoint. */
export class Admission {
  readonly #key: PrincipalKey;
  readonly #budgets: PrincipalBudgets;

  /** @throws RangeError when a limit is not a positive number (NaN would silently turn it off). */
  constructor(limits: PrincipalLimits = {}) {
    this.#key = limits.principal ?? defaultPrincipal;
    this.#budgets = new PrincipalBudgets(limits, 'principals');
    if (limits.maxSessions !== undefined && !(limits.maxSessions > 0))
      throw new RangeError(
        `principals.maxSessions must be a positive number, not ${String(limits.maxSessions)}`,
      );
  }

  /** The key a request's quotas count against ('' when unidentified): see {@link PrincipalKey}. */
  quotaKeyOf(request: HttpRequest): string {
    return (
      this.#key({ headers: request.headers, remoteAddress: request.remoteAddress, auth: request.auth }) ?? ''
    );
  }

  /**
   * Admits a request of `principal`: the release function to call when its response has
   * ended, or the 429 (400 for a too-long key) refusing it; a promise while it waits in the
   * principal's queue (it leaves the queue when the request's `signal` aborts; the signal is
   * read only then).
   */
  admit(principal: string, request?: AdmitOptions): AdmissionOutcome | Promise<AdmissionOutcome> {
    const admitted = this.#budgets.admit(principal, request);
    return thenOrNow(admitted, outcomeOf);
  }

  /**
   * The 429 for a request of `principal` when its rate is spent (nothing is taken), else
   * undefined. Used before credentials are checked, with the unauthenticated principal.
   */
  spent(principal: string): HttpResponse | undefined {
    const refusal = this.#budgets.spent(principal);
    return refusal && refusalResponse(refusal);
  }

  /**
   * Charges one request (a failed authentication) to `principal`'s rate: the 429 when it
   * was over the rate, else undefined.
   */
  charge(principal: string): HttpResponse | undefined {
    const refusal = this.#budgets.charge(principal);
    return refusal && refusalResponse(refusal);
  }
}

/** An admitted request's release, or the response refusing it. */
export type AdmissionOutcome = { release: () => void } | { response: HttpResponse };

function outcomeOf(admitted: Admitted): AdmissionOutcome {
  return typeof admitted === 'function' ? { release: admitted } : { response: refusalResponse(admitted) };
}

/** 429 with `Retry-After` (whole seconds) and a -32600 body naming the limit; 400 for a too-long key. */
function refusalResponse(refusal: QuotaRefusal): HttpResponse {
  if (refusal.limit === 'key') return rpcError('InvalidRequest', `Bad Request: ${refusal.why}`);
  const s = refusal.retryAfterS;
  return rpcError('TooManyRequests', `Too Many Requests: ${refusal.why}; retry after ${s} s`, {
    headers: { 'retry-after': String(s) },
  });
}

/**
 * The response with its release tied to the end of the body: at once for a whole body,
 * when the stream ends or is cancelled for SSE.
 */
export function releasedWith(response: HttpResponse, release: () => void): HttpResponse {
  const { body } = response;
  if (release === noRelease) return response;
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
