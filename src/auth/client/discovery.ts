/**
 * Discovery for the client: the Protected Resource Metadata of an MCP server (RFC 9728),
 * then the metadata of its authorization server (RFC 8414 and OpenID Connect Discovery, in
 * the spec's order). Every document is bounded in size and checked: the resource must be
 * the server asked about, the issuer must equal the expected one by plain string
 * comparison.
 * Source: 2026-07-28 basic/authorization/authorization-server-discovery.
 */
import * as oauth from 'oauth4webapi';
import { fetchWhole, withDeadline } from '../../core/runtime.js';
import { AuthError, describe } from '../errors.js';
import type { AuthChallenge } from './challenge.js';

/** Protected Resource Metadata (RFC 9728 §2), the fields the client uses. */
export interface ResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  bearer_methods_supported?: string[];
  [key: string]: unknown;
}

/** How discovery reaches the network. */
export interface DiscoveryHttp {
  fetch: typeof fetch;
  /** Whether plain http is allowed for this URL (loopback, or the caller allowed it). */
  insecureOk(url: URL): boolean;
}

/** Largest metadata document read, in bytes; also the bound on token and introspection answers. */
const MAX_DOCUMENT = 256 * 1024;

/** Longest wait, in milliseconds, for one metadata document: headers and body. */
const DOCUMENT_TIMEOUT_MS = 30_000;

/**
 * `fetcher` with each exchange bounded as a whole (headers and body) by `ms` and the body
 * read into memory, at most {@link MAX_DOCUMENT} bytes: for oauth4webapi and jose, which
 * read the body whole. The request's own signal still cancels it.
 * @throws LocalError `TIMEOUT` or `LIMIT_EXCEEDED` naming the URL.
 */
export function boundedFetch(fetcher: typeof fetch, ms: number): typeof fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : input;
    return fetchWhole(fetcher, { url, init }, { ms, maxBytes: MAX_DOCUMENT });
  };
}

/** Reads a JSON object body of at most {@link MAX_DOCUMENT} bytes, or undefined. */
export async function readJson(response: Response): Promise<Record<string, unknown> | undefined> {
  const length = Number(response.headers.get('content-length') ?? '0');
  if (length > MAX_DOCUMENT) return void (await response.body?.cancel());
  const text = await boundedText(response, MAX_DOCUMENT);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The body as text when it is at most `max` bytes; undefined (the rest cancelled) beyond. */
async function boundedText(response: Response, max: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.byteLength;
    if (size > max) return void reader.cancel().catch(() => undefined);
    text += decoder.decode(next.value, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * Each of `urls`, in order, that answers 200 with a JSON object (others are skipped). Each
 * exchange, headers and body, is bounded by {@link DOCUMENT_TIMEOUT_MS}.
 * @throws AuthError `DISCOVERY_FAILED` when a URL does not answer within the bound: a
 *   stalled server is a failure, not a server without metadata.
 */
async function* documentsAt(
  http: DiscoveryHttp,
  urls: readonly URL[],
): AsyncGenerator<{ url: URL; doc: Record<string, unknown> }> {
  for (const url of urls) {
    if (url.protocol !== 'https:' && !http.insecureOk(url)) continue;
    const doc = await withDeadline({ url, ms: DOCUMENT_TIMEOUT_MS }, (signal) =>
      documentAt(http, url, signal),
    ).catch((error: unknown) => {
      if ((error as { code?: unknown }).code !== 'TIMEOUT') return undefined;
      throw new AuthError('DISCOVERY_FAILED', describe(error), { cause: error });
    });
    if (doc) yield { url, doc };
  }
}

/** The JSON object at `url` when it answers 200; undefined otherwise (unreachable included). */
async function documentAt(
  http: DiscoveryHttp,
  url: URL,
  signal: AbortSignal,
): Promise<Record<string, unknown> | undefined> {
  let response: Response;
  try {
    response = await http.fetch(url.href, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal,
    });
  } catch {
    return undefined;
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  return readJson(response);
}

/** The canonical URI of an MCP endpoint (RFC 8707 §2): no fragment, no query. */
export function canonicalResource(endpoint: URL): string {
  const url = new URL(endpoint.href);
  url.hash = '';
  url.search = '';
  const href = url.href;
  return url.pathname === '/' ? href.slice(0, -1) : href;
}

/**
 * Whether metadata for `resource` covers `endpoint`: same origin, and the resource's path
 * is the endpoint's path or a parent of it on a segment boundary (RFC 9728 §3.3, §7.3).
 */
function resourceCovers(resource: string, endpoint: URL): boolean {
  if (!URL.canParse(resource)) return false;
  const r = new URL(resource);
  if (r.origin !== endpoint.origin || r.hash || r.search) return false;
  const base = r.pathname.endsWith('/') ? r.pathname : `${r.pathname}/`;
  const path = endpoint.pathname.endsWith('/') ? endpoint.pathname : `${endpoint.pathname}/`;
  return path.startsWith(base);
}

/** The well-known PRM URLs for an endpoint: path-aware first, then the root one. */
function wellKnownResourceUrls(endpoint: URL): URL[] {
  const root = new URL('/.well-known/oauth-protected-resource', endpoint.origin);
  const path = endpoint.pathname.replace(/\/$/, '');
  if (path === '') return [root];
  return [new URL(`/.well-known/oauth-protected-resource${path}`, endpoint.origin), root];
}

/**
 * Finds and checks the Protected Resource Metadata of `endpoint`: from the challenge's
 * `resource_metadata` URL if any, else (and when that fails) the path-aware well-known
 * URL, then the root one. Any 4xx/5xx moves on to the next URL (CDNs answer 401/403 too).
 * @returns the metadata, or undefined when no URL has any (a pre-RFC 9728 server).
 * @throws AuthError `METADATA_MISMATCH` when a document names another resource.
 */
export async function discoverResource(
  http: DiscoveryHttp,
  endpoint: URL,
  challenge: AuthChallenge | undefined,
): Promise<ResourceMetadata | undefined> {
  const urls = wellKnownResourceUrls(endpoint);
  if (challenge?.resourceMetadata) urls.unshift(challenge.resourceMetadata);
  for await (const { url, doc } of documentsAt(http, urls)) {
    if (typeof doc.resource !== 'string') continue;
    if (!resourceCovers(doc.resource, endpoint))
      throw new AuthError(
        'METADATA_MISMATCH',
        `the protected resource metadata at ${url.href} is for ${doc.resource.slice(0, 200)}, not ${endpoint.href}`,
      );
    return doc as ResourceMetadata;
  }
  return undefined;
}

/** The authorization server metadata URLs to try for `issuer`, in the spec's order. */
function issuerMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, '');
  const at = (p: string): URL => new URL(p, issuer.origin);
  if (path === '')
    return [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')];
  return [
    at(`/.well-known/oauth-authorization-server${path}`),
    at(`/.well-known/openid-configuration${path}`),
    at(`${path}/.well-known/openid-configuration`),
  ];
}

/**
 * Fetches the metadata of the authorization server `issuer`, trying each well-known URL
 * in order until one answers 200.
 * @throws AuthError `METADATA_MISMATCH` when a document's `issuer` is not exactly `issuer`;
 *   `DISCOVERY_FAILED` when no URL gives a document.
 */
export async function discoverIssuer(
  http: DiscoveryHttp,
  issuer: string,
): Promise<oauth.AuthorizationServer> {
  if (!URL.canParse(issuer))
    throw new AuthError('DISCOVERY_FAILED', `invalid issuer ${issuer.slice(0, 200)}`);
  const issuerUrl = new URL(issuer);
  for await (const { url, doc } of documentsAt(http, issuerMetadataUrls(issuerUrl))) {
    if (doc.issuer !== issuer)
      throw new AuthError(
        'METADATA_MISMATCH',
        `the authorization server metadata at ${url.href} names issuer ${String(doc.issuer).slice(0, 200)}, expected ${issuer}`,
      );
    try {
      const body = new Response(JSON.stringify(doc), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
      return await oauth.processDiscoveryResponse(issuerUrl, body);
    } catch (error) {
      throw new AuthError(
        'DISCOVERY_FAILED',
        `bad authorization server metadata at ${url.href}: ${describe(error)}`,
        {
          cause: error,
        },
      );
    }
  }
  throw new AuthError('DISCOVERY_FAILED', `no authorization server metadata found for ${issuer}`);
}

/**
 * Refuses an authorization server that does not advertise PKCE `S256` (2026-07-28
 * basic/authorization "Authorization Code Protection").
 * @throws AuthError `UNSUPPORTED_SERVER`.
 */
export function requireS256(as: oauth.AuthorizationServer): void {
  if (!as.code_challenge_methods_supported?.includes('S256'))
    throw new AuthError(
      'UNSUPPORTED_SERVER',
      `authorization server ${as.issuer} does not advertise PKCE S256 (code_challenge_methods_supported)`,
    );
}
