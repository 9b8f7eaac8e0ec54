/**
 * Opaque cursors for list results and the paging of a fixed, ordered list.
 * Source: MCP 2026-07-28 server/utilities/pagination (cursors are opaque; an invalid
 * cursor is answered with -32602).
 */
import { WireError } from '../core/index.js';

/** One page of a list plus the cursor of the next page, if any. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

function encodeCursor(list: string, offset: number): string {
  return btoa(JSON.stringify([list, offset])).replace(/=+$/, '');
}

function decodeCursor(list: string, cursor: string): number {
  let decoded: unknown;
  try {
    decoded = JSON.parse(atob(cursor));
  } catch {
    decoded = undefined;
  }
  if (!Array.isArray(decoded) || decoded[0] !== list || !Number.isSafeInteger(decoded[1]) || decoded[1] < 0) {
    throw WireError.of('InvalidParams', 'Invalid cursor', { cursor });
  }
  return decoded[1] as number;
}

/**
 * Returns the page of `items` that `cursor` points at (the first page without one).
 * @param list the list's name, bound into the cursor so one list's cursor fails on another.
 * @throws WireError -32602 for a cursor this server did not issue or that is past the end.
 */
export function paginate<T>(list: string, items: readonly T[], cursor: unknown, pageSize: number): Page<T> {
  if (cursor !== undefined && typeof cursor !== 'string')
    throw WireError.of('InvalidParams', 'cursor must be a string');
  const offset = cursor === undefined ? 0 : decodeCursor(list, cursor);
  if (offset > items.length) throw WireError.of('InvalidParams', 'Invalid cursor', { cursor });
  const end = offset + pageSize;
  const page: Page<T> = { items: items.slice(offset, end) };
  if (end < items.length) page.nextCursor = encodeCursor(list, end);
  return page;
}
