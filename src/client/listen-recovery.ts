/**
 * What a subscription may have missed between two listens: a list change announced while
 * no listen was open (after the server completed one, or a connection dropped, and before
 * the next is acknowledged) reaches nobody. A list can be compared, so after each
 * re-acknowledgment the lists the filter follows are fetched again and a change from the
 * last one fetched is delivered as that list's list_changed. Resource contents are not
 * compared: `notifications/resources/updated` sent in such a gap is not recovered.
 * Source: 2026-07-28 basic/patterns/subscriptions "Graceful Closure", server/tools
 * "List Changed Notification".
 */
import type { JsonRpcNotification, SubscriptionFilter } from '../core/index.js';
import { LIST_CHANGED, LIST_FEATURES, type ListFeature } from '../core/runtime.js';
import type { ListKind } from './lists.js';

/** The client's lists as recovery reads them (its `ListViews`). */
export interface ListsPort {
  /** The last list of `kind` fetched, as JSON; undefined before any. */
  seen(kind: ListKind): string | undefined;
  /** Fetches list `kind` now; resolves with it as JSON. */
  refresh(kind: ListKind): Promise<string>;
  /** The list of `feature` changed: drop what the client keeps of it. */
  changed(feature: ListFeature): void;
}

/** The lists each feature's list_changed covers. */
const KINDS: Readonly<Record<ListFeature, readonly ListKind[]>> = {
  tools: ['tools'],
  prompts: ['prompts'],
  resources: ['resources', 'resourceTemplates'],
};

/**
 * Runs on each acknowledgment of one subscription. The first takes a baseline of each
 * followed list not fetched yet; a later one (`again`) fetches each again and, when one
 * differs from the last fetched, calls `deliver` with that feature's list_changed.
 * Failures (a list the server does not serve) count as no change.
 */
export async function recoverLists(
  lists: ListsPort,
  acknowledged: SubscriptionFilter,
  after: { again: boolean; deliver(notification: JsonRpcNotification): void },
): Promise<void> {
  const followed = LIST_FEATURES.filter((feature) => acknowledged[LIST_CHANGED[feature].field] === true);
  await Promise.all(
    followed.map(async (feature) => {
      const changed = await Promise.all(KINDS[feature].map((kind) => compare(lists, kind, after.again)));
      if (!changed.includes(true)) return;
      lists.changed(feature);
      after.deliver({ jsonrpc: '2.0', method: LIST_CHANGED[feature].method, params: {} });
    }),
  );
}

/** Whether list `kind` changed since last fetched (fetching a baseline the first time). */
async function compare(lists: ListsPort, kind: ListKind, again: boolean): Promise<boolean> {
  const before = lists.seen(kind);
  if (!again && before !== undefined) return false;
  try {
    const now = await lists.refresh(kind);
    return again && before !== undefined && now !== before;
  } catch {
    return false;
  }
}
