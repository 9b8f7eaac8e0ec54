/**
 * The four paginated lists: auto-pagination with a guard against servers that loop, and
 * the client's cached views of them (`client.tools()` and friends), each fetched whole,
 * kept while fresh per the server's `ttlMs` (the smallest over its pages), and dropped at
 * once when the matching list_changed notification arrives.
 * The cache belongs to one client, hence one authorization context, so both `public` and
 * `private` results may be kept; hosts sharing caches across clients should share only
 * `public` ones (`cacheScope` is reported for that).
 * Source: 2026-07-28 server/utilities/pagination, server/utilities/caching; server/tools,
 * server/resources, server/prompts.
 */
import { LocalError, type Params } from '../core/index.js';
import { listChangedFeature, type ListFeature } from '../core/runtime.js';
import type { ResultOf } from './request-types.js';

/** Each paginated list: its method and the result member holding the items. */
export const LIST_KINDS = {
  tools: { method: 'tools/list', key: 'tools' },
  resources: { method: 'resources/list', key: 'resources' },
  resourceTemplates: { method: 'resources/templates/list', key: 'resourceTemplates' },
  prompts: { method: 'prompts/list', key: 'prompts' },
} as const;

/** A key of {@link LIST_KINDS}. */
export type ListKind = keyof typeof LIST_KINDS;

/** The raw result of one page of list `K`, modern or legacy. */
export type ListPage<K extends ListKind> = ResultOf<(typeof LIST_KINDS)[K]['method']>;

/** One page of a list: the items and the cursor of the next page, if any. */
export interface Page<T> {
  items: T[];
  nextCursor: string | undefined;
}

/** Options of {@link paginate}. */
export interface PaginateOptions {
  /** The list method, for error messages. */
  method: string;
  /** Most pages to fetch before failing. */
  maxPages: number;
}

/**
 * Fetches every page and concatenates the items. A missing `nextCursor` ends the list; an
 * empty string is a cursor like any other (pagination "Implementation Guidelines").
 * @throws LocalError `INVALID_RESULT` when a cursor repeats (the server would loop forever)
 *   or when more than `maxPages` pages arrive.
 */
async function paginate<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  options: PaginateOptions,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages >= options.maxPages) {
      throw new LocalError('INVALID_RESULT', `${options.method}: more than ${options.maxPages} pages`);
    }
    const page = await fetchPage(cursor);
    items.push(...page.items);
    if (page.nextCursor === undefined) return items;
    if (seen.has(page.nextCursor)) {
      throw new LocalError(
        'INVALID_RESULT',
        `${options.method}: the server repeated cursor ${JSON.stringify(page.nextCursor)}`,
      );
    }
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}

/**
 * Reads a page out of a list result: `result[key]` must be an array, `nextCursor` a string
 * when present.
 * @throws LocalError `INVALID_RESULT` otherwise.
 */
function pageOf<T>(result: Params, key: string, method: string): Page<T> {
  const items = result[key];
  const next = result.nextCursor;
  if (!Array.isArray(items)) throw new LocalError('INVALID_RESULT', `${method}: '${key}' is not an array`);
  if (next !== undefined && next !== null && typeof next !== 'string') {
    throw new LocalError('INVALID_RESULT', `${method}: nextCursor is not a string`);
  }
  return { items: items as T[], nextCursor: typeof next === 'string' ? next : undefined };
}

/** Sends one list request with the given params (a cursor, or none) and returns its result. */
export type SendList = (params: Params | undefined) => Promise<Params>;

/**
 * Fetches one page of list `kind`, raw.
 * @throws LocalError `INVALID_RESULT` when the items are not an array.
 */
export async function listPage<K extends ListKind>(
  send: SendList,
  kind: K,
  cursor: string | undefined,
): Promise<ListPage<K>> {
  const { method, key } = LIST_KINDS[kind];
  const result = await send(cursor === undefined ? undefined : { cursor });
  pageOf(result, key, method);
  return result as ListPage<K>;
}

/**
 * Fetches every page of list `kind` and returns all items.
 * @throws LocalError `INVALID_RESULT` as {@link paginate} and {@link pageOf}.
 */
export function listAll<T>(send: SendList, kind: ListKind, maxPages: number): Promise<T[]> {
  const { method, key } = LIST_KINDS[kind];
  const fetchPage = async (cursor: string | undefined) =>
    pageOf<T>(await listPage(send, kind, cursor), key, method);
  return paginate(fetchPage, { method, maxPages });
}

/** A cached list and how long it stays fresh. */
export interface CachedList<T> {
  readonly items: T[];
  /** When it was fetched (milliseconds since the epoch). */
  readonly fetchedAt: number;
  /** Freshness in milliseconds (0 = stale at once, as when the server sends none). */
  readonly ttlMs: number;
  /** The server's cache scope, if it sent one. */
  readonly cacheScope: 'public' | 'private' | undefined;
}

/** The lists each feature's list_changed notification makes stale. */
const STALE: Readonly<Record<ListFeature, readonly ListKind[]>> = {
  tools: ['tools'],
  prompts: ['prompts'],
  resources: ['resources', 'resourceTemplates'],
};

/** The cached views of one client. */
export class ListViews {
  readonly #entries = new Map<ListKind, Promise<CachedList<unknown>>>();
  /** The last list fetched of each kind, as JSON: kept past invalidation, to tell a change. */
  readonly #seen = new Map<ListKind, string>();
  readonly #send: (kind: ListKind, params: Params | undefined) => Promise<Params>;
  readonly #maxPages: number;
  readonly #now: () => number;

  constructor(
    send: (kind: ListKind, params: Params | undefined) => Promise<Params>,
    options: { maxPages: number; now?: () => number },
  ) {
    this.#send = send;
    this.#maxPages = options.maxPages;
    this.#now = options.now ?? Date.now;
  }

  /** The list, from the cache while fresh, otherwise fetched again (concurrent callers share one fetch). */
  async get<T>(kind: ListKind): Promise<CachedList<T>> {
    const cached = this.#entries.get(kind);
    if (cached) {
      const entry = await cached.catch(() => undefined);
      if (entry && this.#now() < entry.fetchedAt + entry.ttlMs) return entry as CachedList<T>;
      if (this.#entries.get(kind) !== cached) return this.get(kind);
    }
    const fetching = this.#fetch(kind);
    this.#entries.set(kind, fetching);
    fetching.catch(() => this.#entries.get(kind) === fetching && this.#entries.delete(kind));
    return fetching as Promise<CachedList<T>>;
  }

  /** Drops the lists a notification makes stale; returns whether it was such a notification. */
  invalidate(method: string): boolean {
    const feature = listChangedFeature(method);
    if (feature === undefined) return false;
    for (const kind of STALE[feature]) this.#entries.delete(kind);
    return true;
  }

  /** Drops everything (e.g. on reconnect); {@link seen} is kept. */
  clear(): void {
    this.#entries.clear();
  }

  /** The last list of `kind` fetched (as JSON), stale or not; undefined before any. */
  seen(kind: ListKind): string | undefined {
    return this.#seen.get(kind);
  }

  /** Fetches list `kind` now, whatever the cache holds (see {@link seen} for it as JSON). */
  refresh<T>(kind: ListKind): Promise<CachedList<T>> {
    this.#entries.delete(kind);
    return this.get<T>(kind);
  }

  async #fetch(kind: ListKind): Promise<CachedList<unknown>> {
    const { method, key } = LIST_KINDS[kind];
    const fetchedAt = this.#now();
    let ttlMs = Infinity;
    let cacheScope: CachedList<unknown>['cacheScope'];
    const items = await paginate(
      async (cursor) => {
        const result = await this.#send(kind, cursor === undefined ? undefined : { cursor });
        ttlMs = Math.min(ttlMs, freshness(result.ttlMs));
        cacheScope ??=
          result.cacheScope === 'public' || result.cacheScope === 'private' ? result.cacheScope : undefined;
        return pageOf(result, key, method);
      },
      { method, maxPages: this.#maxPages },
    );
    this.#seen.set(kind, JSON.stringify(items));
    return { items, fetchedAt, ttlMs: Number.isFinite(ttlMs) ? ttlMs : 0, cacheScope };
  }
}

/** `ttlMs` as the spec says to read it: absent, negative or not a number means 0. */
function freshness(ttlMs: unknown): number {
  return typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs > 0 ? ttlMs : 0;
}
