/**
 * `subscriptions/listen`: a long-lived request whose "response" is a stream of the
 * notifications the client opted in to, each tagged with the subscription id (the
 * request's JSON-RPC id). The acknowledgment comes first; the request ends when the
 * client cancels it (its signal aborts) or the server closes it gracefully.
 * Source: 2026-07-28 basic/patterns/subscriptions.
 */
import {
  type EventBus,
  type ServerEvent,
  WireError,
  type Params,
  type RequestId,
  META,
  type ServerCapabilities,
  type SubscriptionFilter,
} from '../core/index.js';
import {
  EVENT_METHOD,
  LIST_CHANGED,
  LIST_FEATURES,
  declares,
  serverCapabilityNeeded,
} from '../core/runtime.js';
import type { ScopeLine } from './scope.js';

export type { SubscriptionFilter } from '../core/index.js';

/** Narrows a requested filter to what the server can honour: what its capabilities declare (`listChanged`, `resources.subscribe`). */
export function honouredFilter(
  requested: unknown,
  caps: ServerCapabilities,
  maxUris = 1000,
): SubscriptionFilter {
  if (typeof requested !== 'object' || requested === null || Array.isArray(requested)) {
    throw WireError.of('InvalidParams', 'notifications must be an object (a subscription filter)');
  }
  const r = requested as Record<string, unknown>;
  const out: SubscriptionFilter = {};
  for (const feature of LIST_FEATURES) {
    const { field } = LIST_CHANGED[feature];
    if (r[field] === true && declares(caps, serverCapabilityNeeded(LIST_CHANGED[feature].method)))
      out[field] = true;
  }
  const uris = r.resourceSubscriptions;
  if (uris !== undefined && (!Array.isArray(uris) || uris.some((u) => typeof u !== 'string'))) {
    throw WireError.of('InvalidParams', 'resourceSubscriptions must be an array of URIs');
  }
  if (Array.isArray(uris) && uris.length > maxUris) {
    throw WireError.of(
      'InvalidParams',
      `more than ${maxUris} resourceSubscriptions (limits.maxResourceSubscriptions)`,
    );
  }
  if (Array.isArray(uris) && uris.length > 0 && declares(caps, serverCapabilityNeeded('resources/subscribe')))
    out.resourceSubscriptions = [...(uris as string[])];
  return out;
}

/** The notification an event becomes on a stream with this filter, if it passes. */
function eventNotification(
  event: ServerEvent,
  filter: SubscriptionFilter,
): { method: string; params: Params } | undefined {
  const method = EVENT_METHOD[event.type];
  if (event.type !== 'resourceUpdated') return filter[event.type] ? { method, params: {} } : undefined;
  return filter.resourceSubscriptions?.includes(event.uri)
    ? { method, params: { uri: event.uri } }
    : undefined;
}

/**
 * Runs one listen request until the client cancels it (its signal aborts) or the server
 * calls the closer registered in `open` (resolves with the graceful completion result).
 * The closer is removed again when the stream ends either way.
 */
export function listen(init: {
  id: RequestId;
  filter: SubscriptionFilter;
  bus: EventBus;
  channel: ScopeLine;
  open: Set<() => void>;
  /** Task status notifications to carry (Tasks extension), and how to follow them. */
  tasks?: { ids: string[]; watch(ids: string[], emit: (task: Params) => void): () => void } | undefined;
}): Promise<Params> {
  const { id, filter, bus, channel, tasks } = init;
  const tag = { [META.subscriptionId]: id };
  const acknowledged = tasks ? { ...filter, taskIds: tasks.ids } : filter;
  channel.notify('notifications/subscriptions/acknowledged', { _meta: tag, notifications: acknowledged });
  const unsubscribe = bus.subscribe((event) => {
    const n = eventNotification(event, filter);
    if (n && !channel.signal.aborted) channel.notify(n.method, { ...n.params, _meta: tag });
  });
  const unwatch = tasks?.watch(tasks.ids, (task) => {
    if (!channel.signal.aborted) channel.notify('notifications/tasks', { ...task, _meta: tag });
  });
  return new Promise((resolve) => {
    const end = (): void => {
      unsubscribe();
      unwatch?.();
      init.open.delete(end);
      channel.signal.removeEventListener('abort', end);
      resolve({ _meta: tag });
    };
    init.open.add(end);
    channel.signal.addEventListener('abort', end, { once: true });
    if (channel.signal.aborted) end();
  });
}
