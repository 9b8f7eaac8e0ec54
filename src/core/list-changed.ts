/**
 * The three list_changed notifications in one table: for each feature whose list can
 * change, its notification method and the listen-filter field that asks for it. The
 * server's events and listen filter, the client's cache and legacy listen, and the host all
 * read it, so the names are written once.
 * Source: 2026-07-28 basic/patterns/subscriptions (SubscriptionFilter); 2025-11-25
 * server/tools, server/prompts, server/resources "List Changed Notification".
 */
import type { ServerCapabilities, SubscriptionFilter } from './types/index.js';

/** A feature whose list a server may announce as changed. */
export type ListFeature = 'tools' | 'prompts' | 'resources';

/** The listen-filter field of each list_changed notification. */
export type ListChangedField = 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged';

/** Method and filter field of each feature's list_changed notification. */
export const LIST_CHANGED: Readonly<Record<ListFeature, { method: string; field: ListChangedField }>> = {
  tools: { method: 'notifications/tools/list_changed', field: 'toolsListChanged' },
  prompts: { method: 'notifications/prompts/list_changed', field: 'promptsListChanged' },
  resources: { method: 'notifications/resources/list_changed', field: 'resourcesListChanged' },
};

/** The features, in table order. */
export const LIST_FEATURES: readonly ListFeature[] = ['tools', 'prompts', 'resources'];

/** The feature whose list `method` says changed; undefined for any other method. */
export function listChangedFeature(method: string): ListFeature | undefined {
  return LIST_FEATURES.find((feature) => LIST_CHANGED[feature].method === method);
}

/**
 * The filter that follows every list `caps` declares `listChanged` for (empty when it
 * declares none), for `subscriptions/listen` or a legacy session's notifications: for
 * example `client.listen(listChangedFilter(client.serverCapabilities ?? {}))` (public in
 * `mcpkit/client`). Each of `toolsListChanged`, `promptsListChanged` and
 * `resourcesListChanged` is `true` when `caps.tools`, `caps.prompts` or `caps.resources`
 * says `listChanged: true`, and absent otherwise.
 * Source: 2026-07-28 basic/patterns/subscriptions (SubscriptionFilter).
 */
export function listChangedFilter(caps: ServerCapabilities): SubscriptionFilter {
  const filter: SubscriptionFilter = {};
  for (const feature of LIST_FEATURES)
    if (caps[feature]?.listChanged) filter[LIST_CHANGED[feature].field] = true;
  return filter;
}
