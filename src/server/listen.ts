/**
 * `subscriptions/listen`: a long-lived request whose "response" is a stream of the
 * notifications the client opted in to, each tagged with the subscription id (the
 * request's JSON-RPC id). The acknowledgment comes first; the request ends when the
 * client cancels it (its signal aborts) or the server closes it gracefully (the
 * completion result): on shutdown, at the transport's lifetime bound, or at once when
 * it honours nothing. An event published while the request waits for the author's
 * `subscribe` hooks, before its acknowledgment, is delivered right after the acknowledgment
 * ({@link EarlyEvents}): the hook that starts watching a resource may announce a change at once.
 * Source: 2026-07-28 basic/patterns/subscriptions "Acknowledgment", "Graceful Closure".
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
import type { ListenContribution } from './extension.js';
import { SubscribedUris } from './resource-uri.js';
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
  uris: SubscribedUris | undefined,
): { method: string; params: Params } | undefined {
  const method = EVENT_METHOD[event.type];
  if (event.type !== 'resourceUpdated') return filter[event.type] ? { method, params: {} } : undefined;
  // Any spelling of the resource the stream asked for (told with the stream's own spelling).
  const uri = uris?.spellingOf(event.uri);
  return uri === undefined ? undefined : { method, params: { uri } };
}

/**
 * What the bus carries while a listen request waits for its subscribe hooks (before it can be
 * acknowledged), kept for delivery after the acknowledgment: list changes once per kind,
 * updates of the requested resources once per resource, so at most 3 + the number of
 * requested URIs events (itself bounded by `limits.maxResourceSubscriptions`).
 */
export class EarlyEvents {
  readonly #stop: () => void;
  readonly #events = new Map<string, ServerEvent>();

  constructor(bus: EventBus, requested: readonly string[]) {
    const wanted = new SubscribedUris(requested);
    this.#stop = bus.subscribe((event) => {
      const key = event.type === 'resourceUpdated' ? wanted.spellingOf(event.uri) : event.type;
      if (key !== undefined && !this.#events.has(key)) this.#events.set(key, event);
    });
  }

  /** Stops keeping events and returns those kept, in the order they came. */
  take(): ServerEvent[] {
    this.#stop();
    return [...this.#events.values()];
  }
}

/**
 * True when the client asked for something and the server honours none of it, so the
 * stream could never carry a notification. A request asking for nothing stays open: a
 * middleware may carry notifications of its own on it (the gateway follows tasks so).
 */
function honoursNothing(init: {
  requested?: unknown;
  filter: SubscriptionFilter;
  contributions?: readonly ListenContribution[] | undefined;
}): boolean {
  if (Object.keys(init.filter).length > 0 || (init.contributions?.length ?? 0) > 0) return false;
  const requested = (init.requested ?? {}) as Record<string, unknown>;
  return Object.values(requested).some((v) => v === true || (Array.isArray(v) && v.length > 0));
}

/**
 * Runs one listen request until the client cancels it (its signal aborts) or the server
 * ends it: the closer registered in `open` is called, or `closing` aborts (resolves with
 * the graceful completion result). A listen honouring nothing (an empty filter, no task)
 * is acknowledged and completed at once: an open stream would carry nothing and only pin
 * the connection. The closer is removed again when the stream ends either way.
 */
export function listen(init: {
  id: RequestId;
  filter: SubscriptionFilter;
  bus: EventBus;
  channel: ScopeLine;
  open: Set<() => void>;
  /** The transport's graceful end of this request (shutdown, a lifetime bound). */
  closing?: AbortSignal | undefined;
  /** The filter as the client sent it (`notifications`), before narrowing. */
  requested?: unknown;
  /** What extensions carry on the stream (the Tasks extension's task status notifications). */
  contributions?: readonly ListenContribution[] | undefined;
  /** Which list changes concern this caller's view (per-caller catalogues); absent: all. */
  views?: { concerns(event: ServerEvent): boolean } | undefined;
  /** Events published before the acknowledgment, delivered right after it. */
  early?: EarlyEvents | undefined;
}): Promise<Params> {
  const { id, filter, bus, channel, contributions = [] } = init;
  const tag = { [META.subscriptionId]: id };
  const acknowledged: Params = { ...filter };
  for (const c of contributions) acknowledged[c.key] = c.value;
  channel.notify('notifications/subscriptions/acknowledged', { _meta: tag, notifications: acknowledged });
  const uris = filter.resourceSubscriptions && new SubscribedUris(filter.resourceSubscriptions);
  const deliver = (event: ServerEvent): void => {
    const n = eventNotification(event, filter, uris);
    if (n && init.views && !init.views.concerns(event)) return;
    if (n && !channel.signal.aborted) channel.notify(n.method, { ...n.params, _meta: tag });
  };
  // Taken and replaced by the stream's own subscription in one step: nothing falls between.
  const missed = init.early?.take();
  const unsubscribe = bus.subscribe(deliver);
  if (missed) for (const event of missed) deliver(event);
  const unwatch = contributions.map((c) =>
    c.watch((method, params) => {
      if (!channel.signal.aborted) channel.notify(method, { ...params, _meta: tag });
    }),
  );
  const { closing } = init;
  return new Promise((resolve) => {
    const end = (): void => {
      unsubscribe();
      for (const stop of unwatch) stop();
      init.open.delete(end);
      channel.signal.removeEventListener('abort', end);
      closing?.removeEventListener('abort', end);
      resolve({ _meta: tag });
    };
    init.open.add(end);
    channel.signal.addEventListener('abort', end, { once: true });
    closing?.addEventListener('abort', end, { once: true });
    if (channel.signal.aborted || closing?.aborted || honoursNothing(init)) end();
  });
}
