/**
 * Drives `client.listen()` on either era. Modern: a long-lived `subscriptions/listen`
 * request whose notifications carry its id as `io.modelcontextprotocol/subscriptionId`
 * (the acknowledgment settles `acknowledged`; after the server's graceful completion
 * result the request is sent again, and the lists followed are compared across the gap,
 * see listen-recovery.ts). Legacy: the session's own notifications (list_changed arrives unsolicited;
 * resource URIs are subscribed with `resources/subscribe`), filtered the same way.
 * Source: 2026-07-28 basic/patterns/subscriptions; 2025-11-25 server/resources
 * "Subscriptions", server/tools and server/prompts "List Changed Notification".
 */
import {
  ERROR_TABLE,
  TASKS_EXTENSION,
  WireError,
  LocalError,
  type JsonRpcNotification,
  type Params,
  type RequestId,
  META,
  type ServerCapabilities,
  type SubscriptionFilter,
} from '../core/index.js';
import type { Connection } from './connection.js';
import { LegacyResourceSubscriptions, legacyFilter, passesFilter } from './legacy/listen.js';
import { SubscriptionStream, type Subscription } from './subscription.js';
import { MAX_TIMER_MS, sleep } from '../core/runtime.js';
import { recoverLists, type ListsPort } from './listen-recovery.js';

/** Options of `client.listen()`. */
export interface ListenOptions {
  /** Aborting it closes the subscription, like `close()`. */
  signal?: AbortSignal;
  /**
   * Re-subscribe when the subscription drops without the server's completion result
   * (LocalError `CONNECTION_CLOSED`: the connection closed, or over HTTP the server
   * closed the listen stream without answering it): once the client is connected again (the same
   * connection, or a new one after `client.connect()`), `subscriptions/listen` is sent
   * anew (legacy: the URIs are subscribed anew), with a backoff of 100 ms doubling up to
   * 5 s between attempts, until it succeeds or the subscription is closed. Default false,
   * which suits stdio: when the connection closes the server process is gone and the
   * iteration throws `CONNECTION_CLOSED`.
   */
  reconnect?: boolean;
}

/** A listen request has no timeout of its own: the longest a timer can wait. */
const LONG_LIVED_TIMEOUT_MS = MAX_TIMER_MS;
const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;
/** A listen completed sooner than this after it was sent is sent again only after the backoff. */
const QUICK_COMPLETION_MS = 1_000;

/** Hands each notification to the subscriptions it belongs to. */
export class SubscriptionRouter {
  readonly #byId = new Map<RequestId, SubscriptionStream>();
  readonly #legacy = new Map<SubscriptionStream, SubscriptionFilter>();
  /** Reference counts of legacy `resources/subscribe` per connection. */
  readonly legacyResources = new LegacyResourceSubscriptions();

  /**
   * Routes one notification: modern ones by their `subscriptionId` (the acknowledgment
   * settles `acknowledged`), legacy ones to every legacy subscription whose filter they pass.
   */
  deliver(notification: JsonRpcNotification): void {
    const id = subscriptionIdOf(notification);
    if (id === undefined) {
      for (const [stream, filter] of this.#legacy)
        if (passesFilter(notification, filter)) stream.push(notification);
      return;
    }
    const stream = this.#byId.get(id);
    if (notification.method !== 'notifications/subscriptions/acknowledged') stream?.push(notification);
    else stream?.acknowledge((notification.params?.notifications ?? {}) as SubscriptionFilter);
  }

  /** Routes notifications tagged `id` to `stream` until the returned function is called. */
  route(id: RequestId, stream: SubscriptionStream): () => void {
    this.#byId.set(id, stream);
    return () => this.#byId.delete(id);
  }

  /** Routes untagged notifications passing `filter` to `stream` until the returned function is called. */
  routeLegacy(stream: SubscriptionStream, filter: SubscriptionFilter): () => void {
    this.#legacy.set(stream, filter);
    return () => this.#legacy.delete(stream);
  }
}

/**
 * Creates a subscription and starts its driver (see `Client.listen`). `connection()` is
 * the client's open connection, if any, read again on each (re)subscription.
 */
export function openSubscription(init: {
  filter: SubscriptionFilter;
  options: ListenOptions;
  router: SubscriptionRouter;
  connection(): Connection | undefined;
  /** The client's lists, compared across the gap between two listens. */
  lists?: ListsPort | undefined;
}): Subscription {
  const stream = new SubscriptionStream();
  const { signal, reconnect = false } = init.options;
  if (signal?.aborted) stream.close();
  else signal?.addEventListener('abort', () => stream.close(), { once: true });
  const { filter, router, connection, lists } = init;
  if (lists) recoverAfterGaps(stream, lists);
  void runSubscription({ stream, filter, router, connection, reconnect });
  return stream;
}

/** Compares the followed lists at each acknowledgment after the first (listen-recovery.ts). */
function recoverAfterGaps(stream: SubscriptionStream, lists: ListsPort): void {
  let acknowledgments = 0;
  stream.onAcknowledged = (filter) => {
    const again = acknowledgments++ > 0;
    void recoverLists(lists, filter, { again, deliver: (n) => stream.push(n) });
  };
}

/** What a subscription's driver needs from its client. */
export interface ListenContext {
  stream: SubscriptionStream;
  filter: SubscriptionFilter;
  router: SubscriptionRouter;
  /** The client's open connection, if any (a new one after a reconnect). */
  connection(): Connection | undefined;
  reconnect: boolean;
}

/**
 * Runs one subscription until it ends, listening again after the server's completion
 * result (at once, or after the backoff when the listen was short-lived), and after a
 * dropped connection when `reconnect` is set. After a completion, failing to listen again
 * because the server is gone or closing ends the subscription gracefully. Never rejects:
 * the outcome goes to the stream.
 */
async function runSubscription(ctx: ListenContext): Promise<void> {
  let delay = FIRST_RETRY_MS;
  let completed = false;
  while (!ctx.stream.ended) {
    const sent = Date.now();
    try {
      const connection = ctx.connection();
      if (!connection) throw new LocalError('CONNECTION_CLOSED', 'client is not connected');
      if (connection.server.era !== 'modern') {
        await listenLegacy(connection, ctx);
        return ctx.stream.finish();
      }
      if (!(await listenModern(connection, ctx))) return ctx.stream.finish();
      completed = true;
      if (Date.now() - sent >= QUICK_COMPLETION_MS) delay = FIRST_RETRY_MS;
      else delay = await backoff(delay, ctx.stream.closing);
    } catch (error) {
      if (ctx.stream.ended) return;
      if (completed && !ctx.reconnect && serverGone(error)) return ctx.stream.finish();
      if (!retryable(error, ctx.reconnect)) return ctx.stream.finish(error);
      delay = await backoff(delay, ctx.stream.closing);
    }
  }
}

/** Waits `delay` (or until `signal` aborts) and returns the next delay. */
async function backoff(delay: number, signal: AbortSignal): Promise<number> {
  await sleep(delay, signal).catch(() => undefined); // closing: the loop sees the stream end
  return Math.min(delay * 2, LAST_RETRY_MS);
}

/**
 * A modern listen request. Resolves on the server's completion result: true to listen
 * again (the listen honoured something and the client is not closing), else false.
 */
async function listenModern(connection: Connection, ctx: ListenContext): Promise<boolean> {
  const { stream, router } = ctx;
  let unroute: (() => void) | undefined;
  stream.lastAcknowledged = undefined;
  try {
    await connection.roundTrip('subscriptions/listen', { notifications: ctx.filter } satisfies Params, {
      signal: stream.closing,
      // Following tasks needs the Tasks extension declared on the request (SEP-2663).
      ...(ctx.filter.taskIds ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
      timeoutMs: LONG_LIVED_TIMEOUT_MS,
      resetTimeoutOnProgress: false,
      onRequestId: (id) => {
        unroute?.();
        unroute = router.route(id, stream);
      },
    });
  } catch (error) {
    throw dropped(error);
  } finally {
    unroute?.();
  }
  return !connection.isClosed && !stream.ended && honoursSomething(stream.lastAcknowledged);
}

/** Whether an acknowledged filter can carry anything (else listening again is pointless). */
function honoursSomething(filter: SubscriptionFilter | undefined): boolean {
  if (!filter) return false;
  return Object.values(filter).some((value) => value === true || (Array.isArray(value) && value.length > 0));
}

/** A failure to listen again that means the server is gone or closing (not a refusal). */
function serverGone(error: unknown): boolean {
  if (error instanceof LocalError) return error.code === 'CONNECTION_CLOSED';
  return error instanceof WireError && error.code === ERROR_TABLE.ServiceUnavailable.code;
}

/**
 * A listen stream the server closed without its completion result is an unexpected
 * disconnect, not an answer (2026-07-28 basic/patterns/subscriptions "Graceful Closure"):
 * reported as `CONNECTION_CLOSED`, which `reconnect` re-subscribes after.
 */
function dropped(error: unknown): unknown {
  const data =
    error instanceof WireError ? (error.data as { disconnected?: unknown } | undefined) : undefined;
  if (data?.disconnected !== true) return error;
  const message = `the server closed the subscription without a completion result (${(error as WireError).message})`;
  return new LocalError('CONNECTION_CLOSED', message, { cause: error });
}

/** A legacy listener, resolving when the subscription is closed; rejects when the connection closes. */
async function listenLegacy(connection: Connection, ctx: ListenContext): Promise<void> {
  const { stream, router } = ctx;
  const capabilities: ServerCapabilities = connection.server.serverCapabilities ?? {};
  const honoured = legacyFilter(ctx.filter, capabilities);
  const unroute = router.routeLegacy(stream, honoured);
  const resources = router.legacyResources;
  const subscribed: string[] = [];
  try {
    for (const uri of honoured.resourceSubscriptions ?? []) {
      await resources.subscribe(connection, uri);
      subscribed.push(uri);
    }
    stream.acknowledge(honoured);
    await firstAbort([connection.closedSignal, stream.closing]);
    if (!stream.ended) throw new LocalError('CONNECTION_CLOSED', 'Connection closed');
  } finally {
    unroute();
    for (const uri of subscribed) resources.unsubscribe(connection, uri);
  }
}

function retryable(error: unknown, reconnect: boolean): boolean {
  if (!(error instanceof LocalError)) return false;
  // TIMEOUT only after LONG_LIVED_TIMEOUT_MS (about 24 days): listen again at once.
  return error.code === 'TIMEOUT' || (reconnect && error.code === 'CONNECTION_CLOSED');
}

function subscriptionIdOf(notification: JsonRpcNotification): RequestId | undefined {
  const meta = notification.params?._meta as Params | undefined;
  const id = meta?.[META.subscriptionId];
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** Resolves once any of `signals` aborts, then stops listening to all of them. */
function firstAbort(signals: AbortSignal[]): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      for (const s of signals) s.removeEventListener('abort', done);
      resolve();
    };
    if (signals.some((s) => s.aborted)) return resolve();
    for (const s of signals) s.addEventListener('abort', done);
  });
}
