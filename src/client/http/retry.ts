/**
 * Backing off from 429 Too Many Requests: the request is sent again after the server's
 * `Retry-After` (seconds or an HTTP date; without one, 1 s doubling per attempt), at most
 * `maxRetries` times and only while the wait is within `maxDelayMs`. Otherwise the 429
 * itself is returned, and the caller turns its JSON-RPC body into the request's error.
 * Source: RFC 6585 §4; RFC 9110 §10.2.3.
 */

import { sleep } from '../../core/runtime.js';

/** How the transport answers 429 (`streamableHttp(url, { retry })`). */
export interface RetryOptions {
  /** Times one request is sent again after a 429 (default 2; 0 turns retrying off). */
  maxRetries?: number;
  /** Longest wait accepted before a retry, in milliseconds (default 10 000); a longer `Retry-After` fails at once. */
  maxDelayMs?: number;
}

/** Milliseconds a 429 asks to wait before attempt `attempt` (0-based). */
export function retryDelayMs(response: Response, attempt: number, now = Date.now()): number {
  const header = response.headers.get('retry-after')?.trim();
  if (header && /^\d+$/.test(header)) return Number(header) * 1000;
  const date = header ? Date.parse(header) : NaN;
  if (!Number.isNaN(date)) return Math.max(0, date - now);
  return 1000 * 2 ** attempt;
}

/**
 * Sends with `send` until the answer is not a retryable 429.
 * @throws the abort reason when `signal` aborts during a wait.
 */
export async function sendRetrying(
  send: () => Promise<Response>,
  options: RetryOptions,
  signal: AbortSignal | undefined,
): Promise<Response> {
  const maxRetries = options.maxRetries ?? 2;
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  for (let attempt = 0; ; attempt++) {
    const response = await send();
    if (response.status !== 429 || attempt >= maxRetries) return response;
    const delay = retryDelayMs(response, attempt);
    if (delay > maxDelayMs) return response;
    await response.body?.cancel().catch(() => undefined);
    await sleep(delay, signal);
  }
}
