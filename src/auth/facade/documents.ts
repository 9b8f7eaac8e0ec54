/**
 * Fetching a Client ID Metadata Document without becoming a way into the server's network
 * (SSRF): the URL a client names is fetched only from public addresses — an address literal
 * is vetted before connecting, a name is resolved and every address it resolves to vetted,
 * and the connection goes to a vetted address (so DNS cannot answer the check and the
 * connection differently); redirects are refused, not followed; the document's size and the
 * fetch's time are bounded; how long it is cached follows its HTTP caching headers, within a
 * bound.
 *
 * The resolving and pinning needs `node:https`/`node:dns`, taken from the runtime with
 * `process.getBuiltinModule` (Node ≥ 20.16, Bun, Deno) so the façade still bundles for
 * Workers; on Workers (and any runtime without it) the platform fetch is used with the
 * address-literal check and no redirects, and the platform's own network rules do the rest
 * (a Worker's fetch reaches the public internet only).
 * Source: 2026-07-28 basic/authorization/security-considerations "Client ID Metadata Document
 * Security"; draft-ietf-oauth-client-id-metadata-document §6 (SSRF); RFC 9111 §4.2 (freshness).
 */
import { isLoopbackHost } from '../../core/runtime.js';
import { addressLiteral, isPublicAddress, vettedLookup, type Lookup } from '../public-address.js';

/** How the façade fetches Client ID Metadata Documents (option `clientMetadata`). */
export interface ClientMetadataOptions {
  /**
   * Addresses besides public ones a document may be fetched from (an internal registry of
   * clients; tests), e.g. `(a) => a === '10.0.0.7'`. Default: none.
   */
  allowAddress?: (address: string) => boolean;
  /** CA certificates (PEM) trusted for documents besides the runtime's roots (not on Workers). */
  ca?: string | readonly string[];
  /** Most bytes of a document (default 16 384); a larger one is refused. */
  maxBytes?: number;
  /** Longest a fetch may take, in milliseconds (default 5 000). */
  timeoutMs?: number;
  /** Longest a document is cached, in seconds, whatever its headers allow (default 86 400). */
  maxCacheSec?: number;
}

/** A document as fetched: its JSON object and how many seconds it may be cached (0: not at all). */
interface FetchedDocument {
  json: Record<string, unknown>;
  cacheSec: number;
}

/** Why a document was not fetched (the reason is for logs and tests, never shown to the client). */
class DocumentRefused extends Error {}

/** Without explicit freshness a 200 is cached this long (RFC 9111 §4.2.2 heuristic). */
const HEURISTIC_SEC = 3600;

type Headers1 = (name: string) => string | undefined;

/**
 * How long a response may be reused, in seconds, by its `Cache-Control` (`no-store`,
 * `no-cache`, `max-age` less `Age`), else `Expires` less `Date`, else the heuristic hour;
 * never more than `maxSec`.
 */
export function freshnessOf(header: Headers1, maxSec: number): number {
  const directives = (header('cache-control') ?? '').toLowerCase();
  if (/(^|[\s,])(no-store|no-cache)\b/.test(directives)) return 0;
  const age = Number(header('age') ?? 0) || 0;
  const maxAge = /(?:^|[\s,])max-age\s*=\s*"?(\d+)/.exec(directives)?.[1];
  let fresh: number;
  if (maxAge !== undefined) fresh = Number(maxAge) - age;
  else if (header('expires') !== undefined) {
    const expires = Date.parse(header('expires')!);
    const date = Date.parse(header('date') ?? '') || Date.now();
    fresh = Number.isNaN(expires) ? 0 : (expires - date) / 1000 - age;
  } else fresh = HEURISTIC_SEC;
  return Math.max(0, Math.min(Math.floor(fresh), maxSec));
}

/** A `Response`-like answer: status, a header reader, and the body (bounded). */
interface Answer {
  status: number;
  header: Headers1;
  body: Uint8Array;
}

/** What {@link fetchDocument} is told besides the URL. */
interface DocumentFetchSettings {
  options: ClientMetadataOptions;
  /** Let loopback addresses through (tests; plain http is the caller's to allow). */
  allowLoopback: boolean;
  /** Used where Node's modules are absent (Workers). */
  platformFetch: typeof fetch;
}

/**
 * Fetches the document at `url` under the rules above.
 * @throws DocumentRefused naming what was refused (address, redirect, size, time, status, JSON).
 */
export async function fetchDocument(
  url: URL,
  { options, allowLoopback, platformFetch }: DocumentFetchSettings,
): Promise<FetchedDocument> {
  const allowed = (address: string) =>
    isPublicAddress(address) ||
    (allowLoopback && isLoopbackHost(address)) ||
    options.allowAddress?.(address) === true;
  const literal = addressLiteral(url.hostname);
  if (literal !== undefined && !allowed(literal))
    throw new DocumentRefused(`${url.hostname} is not a public address`);
  const limits = { maxBytes: options.maxBytes ?? 16_384, timeoutMs: options.timeoutMs ?? 5000 };
  const node = nodeModules();
  const answer = node
    ? await nodeGet(node, url, { ...limits, allowed, ca: options.ca })
    : await platformGet(platformFetch, url, limits);
  if (answer.status >= 300 && answer.status < 400)
    throw new DocumentRefused(`redirects are not followed (${answer.status})`);
  if (answer.status !== 200) throw new DocumentRefused(`the document answered ${answer.status}`);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(answer.body));
  } catch {
    throw new DocumentRefused('the document is not JSON');
  }
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new DocumentRefused('the document is not a JSON object');
  return {
    json: json as Record<string, unknown>,
    cacheSec: freshnessOf(answer.header, options.maxCacheSec ?? 86_400),
  };
}

// The few shapes of node:http(s), node:dns and node:tls used here (the auth layer imports no node:*).
interface IncomingLike {
  statusCode?: number;
  headers: Record<string, string | string[] | undefined>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): void;
  on(event: 'end', listener: () => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  destroy(): void;
}
interface RequestLike {
  on(event: 'error', listener: (error: Error) => void): void;
  end(): void;
  destroy(error?: Error): void;
}
interface HttpLike {
  request(url: URL, options: object, callback: (response: IncomingLike) => void): RequestLike;
}
interface NodeModules {
  http: HttpLike;
  https: HttpLike;
  lookup: Lookup;
  rootCertificates: readonly string[];
}

/** node:http, node:https, node:dns and node:tls when the runtime has them (not on Workers). */
function nodeModules(): NodeModules | undefined {
  const g = globalThis as {
    navigator?: { userAgent?: string };
    process?: { getBuiltinModule?: (id: string) => unknown };
  };
  if (g.navigator?.userAgent === 'Cloudflare-Workers') return undefined;
  const get = g.process?.getBuiltinModule;
  if (typeof get !== 'function') return undefined;
  const [http, https, dns, tls] = ['node:http', 'node:https', 'node:dns', 'node:tls'].map((id) => {
    try {
      return get(id) as Record<string, unknown> | undefined;
    } catch {
      return undefined;
    }
  });
  if (!http || !https || typeof dns?.lookup !== 'function') return undefined;
  return {
    http: http as unknown as HttpLike,
    https: https as unknown as HttpLike,
    lookup: dns.lookup as Lookup,
    rootCertificates: (tls?.rootCertificates as readonly string[] | undefined) ?? [],
  };
}

function nodeGet(
  node: NodeModules,
  url: URL,
  o: {
    maxBytes: number;
    timeoutMs: number;
    allowed: (address: string) => boolean;
    ca: string | readonly string[] | undefined;
  },
): Promise<Answer> {
  const refuse = (host: string, address: string) =>
    new DocumentRefused(`${host} resolves to ${address}, not a public address`);
  const extra = o.ca === undefined ? [] : typeof o.ca === 'string' ? [o.ca] : [...o.ca];
  return new Promise<Answer>((resolve, reject) => {
    const options = {
      method: 'GET',
      headers: { accept: 'application/json' },
      lookup: vettedLookup(node.lookup, o.allowed, refuse),
      // A connection of its own: a pooled socket would skip the vetted lookup.
      agent: false,
      ...(extra.length > 0 ? { ca: [...node.rootCertificates, ...extra] } : {}),
    };
    const module = url.protocol === 'https:' ? node.https : node.http;
    const request = module.request(url, options, (response) => {
      const header: Headers1 = (name) => {
        const value = response.headers[name];
        return Array.isArray(value) ? value.join(', ') : value;
      };
      const status = response.statusCode ?? 0;
      if (status !== 200 || Number(header('content-length') ?? 0) > o.maxBytes) {
        response.destroy();
        if (status === 200) return fail(new DocumentRefused(`the document is over ${o.maxBytes} bytes`));
        clearTimeout(timer);
        return resolve({ status, header, body: new Uint8Array() });
      }
      collect(response, o.maxBytes).then((body) => {
        clearTimeout(timer);
        resolve({ status, header, body });
      }, fail);
    });
    function fail(error: Error) {
      clearTimeout(timer);
      request.destroy();
      reject(error instanceof DocumentRefused ? error : new DocumentRefused(error.message));
    }
    const timer = setTimeout(
      () => fail(new DocumentRefused(`the document took over ${o.timeoutMs} ms`)),
      o.timeoutMs,
    );
    request.on('error', fail);
    request.end();
  });
}

/** Reads `response` whole into one array; refused once it passes `maxBytes`. */
function collect(response: IncomingLike, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    response.on('data', (chunk) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        response.destroy();
        return reject(new DocumentRefused(`the document is over ${maxBytes} bytes`));
      }
      chunks.push(chunk);
    });
    response.on('error', reject);
    response.on('end', () => resolve(joined(chunks, size)));
  });
}

function joined(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

async function platformGet(
  platformFetch: typeof fetch,
  url: URL,
  o: { maxBytes: number; timeoutMs: number },
): Promise<Answer> {
  let response: Response;
  try {
    response = await platformFetch(url, {
      redirect: 'manual',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(o.timeoutMs),
    });
  } catch (error) {
    throw new DocumentRefused(`the document could not be fetched: ${(error as Error).message}`);
  }
  const header: Headers1 = (name) => response.headers.get(name) ?? undefined;
  // An opaque redirect (status 0) is a redirect too.
  const status = response.type === 'opaqueredirect' ? 302 : response.status;
  if (status !== 200 || Number(header('content-length') ?? 0) > o.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    if (status === 200) throw new DocumentRefused(`the document is over ${o.maxBytes} bytes`);
    return { status, header, body: new Uint8Array() };
  }
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (let next = await reader?.read(); next && !next.done; next = await reader!.read()) {
      size += next.value.byteLength;
      if (size > o.maxBytes) {
        await reader!.cancel().catch(() => undefined);
        throw new DocumentRefused(`the document is over ${o.maxBytes} bytes`);
      }
      chunks.push(next.value);
    }
  } catch (error) {
    if (error instanceof DocumentRefused) throw error;
    throw new DocumentRefused(`the document could not be read: ${(error as Error).message}`);
  }
  return { status, header, body: joined(chunks, size) };
}
