/**
 * Gets a page for the fetch server, within its rules: http and https only; no private,
 * loopback, link-local or other non-public address (a name is resolved first, every
 * address it resolves to is vetted, and the connection goes to a vetted address, so a
 * name cannot resolve twice to different places); redirects followed by hand, each hop
 * under the same rules; the page's size and time bounded.
 */
import { lookup as dnsLookup } from 'node:dns';
import { addressLiteral, isPublicAddress, vettedLookup, type Lookup } from '../../src/auth/runtime.js';
import { loadUndici } from './deps.js';

/** Most bytes of a page read; the rest is not downloaded. */
const MAX_PAGE_BYTES = 5 * 1024 * 1024;
/** Longest a page (all its redirects included) may take, in milliseconds (the official server's 30 s). */
const PAGE_TIMEOUT_MS = 30_000;
/** Most redirects followed (httpx's default, which the official server uses). */
export const MAX_REDIRECTS = 20;

/** A failure the model sees as the tool's error text. */
export class FetchError extends Error {}

/** How the server reaches the network. */
export interface NetworkOptions {
  /** Allow private, loopback and other non-public addresses (`--allow-private-network`). */
  allowPrivate: boolean;
  /** Send every request through this HTTP proxy (`--proxy-url`). */
  proxyUrl?: string | undefined;
  /** Bound on a page's size, in bytes (default {@link MAX_PAGE_BYTES}). */
  maxBytes?: number;
  /** Bound on a page's time, in milliseconds (default {@link PAGE_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Which addresses count as public (default {@link isPublicAddress}; tests narrow it). */
  isPublic?: (address: string) => boolean;
}

/** A page as received (after redirects). */
export interface Page {
  status: number;
  /** The `content-type` header, or `''`. */
  contentType: string;
  text: string;
  /** True when the body was cut at the size bound. */
  truncated: boolean;
}

/** One GET. */
export interface GetOptions {
  userAgent: string;
  signal?: AbortSignal | undefined;
  /** Called as the body arrives: bytes so far, and the total when the server said it. */
  onProgress?: ((bytes: number, total: number | undefined) => void) | undefined;
}

/** Gets pages. */
export type Getter = (url: string, options: GetOptions) => Promise<Page>;

const refusal = (host: string, address: string): FetchError =>
  new FetchError(
    `${host} is ${address === host ? 'a' : `at ${address}, a`} private, loopback or otherwise non-public address; the server refuses it unless started with --allow-private-network`,
  );

/** A socket `lookup` that refuses a name when one of its addresses is not public. */
const publicLookup = (isPublic: (address: string) => boolean): Lookup =>
  vettedLookup(dnsLookup as Lookup, isPublic, refusal);

/** Refuses what the socket's lookup cannot see: a scheme other than http(s), an address literal. */
async function vetUrl(url: URL, options: NetworkOptions): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchError(`only http and https URLs can be fetched, not ${url.protocol}`);
  if (options.allowPrivate) return;
  const isPublic = options.isPublic ?? isPublicAddress;
  const literal = addressLiteral(url.hostname);
  if (literal !== undefined && !isPublic(literal)) throw refusal(url.hostname, literal);
  if (literal === undefined && options.proxyUrl !== undefined)
    await new Promise<void>((resolve, reject) =>
      publicLookup(isPublic)(url.hostname, { all: true }, (error) => (error ? reject(error) : resolve())),
    );
}

function decode(body: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Creates the getter: one connection pool (through the proxy when given) for the server's
 * lifetime.
 * @throws LocalError `MISSING_DEPENDENCY` when undici is not installed.
 */
export async function createGetter(options: NetworkOptions): Promise<Getter> {
  const { Agent, ProxyAgent, request } = await loadUndici();
  const dispatcher =
    options.proxyUrl !== undefined
      ? new ProxyAgent(options.proxyUrl)
      : new Agent(
          options.allowPrivate
            ? {}
            : { connect: { lookup: publicLookup(options.isPublic ?? isPublicAddress) as never } },
        );
  const maxBytes = options.maxBytes ?? MAX_PAGE_BYTES;
  return async (address, get) => {
    const signals = [AbortSignal.timeout(options.timeoutMs ?? PAGE_TIMEOUT_MS)];
    if (get.signal !== undefined) signals.push(get.signal);
    const signal = AbortSignal.any(signals);
    let url = new URL(address);
    for (let hop = 0; ; hop++) {
      await vetUrl(url, options);
      const response = await request(url, { headers: { 'user-agent': get.userAgent }, dispatcher, signal });
      // A body we stop reading may still see the request's signal abort later: nothing to report then.
      response.body.on('error', () => undefined);
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode) && typeof location === 'string') {
        response.body.destroy();
        if (hop >= MAX_REDIRECTS) throw new FetchError('Exceeded maximum allowed redirects.');
        url = new URL(location, url);
        continue;
      }
      const contentType = String(response.headers['content-type'] ?? '');
      const total = Number(response.headers['content-length']) || undefined;
      const chunks: Buffer[] = [];
      let bytes = 0;
      let truncated = false;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        const part = chunk.subarray(0, maxBytes - bytes);
        chunks.push(part);
        bytes += part.length;
        get.onProgress?.(bytes, total);
        if (bytes >= maxBytes) {
          truncated = true;
          response.body.destroy();
          break;
        }
      }
      return {
        status: response.statusCode,
        contentType,
        text: decode(Buffer.concat(chunks), contentType),
        truncated,
      };
    }
  };
}
