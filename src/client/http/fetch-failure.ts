/**
 * Failure helpers of the Streamable HTTP client transport: the error for an endpoint fetch
 * could not reach (with credentials kept out of the message), a bounded wait, and the
 * retries of a POST that may be sent again.
 * Source: 2026-07-28 basic/transports/streamable-http.
 */

import { LocalError } from '../../core/index.js';
import { setTimer, shownUrl } from '../../core/runtime.js';

/**
 * The error (`CONNECTION_CLOSED`) for a URL where fetch could not reach an HTTP server
 * (refused, reset, DNS…). In a browser, fetch rejects the same way when the server's CORS
 * answer does not allow the page's origin, and says no more: for another origin the
 * message names CORS as a likely cause.
 */
export function unreachable(url: URL, error: TypeError): LocalError {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const detail =
    typeof cause?.code === 'string'
      ? cause.code
      : typeof cause?.message === 'string'
        ? cause.message
        : error.message;
  const shown = shownUrl(url);
  return new LocalError(
    'CONNECTION_CLOSED',
    `could not reach ${shown}: ${detail.replaceAll(url.href, shown)}${corsHint(url)}`,
    { cause: error },
  );
}

/** The CORS hint for a browser page or worker fetching another origin ('' elsewhere). */
function corsHint(url: URL): string {
  const scope = globalThis as {
    document?: unknown;
    importScripts?: unknown;
    location?: { origin?: unknown };
  };
  const browser = typeof scope.document === 'object' || typeof scope.importScripts === 'function';
  const origin = scope.location?.origin;
  if (!browser || typeof origin !== 'string' || origin === url.origin) return '';
  return ` (possibly blocked by CORS: the server must allow the origin ${origin})`;
}

/** Resolves when `promise` does or after `ms`, whichever is first. */
export function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimer(resolve, ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Why a POST of ours was not accepted, and whether sending it again may help. */
export interface PostFailure {
  reason: string;
  retry: boolean;
}

/** Times a POST that may be sent again is tried in all (waits of 100 then 300 ms between). */
const ATTEMPTS = 3;

/** Runs `post` until accepted, not retryable, `stopped()`, or out of attempts; the last failure. */
export async function retried(
  post: () => Promise<PostFailure | undefined>,
  stopped: () => boolean,
): Promise<PostFailure | undefined> {
  let failure: PostFailure | undefined;
  for (let attempt = 0; attempt < ATTEMPTS && !stopped(); attempt++) {
    if (attempt > 0)
      await new Promise<void>((resolve) => setTimer(() => resolve(), 100 * 3 ** (attempt - 1)));
    failure = await post();
    if (!failure?.retry) break;
  }
  return failure;
}
