/**
 * Cached views of the server's lists (`client.tools()` and friends): a list is fetched
 * whole, kept while fresh per the server's `ttlMs` (the smallest over its pages), and
 * dropped at once when the matching list_changed notification arrives.
 * The cache belongs to one client, hence one authorization context, so both `public` and
 * `private` results may be kept; hosts sharing caches across clients should share only
 * `public` ones (`cacheScope` is reported for that).
 * Source: 2026-07-28 server/utilities/caching.
 */
import type { Params } from '../core/jsonrpc.js';
import { listChangedFeature, type ListFeature } from '../core/list-changed.js';
import { LIST_KINDS, pageOf, paginate, type ListKind } from './lists.js';

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

  /** Drops everything (e.g. on reconnect). */
  clear(): void {
    this.#entries.clear();
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
    return { items, fetchedAt, ttlMs: Number.isFinite(ttlMs) ? ttlMs : 0, cacheScope };
  }
}

/** `ttlMs` as the spec says to read it: absent, negative or not a number means 0. */
function freshness(ttlMs: unknown): number {
  return typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs > 0 ? ttlMs : 0;
}
