/**
 * The Server Card of an HTTP endpoint: built from the server definition and served at
 * `GET <streamable-http-url>/server-card` and at `GET /.well-known/mcp/server-card.json`
 * (where other implementers serve and look for it) as `application/mcp-server-card+json`, public
 * (before authentication, any origin), cacheable (`Cache-Control`, a strong `ETag`, 304 on
 * `If-None-Match`). The card names identity, the endpoint, its revisions and, for a
 * protected endpoint, the `Authorization` header; never tools, capabilities or extensions.
 * Source: SEP-2127 (draft); experimental-ext-server-card `docs/discovery.md` "Hosted Server
 * Card Location", "CORS Requirements", "Caching" (8924e08).
 */
import { LocalError } from '../../core/index.js';
import {
  SERVER_CARD_MEDIA_TYPE,
  SERVER_CARD_NAME_PATTERN,
  SERVER_CARD_PATH,
  SERVER_CARD_SCHEMA_URL,
  SERVER_CARD_WELL_KNOWN_PATH,
  type CardHeader,
  type CardRepository,
  type ServerCard,
} from '../../core/server-card.js';
import type { McpServer } from '../index.js';
import type { Admission } from './admission.js';
import { pathOf, type HttpAuthGuard } from './auth-guard.js';
import type { HeaderMap, HttpRequest, HttpResponse } from './exchange.js';
import { emptyResponse, rpcError } from './responses.js';
import { rebindingViolation, type OriginPolicy } from './security.js';

/** What the card says beyond the server definition (see {@link buildServerCard}). */
export interface ServerCardOptions {
  /** Reverse-DNS name (`com.example/weather`); default the server's name when it is one. */
  name?: string;
  /**
   * The endpoint's public URL. Default: the card request's URL without `/server-card`, or
   * for a request of `/.well-known/mcp/server-card.json`, its origin and `endpointPath`.
   * Set it behind a proxy or load balancer: a card must not reveal internal addresses.
   */
  url?: string;
  /**
   * The endpoint's path on its origin (default `/mcp`): names the endpoint in a card
   * requested at the well-known path when `url` is not set. `serve()` and the Workers
   * entry set it from their own `path`.
   */
  endpointPath?: string;
  /** 1 to 100 characters; default the server's `description`. */
  description?: string;
  /** Default the server's `websiteUrl`. */
  websiteUrl?: string;
  repository?: CardRepository;
  /** Headers the endpoint takes; default an `Authorization` bearer token when `auth` is set. */
  headers?: CardHeader[];
  /** Vendor metadata (`_meta`, reverse-DNS keys); not for capabilities or extensions. */
  meta?: Record<string, unknown>;
  /** `Cache-Control: public, max-age=…` in seconds (default 3 600). */
  maxAgeS?: number;
}

/** The endpoint option that serves a card: `createHttpHandler(server, { serverCard: {...} })`. */
export interface ServerCardHosting {
  /**
   * Serve a Server Card at `<endpoint>/server-card` and `/.well-known/mcp/server-card.json`
   * (`true`: all defaults). A framework adapter routes the paths it mounts; `serve()` and
   * the Workers entry route both.
   */
  serverCard?: ServerCardOptions | true;
}

/** What {@link buildServerCard} needs besides the server: the options, the URL, the guard. */
export interface CardSource extends ServerCardOptions {
  /** The endpoint URL the card's remote names. */
  url: string;
  /** The endpoint's auth guard: the card then declares the `Authorization` header. */
  auth?: HttpAuthGuard | undefined;
}

const MAX_CACHED = 16;
const ALLOW = 'GET, HEAD, OPTIONS';

/**
 * The Server Card of `server` served at `source.url`: name, title, version, description,
 * icons and website from the definition; one `streamable-http` remote with every revision
 * the server speaks; the `Authorization` header when an auth guard protects it.
 * @throws LocalError `INVALID_ARGUMENT` when the name is not reverse-DNS, the description
 *   is missing or over 100 characters, the title is over 100, or the URL is not http(s).
 */
export function buildServerCard(server: McpServer, source: CardSource): ServerCard {
  const info = server.info;
  const name = source.name ?? info.name;
  if (name.length < 3 || name.length > 200 || !SERVER_CARD_NAME_PATTERN.test(name))
    throw invalid(`name must be reverse-DNS with one slash (com.example/weather), not '${name}'`);
  const description = source.description ?? info.description;
  if (description === undefined || description.length < 1 || description.length > 100)
    throw invalid('description is required, 1 to 100 characters (ServerOptions or serverCard)');
  if (info.title !== undefined && (info.title.length < 1 || info.title.length > 100))
    throw invalid('title must be 1 to 100 characters');
  if (!/^https?:\/\/\S+$/.test(source.url)) throw invalid(`url must be http(s), not '${source.url}'`);
  const card: ServerCard = { $schema: SERVER_CARD_SCHEMA_URL, name, version: info.version, description };
  if (info.title !== undefined) card.title = info.title;
  const websiteUrl = source.websiteUrl ?? info.websiteUrl;
  if (websiteUrl !== undefined) card.websiteUrl = websiteUrl;
  if (source.repository) card.repository = source.repository;
  if (info.icons !== undefined) card.icons = info.icons;
  const headers = source.headers ?? (source.auth ? [bearerHeader(source.url, source.auth)] : []);
  const remote = { type: 'streamable-http' as const, url: source.url };
  card.remotes = [
    {
      ...remote,
      ...(headers.length > 0 ? { headers } : {}),
      supportedProtocolVersions: server.supportedVersions,
    },
  ];
  if (source.meta) card._meta = source.meta;
  return card;
}

function invalid(message: string): LocalError {
  return new LocalError('INVALID_ARGUMENT', `serverCard: ${message}`);
}

/** The `Authorization` header of a protected endpoint, pointing at its public resource metadata. */
function bearerHeader(url: string, guard: HttpAuthGuard): CardHeader {
  const metadata = guard.paths[0] === undefined ? '' : ` (${new URL(url).origin}${guard.paths[0]})`;
  return {
    name: 'Authorization',
    description: `OAuth 2.1 bearer access token; see the protected resource metadata${metadata}`,
    isRequired: true,
    isSecret: true,
    value: 'Bearer {token}',
    variables: { token: { description: 'The access token.', isRequired: true, isSecret: true } },
  };
}

/** The endpoint's card route: answers a request for the card, undefined for any other. */
export type CardRoute = (
  request: HttpRequest,
  admission: Admission,
) => Promise<HttpResponse> | HttpResponse | undefined;

/**
 * The card route of `server` under `options` (undefined when `serverCard` is not set). The
 * card is checked here once, so a bad name or description fails `createHttpHandler`.
 */
export function cardRoute(
  server: McpServer,
  options: ServerCardHosting & { auth?: HttpAuthGuard | undefined; policy: OriginPolicy },
): CardRoute | undefined {
  if (options.serverCard === undefined) return undefined;
  const card = options.serverCard === true ? {} : options.serverCard;
  buildServerCard(server, { ...card, url: card.url ?? 'http://localhost/mcp', auth: options.auth });
  const cached = new Map<string, Promise<{ body: string; etag: string }>>();
  const encoded = (url: string) => {
    const hit = cached.get(url);
    if (hit) return hit;
    const body = JSON.stringify(buildServerCard(server, { ...card, url, auth: options.auth }));
    const made = etagOf(body).then((etag) => ({ body, etag }));
    if (cached.size < MAX_CACHED) cached.set(url, made);
    return made;
  };
  const maxAge = `public, max-age=${card.maxAgeS ?? 3600}`;
  return (request, admission) => {
    const path = pathOf(request);
    const wellKnown = path === SERVER_CARD_WELL_KNOWN_PATH;
    if (!wellKnown && !path.endsWith(SERVER_CARD_PATH)) return undefined;
    const violation = rebindingViolation(request, options.policy, () => true);
    if (violation) return rpcError('Forbidden', `Forbidden: ${violation}`);
    if (request.method === 'OPTIONS') return emptyResponse(204, { ...CORS, 'access-control-max-age': '600' });
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return rpcError('MethodNotAllowed', `Method not allowed; use ${ALLOW}`, { headers: { allow: ALLOW } });
    const admitted = admission.admit(admission.quotaKeyOf(request), request);
    const answer = async (): Promise<HttpResponse> => {
      const outcome = await admitted;
      if ('response' in outcome) return outcome.response;
      outcome.release();
      const url = card.url ?? endpointOf(request, wellKnown ? (card.endpointPath ?? '/mcp') : undefined);
      const { body, etag } = await encoded(url);
      const headers: HeaderMap = { ...CORS, etag, 'cache-control': maxAge };
      if (matches(request.headers.get('if-none-match'), etag)) return emptyResponse(304, headers);
      headers['content-type'] = SERVER_CARD_MEDIA_TYPE;
      return { status: 200, headers, body: request.method === 'HEAD' ? null : body };
    };
    return answer();
  };
}

/** The CORS headers the draft requires on a hosted card ("CORS Requirements"). */
const CORS: HeaderMap = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type, If-None-Match',
  'access-control-expose-headers': 'ETag',
};

/**
 * The endpoint URL a card request was made under: its URL without query and `/server-card`,
 * or its origin and `endpointPath` for a request of the well-known path.
 */
function endpointOf(request: HttpRequest, endpointPath?: string): string {
  const host = request.headers.get('host');
  const url = new URL(request.url, host === null ? 'http://localhost' : `http://${host}`);
  if (endpointPath !== undefined) return `${url.origin}${endpointPath}`;
  return `${url.origin}${url.pathname.slice(0, -SERVER_CARD_PATH.length)}`;
}

/** A strong entity tag: the first 16 bytes of the body's SHA-256, hex. */
async function etagOf(body: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)));
  return `"${[...digest.subarray(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('')}"`;
}

/** `If-None-Match` (RFC 9110 §13.1.2, weak comparison): `*`, or a list holding `etag`. */
function matches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
