/**
 * The four paginated lists and auto-pagination with a guard against servers that loop.
 * Source: 2026-07-28 server/utilities/pagination; server/tools, server/resources,
 * server/prompts.
 */
import { McpkitError } from '../core/errors.js';
import type { Params } from '../core/jsonrpc.js';
import type { RequestOptions } from '../core/peer.js';
import type { Connection } from './connection.js';
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
 * @throws McpkitError `INVALID_RESULT` when a cursor repeats (the server would loop forever)
 *   or when more than `maxPages` pages arrive.
 */
export async function paginate<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  options: PaginateOptions,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    if (pages >= options.maxPages) {
      throw new McpkitError('INVALID_RESULT', `${options.method}: more than ${options.maxPages} pages`);
    }
    const page = await fetchPage(cursor);
    items.push(...page.items);
    if (page.nextCursor === undefined) return items;
    if (seen.has(page.nextCursor)) {
      throw new McpkitError(
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
 * @throws McpkitError `INVALID_RESULT` otherwise.
 */
export function pageOf<T>(result: Params, key: string, method: string): Page<T> {
  const items = result[key];
  const next = result.nextCursor;
  if (!Array.isArray(items)) throw new McpkitError('INVALID_RESULT', `${method}: '${key}' is not an array`);
  if (next !== undefined && next !== null && typeof next !== 'string') {
    throw new McpkitError('INVALID_RESULT', `${method}: nextCursor is not a string`);
  }
  return { items: items as T[], nextCursor: typeof next === 'string' ? next : undefined };
}

/** Sends one list request with the given params (a cursor, or none) and returns its result. */
export type SendList = (params: Params | undefined) => Promise<Params>;

/**
 * Fetches one page of list `kind`, raw.
 * @throws McpkitError `INVALID_RESULT` when the items are not an array.
 */
async function listPage<K extends ListKind>(
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
 * @throws McpkitError `INVALID_RESULT` as {@link paginate} and {@link pageOf}.
 */
function listAll<T>(send: SendList, kind: ListKind, maxPages: number): Promise<T[]> {
  const { method, key } = LIST_KINDS[kind];
  const fetchPage = async (cursor: string | undefined) =>
    pageOf<T>(await listPage(send, kind, cursor), key, method);
  return paginate(fetchPage, { method, maxPages });
}

/** Fetches the lists over whatever connection is current. */
export interface Lister {
  /** Every item of list `kind`, all pages. */
  all<T>(kind: ListKind, options?: RequestOptions): Promise<T[]>;
  /** One raw page of list `kind`. */
  page<K extends ListKind>(kind: K, cursor?: string, options?: RequestOptions): Promise<ListPage<K>>;
}

/**
 * Builds a {@link Lister} that sends through `connected()` (which throws when there is no
 * connection) and fetches at most `maxPages` pages per list.
 */
export function createLister(connected: () => Connection, maxPages: number): Lister {
  const send =
    (kind: ListKind, options?: RequestOptions): SendList =>
    (params) =>
      connected().roundTrip(LIST_KINDS[kind].method, params, options);
  return {
    all: (kind, options) => listAll(send(kind, options), kind, maxPages),
    page: (kind, cursor, options) => listPage(send(kind, options), kind, cursor),
  };
}
