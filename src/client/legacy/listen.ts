/**
 * `client.listen()` on a legacy session: which of the requested notification types the
 * session delivers, whether a notification passes a filter, and shared
 * `resources/subscribe` bookkeeping so two subscriptions to one URI unsubscribe once.
 * Source: 2025-11-25 server/resources "Subscriptions", server/tools, server/prompts and
 * server/resources "List Changed Notification"; 2026-07-28 basic/patterns/subscriptions
 * (the filter's field names).
 */
import type { JsonRpcNotification, ServerCapabilities, SubscriptionFilter } from '../../core/index.js';
import { listChangedFilter, LIST_CHANGED, LIST_FEATURES, listChangedFeature } from '../../core/runtime.js';
import type { Connection } from '../connection.js';

/**
 * The part of `requested` a legacy server honours: list_changed types it declares
 * `listChanged` for, and resource URIs when it declares `resources.subscribe`.
 */
export function legacyFilter(requested: SubscriptionFilter, caps: ServerCapabilities): SubscriptionFilter {
  const honoured: SubscriptionFilter = {};
  const declared = listChangedFilter(caps);
  for (const feature of LIST_FEATURES) {
    const { field } = LIST_CHANGED[feature];
    if (requested[field] && declared[field]) honoured[field] = true;
  }
  const uris = requested.resourceSubscriptions ?? [];
  if (uris.length > 0 && caps.resources?.subscribe) honoured.resourceSubscriptions = [...new Set(uris)];
  return honoured;
}

/** True when `filter` asks for `notification` (the list_changed types and resource updates). */
export function passesFilter(notification: JsonRpcNotification, filter: SubscriptionFilter): boolean {
  const feature = listChangedFeature(notification.method);
  if (feature) return filter[LIST_CHANGED[feature].field] === true;
  if (notification.method !== 'notifications/resources/updated') return false;
  const uri = notification.params?.uri;
  return typeof uri === 'string' && (filter.resourceSubscriptions ?? []).includes(uri);
}

/**
 * Counts the subscriptions that need each URI on each connection: `resources/subscribe`
 * goes out for the first, `resources/unsubscribe` after the last (and only while the
 * connection is open).
 */
export class LegacyResourceSubscriptions {
  readonly #counts = new WeakMap<Connection, Map<string, number>>();

  /** Takes one reference to `uri`, subscribing on the first. @throws errors of `resources/subscribe`. */
  async subscribe(connection: Connection, uri: string): Promise<void> {
    const counts = this.#countsOf(connection);
    const n = counts.get(uri) ?? 0;
    counts.set(uri, n + 1);
    if (n > 0) return;
    try {
      await connection.roundTrip('resources/subscribe', { uri });
    } catch (error) {
      this.#release(counts, uri);
      throw error;
    }
  }

  /** Drops one reference to `uri`; unsubscribes (without waiting) after the last. */
  unsubscribe(connection: Connection, uri: string): void {
    const counts = this.#countsOf(connection);
    if (!counts.has(uri)) return;
    if (this.#release(counts, uri) > 0 || connection.isClosed) return;
    connection.roundTrip('resources/unsubscribe', { uri }).catch(() => undefined);
  }

  #release(counts: Map<string, number>, uri: string): number {
    const left = (counts.get(uri) ?? 1) - 1;
    if (left > 0) counts.set(uri, left);
    else counts.delete(uri);
    return left;
  }

  #countsOf(connection: Connection): Map<string, number> {
    let counts = this.#counts.get(connection);
    if (!counts) this.#counts.set(connection, (counts = new Map()));
    return counts;
  }
}
