/**
 * Reading a Server Card before connecting: fetch it (bounded in size and time, with
 * `Accept: application/mcp-server-card+json` and `If-None-Match`), validate it, pick the
 * endpoint, and once connected compare its claims with what the server says live. A card
 * is advisory: one that does not validate is refused, and live values win over it.
 * Source: SEP-2127 (draft); experimental-ext-server-card `docs/discovery.md` "Client
 * Discovery Flow", "Hosted Server Card Location", "Consistency with Runtime Behavior",
 * "Caching" (8924e08).
 */
import { LocalError, type Implementation } from '../core/index.js';
import {
  SERVER_CARD_JSON_SCHEMA,
  SERVER_CARD_MEDIA_TYPE,
  SERVER_CARD_PATH,
  SERVER_CARD_WELL_KNOWN_PATH,
  type CardRemote,
  type ServerCard,
} from '../core/server-card.js';
import { DEFAULT_MAX_JSON_DEPTH, nestedDeeperThan } from '../core/runtime.js';
import { compileJsonSchema, type JsonSchemaValidator } from '../validation/index.js';
import { withDeadline } from '../core/runtime.js';
import { unreachable } from './http/fetch-failure.js';

/** Options of {@link fetchServerCard}. */
export interface FetchServerCardOptions {
  /** Longest wait for the whole answer, in milliseconds (default 10 000). */
  timeoutMs?: number;
  /** Largest card accepted, in bytes (default 64 KiB). */
  maxBytes?: number;
  /** The `ETag` of a card fetched earlier: sent as `If-None-Match`, a 304 says it still holds. */
  etag?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
}

/** A fetched card that validated, or the word that the one held (`etag`) is still current. */
export type FetchedServerCard =
  | { status: 'ok'; url: string; card: ServerCard; etag?: string }
  | { status: 'not-modified'; url: string; etag: string };

/** One way a card disagrees with the live server. */
export interface CardDrift {
  /** What differs: `name`, `version`, `title`, `description`, `icons`, `supportedProtocolVersions`. */
  field: string;
  /** The card's claim and the live value (undefined when absent). */
  card: unknown;
  live: unknown;
  /** One sentence for a person. */
  message: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 64 * 1024;

/** The recommended card location of a Streamable HTTP endpoint: `<endpoint>/server-card`. */
export function serverCardUrl(endpoint: string | URL): string {
  const url = new URL(endpoint);
  url.search = '';
  url.hash = '';
  url.pathname = `${url.pathname.replace(/\/$/, '')}${SERVER_CARD_PATH}`;
  return url.href;
}

/**
 * Where the card of a Streamable HTTP endpoint may be, in the order a client tries them:
 * `<endpoint>/server-card` (the extension's recommended location), then
 * `<origin>/.well-known/mcp/server-card.json` (where other implementers serve it).
 */
export function serverCardUrls(endpoint: string | URL): string[] {
  return [serverCardUrl(endpoint), new URL(SERVER_CARD_WELL_KNOWN_PATH, endpoint).href];
}

/** Errors that say only "no card at this URL" (an HTTP status other than 200 and 304). */
const ABSENT = new WeakSet<Error>();

/**
 * Finds and fetches the card of the Streamable HTTP endpoint `endpoint`: tries each of
 * {@link serverCardUrls} in turn and returns the first card that validates. A location
 * that answers another HTTP status (404, 405, …) is passed over; an unreachable host, a
 * card that is too large or not valid stops the search with its error.
 * @throws LocalError `CONNECTION_CLOSED` naming each URL and its status when no location
 *   serves a card, and the errors of {@link fetchServerCard} otherwise.
 */
export async function discoverServerCard(
  endpoint: string | URL,
  options: FetchServerCardOptions = {},
): Promise<FetchedServerCard> {
  const missed: string[] = [];
  for (const url of serverCardUrls(endpoint)) {
    try {
      return await fetchServerCard(url, options);
    } catch (error) {
      if (!(error instanceof Error) || !ABSENT.has(error)) throw error;
      missed.push(error.message.replace(/^server card /, ''));
    }
  }
  throw new LocalError('CONNECTION_CLOSED', `no server card found: ${missed.join(', ')}`);
}

/**
 * Fetches the Server Card at `url` and validates it against the card's JSON Schema.
 * @throws LocalError `CONNECTION_CLOSED` (unreachable, or an HTTP status other than 200
 *   and 304), `TIMEOUT`, `LIMIT_EXCEEDED` (over `maxBytes`), `INVALID_RESULT` (not JSON,
 *   or not a valid card: the message lists each problem), `INVALID_ARGUMENT` (not http(s)).
 */
export async function fetchServerCard(
  url: string | URL,
  options: FetchServerCardOptions = {},
): Promise<FetchedServerCard> {
  const href = new URL(url).href;
  if (!/^https?:$/.test(new URL(href).protocol))
    throw new LocalError('INVALID_ARGUMENT', `server card URL must be http(s): ${href}`);
  const ms = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    return await withDeadline({ url: href, ms, signal: options.signal }, (signal) =>
      readCard(href, options, signal),
    );
  } catch (error) {
    if (error instanceof LocalError || options.signal?.aborted) throw error;
    // fetch says only "fetch failed"; its cause says why (refused, a redirect loop, DNS, TLS).
    if (error instanceof TypeError) {
      const why = unreachable(new URL(href), error);
      throw new LocalError('CONNECTION_CLOSED', `server card ${why.message}`, { cause: error });
    }
    throw new LocalError('CONNECTION_CLOSED', `server card ${href}: ${String(error)}`, { cause: error });
  }
}

/** One fetch of the card and its body; the caller bounds it in time. */
async function readCard(
  href: string,
  options: FetchServerCardOptions,
  signal: AbortSignal,
): Promise<FetchedServerCard> {
  const response = await (options.fetch ?? fetch)(href, { headers: requestHeaders(options), signal });
  const etag = response.headers.get('etag') ?? undefined;
  if (response.status === 304 && options.etag !== undefined) {
    await response.body?.cancel();
    return { status: 'not-modified', url: href, etag: etag ?? options.etag };
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    const absent = new LocalError('CONNECTION_CLOSED', `server card ${href}: HTTP ${response.status}`);
    ABSENT.add(absent);
    throw absent;
  }
  const card = await validCard(
    href,
    await boundedText(response, { href, maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES }),
  );
  return etag === undefined ? { status: 'ok', url: href, card } : { status: 'ok', url: href, card, etag };
}

function requestHeaders(options: FetchServerCardOptions): Record<string, string> {
  const headers: Record<string, string> = { ...options.headers, accept: SERVER_CARD_MEDIA_TYPE };
  if (options.etag !== undefined) headers['if-none-match'] = options.etag;
  return headers;
}

/** The body as text, refusing more than `maxBytes` (the rest is not read). */
async function boundedText(
  response: Response,
  { href, maxBytes }: { href: string; maxBytes: number },
): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(href, maxBytes);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(href, maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) bytes.set(chunk, (offset += chunk.byteLength) - chunk.byteLength);
  return new TextDecoder().decode(bytes);
}

function tooLarge(href: string, maxBytes: number): LocalError {
  return new LocalError('LIMIT_EXCEEDED', `server card ${href} is larger than ${maxBytes} bytes (maxBytes)`);
}

let validator: JsonSchemaValidator | undefined;

/** The card in `text`, once it is JSON and valid. @throws LocalError `INVALID_RESULT` listing the problems. */
async function validCard(url: string, text: string): Promise<ServerCard> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new LocalError('INVALID_RESULT', `server card ${url}: not JSON`);
  }
  if (nestedDeeperThan(text, DEFAULT_MAX_JSON_DEPTH))
    throw new LocalError(
      'INVALID_RESULT',
      `server card ${url}: nested deeper than ${DEFAULT_MAX_JSON_DEPTH} levels`,
    );
  validator ??= compileJsonSchema(SERVER_CARD_JSON_SCHEMA);
  const outcome = await validator(value);
  if (outcome.ok) return value as ServerCard;
  throw new LocalError('INVALID_RESULT', `server card ${url} is not valid: ${outcome.issues.join('; ')}`, {
    cause: { issues: outcome.issues },
  });
}

/**
 * The endpoint to connect to: the card's first remote of `type` (default
 * `streamable-http`), its `{name}` URL variables filled from `values`, else their defaults.
 * @throws LocalError `INVALID_ARGUMENT` when there is no such remote, or a variable has no value.
 */
export function cardEndpoint(
  card: ServerCard,
  options: { type?: CardRemote['type']; values?: Record<string, string> } = {},
): { url: string; remote: CardRemote } {
  const type = options.type ?? 'streamable-http';
  const remote = card.remotes?.find((r) => r.type === type);
  if (!remote) throw new LocalError('INVALID_ARGUMENT', `server card ${card.name} has no ${type} remote`);
  const url = remote.url.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (_, name: string) => {
    const given = options.values && Object.hasOwn(options.values, name) ? options.values[name] : undefined;
    const fallback =
      remote.variables && Object.hasOwn(remote.variables, name) ? remote.variables[name] : undefined;
    const value = given ?? fallback?.default;
    if (value === undefined)
      throw new LocalError('INVALID_ARGUMENT', `server card URL variable {${name}} needs a value`);
    return encodeURIComponent(value);
  });
  return { url, remote };
}

/** What the server said live: `serverInfo`, and the revisions it serves when known. */
export interface LiveServer {
  serverInfo?: Implementation | undefined;
  supportedVersions?: readonly string[] | undefined;
}

/**
 * How `card` disagrees with the live server ("Consistency with Runtime Behavior"): its
 * name (the card's, or the part after its slash), version, title, description and icons
 * (each compared when the server gives it), and each remote's revisions (claimed but not
 * served, or served but not claimed) when the live revisions are known. Empty when they agree.
 */
export function cardDrift(card: ServerCard, live: LiveServer): CardDrift[] {
  const drift: CardDrift[] = [];
  const info = live.serverInfo;
  const differs = (field: string, claimed: unknown, actual: unknown): void => {
    if (actual === undefined || JSON.stringify(claimed) === JSON.stringify(actual)) return;
    const message = `${field}: the card says ${show(claimed)}, the server ${show(actual)}`;
    drift.push({ field, card: claimed, live: actual, message });
  };
  if (info) {
    const short = card.name.slice(card.name.indexOf('/') + 1);
    if (info.name !== card.name && info.name !== short) differs('name', card.name, info.name);
    differs('version', card.version, info.version);
    for (const field of ['title', 'description', 'icons'] as const) differs(field, card[field], info[field]);
  }
  const served = live.supportedVersions;
  if (served) for (const remote of card.remotes ?? []) revisionDrift(remote, served, drift);
  return drift;
}

function revisionDrift(remote: CardRemote, served: readonly string[], drift: CardDrift[]): void {
  const claimed = remote.supportedProtocolVersions ?? [];
  const over = claimed.filter((v) => !served.includes(v));
  const under = served.filter((v) => !claimed.includes(v));
  if (over.length === 0 && under.length === 0) return;
  const parts = [];
  if (over.length > 0) parts.push(`claims ${over.join(', ')}, which the server does not serve`);
  if (under.length > 0) parts.push(`omits ${under.join(', ')}, which the server serves`);
  const message = `supportedProtocolVersions of ${remote.url}: ${parts.join('; ')}`;
  drift.push({ field: 'supportedProtocolVersions', card: claimed, live: [...served], message });
}

function show(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}
