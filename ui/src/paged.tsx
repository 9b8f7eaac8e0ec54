// Paged lists (client settings): a list loads one page, the server's page size, at a time;
// "Load more" asks for the next page with the cursor the last one gave.
import { api } from './api.js';

type Cursors<K extends string> = Partial<Record<K, string>>;

/** One page of list `kind`: its items; the next page's cursor (or none) goes to `setCursors`. */
export async function loadPage<K extends string>(
  kind: K,
  cursor: string | undefined,
  setCursors: (update: (cursors: Cursors<K>) => Cursors<K>) => void,
): Promise<unknown[]> {
  const page = await api<Record<string, unknown>>('list-page', { kind, ...(cursor ? { cursor } : {}) });
  const next = typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
  setCursors((cursors) => {
    const rest = { ...cursors };
    delete rest[kind];
    return next ? { ...rest, [kind]: next } : rest;
  });
  return Array.isArray(page[kind]) ? (page[kind] as unknown[]) : [];
}

/** "Load more" for `kinds`, the lists of the open tab that have a next page; none, no button. */
export function LoadMore<K extends string>(props: {
  kinds: K[];
  label: (kind: K) => string;
  more: (kinds: K[]) => void;
}) {
  if (props.kinds.length === 0) return null;
  return (
    <button type="button" data-test="load-more" onClick={() => props.more(props.kinds)}>
      Load more ({props.kinds.map(props.label).join(', ')} has a next page)
    </button>
  );
}
