/**
 * One bound for a whole HTTP exchange: the response headers and the body together, so a
 * peer that accepts the connection and then stalls (before the headers, or halfway through
 * the body) cannot hold a caller longer than the bound.
 *
 * A plain timer races the work, and the timer's callback holds the controller, so the
 * bound fires even when the `fetch` in use does not heed its signal at every stage. It is
 * not `AbortSignal.timeout()`, alone or inside `AbortSignal.any()`: Node lets such a signal
 * be garbage-collected when only a request refers to it, and then it never fires.
 * No I/O of its own: the caller's `fetch` does it.
 */
import { LocalError } from './errors.js';
import { setTimer } from './timer.js';

/** What {@link withDeadline} bounds. */
export interface Deadline {
  /** The URL the exchange is with, for the error (credentials in it are not shown). */
  url: string | URL;
  /** The bound in milliseconds, for headers and body together. */
  ms: number;
  /** The caller's own cancellation: aborts the exchange and rejects with its reason. */
  signal?: AbortSignal | undefined;
}

/**
 * Runs `work` with a signal that aborts once `deadline.ms` passed (or the caller's signal
 * aborted), and settles then even if `work` does not heed the signal.
 * @throws LocalError `TIMEOUT` naming the URL and the bound; the caller's abort reason; else
 *   what `work` throws.
 */
export async function withDeadline<T>(
  deadline: Deadline,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { ms, signal: outer } = deadline;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    const stop = (reason: unknown): void => {
      reject(reason);
      controller.abort(reason);
    };
    timer = setTimer(() => stop(timedOut(deadline.url, ms)), ms);
    if (!outer) return;
    onAbort = () => stop(outer.reason);
    if (outer.aborted) onAbort();
    else outer.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work(controller.signal), stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort) outer?.removeEventListener('abort', onAbort);
  }
}

/** The `TIMEOUT` error of an exchange with `url` that outlived `ms`. */
function timedOut(url: string | URL, ms: number): LocalError {
  return new LocalError('TIMEOUT', `${shownUrl(url)}: no complete answer within ${ms} ms`);
}

/** `url` without `user:password@`, for messages (a password in a URL must not be echoed). */
export function shownUrl(url: string | URL): string {
  if (!URL.canParse(url)) return String(url).slice(0, 200);
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}

/**
 * Reads the whole body of `response`, at most `maxBytes` bytes (a larger `Content-Length`
 * is refused before reading), and returns a response with the same status and headers
 * whose body is already in memory.
 * @throws LocalError `LIMIT_EXCEEDED` naming `url` and the limit (the body is cancelled).
 */
export async function bufferedResponse(
  response: Response,
  maxBytes: number,
  url: string | URL,
): Promise<Response> {
  const tooLarge = (): LocalError =>
    new LocalError('LIMIT_EXCEEDED', `${shownUrl(url)}: response body larger than ${maxBytes} bytes`);
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (let next = await reader?.read(); next && !next.done; next = await reader?.read()) {
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(next.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) bytes.set(chunk, (offset += chunk.byteLength) - chunk.byteLength);
  const init = { status: response.status, statusText: response.statusText, headers: response.headers };
  return new Response(size === 0 || [204, 205, 304].includes(response.status) ? null : bytes, init);
}

/**
 * `fetcher(url, init)` with the whole exchange, body included, bounded by `bound.ms`, and
 * the body read into memory, at most `bound.maxBytes` bytes; `init.signal` still cancels.
 * For callers that read a body whole (metadata, token and introspection answers).
 * @throws LocalError `TIMEOUT` or `LIMIT_EXCEEDED` naming the URL; else what `fetcher` throws.
 */
export function fetchWhole(
  fetcher: typeof fetch,
  request: { url: string | URL; init?: RequestInit | undefined },
  bound: { ms: number; maxBytes: number },
): Promise<Response> {
  const { url, init } = request;
  return withDeadline({ url, ms: bound.ms, signal: init?.signal ?? undefined }, async (signal) =>
    bufferedResponse(await fetcher(url, { ...init, signal }), bound.maxBytes, url),
  );
}
