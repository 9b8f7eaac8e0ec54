/**
 * Resource subscriptions through the gateway. The gateway's server counts its clients'
 * subscriptions (legacy `resources/subscribe`, modern `resourceSubscriptions` in listen)
 * and calls these hooks on the edges: the first subscriber of a gateway URI opens one
 * subscription on the backend that owns it (`client.listen`, which is `resources/subscribe`
 * on a legacy backend and `subscriptions/listen` on a modern one); the last one leaving
 * closes it (legacy: `resources/unsubscribe`). The backend's
 * `notifications/resources/updated` becomes the gateway's own for its URI (prefixed where
 * servers collide), which reaches exactly the gateway clients subscribed to it. When a
 * backend is ready again after a reconnect, its subscriptions are opened anew.
 * Source: 2025-11-25 server/resources "Subscriptions"; 2026-07-28 basic/patterns/subscriptions.
 */
import { LocalError } from '../../core/index.js';
import type { Subscription } from '../../client/index.js';
import type { ResourceSubscriptionHooks } from '../../server/index.js';
import type { Host } from '../host.js';
import { setTimer } from '../../core/runtime.js';

/** How long a backend may take to confirm a subscription before the gateway refuses it. */
const ACK_TIMEOUT_MS = 30_000;

interface Backend {
  readonly server: string;
  readonly uri: string;
  subscription: Subscription | undefined;
}

/** The backend subscriptions behind a gateway's clients' subscriptions. */
export class GatewaySubscriptions implements ResourceSubscriptionHooks {
  readonly #host: Host;
  readonly #max: number;
  readonly #notify: (uri: string) => void;
  /** By gateway URI. */
  readonly #open = new Map<string, Backend>();

  /**
   * `notify` announces an update of a gateway URI; `max` bounds the backend subscriptions
   * open at once (a further first subscriber is refused).
   */
  constructor(init: { host: Host; notify: (uri: string) => void; max: number }) {
    this.#host = init.host;
    this.#notify = init.notify;
    this.#max = init.max;
  }

  /**
   * The first gateway client subscribed to `uri`: subscribe on its backend. Refused when
   * no server offers the URI, the bound is reached, or the ready backend does not honour it;
   * accepted when the backend is not ready now (subscribed once it is).
   */
  async subscribe(uri: string): Promise<boolean> {
    const route = this.#host.route(uri);
    if (!route || this.#open.size >= this.#max) return false;
    const backend: Backend = { server: route.server, uri: route.uri, subscription: undefined };
    this.#open.set(uri, backend);
    const honoured = await this.#listen(uri, backend);
    if (this.#open.get(uri) !== backend) {
      // Superseded: the server gave up waiting for this call (limits.subscriptionHookTimeoutMs)
      // and a later subscriber's call, or unsubscribe, took the URI over. Nothing is left open.
      backend.subscription?.close();
      return false;
    }
    if (!honoured) this.#open.delete(uri);
    return honoured;
  }

  /** The last gateway client left `uri`: close its backend subscription. */
  unsubscribe(uri: string): void {
    const backend = this.#open.get(uri);
    this.#open.delete(uri);
    backend?.subscription?.close();
  }

  /** A server became ready (again): open its subscriptions on the new connection. */
  resubscribe(server: string): void {
    for (const [uri, backend] of this.#open)
      if (backend.server === server) {
        backend.subscription?.close();
        void this.#listen(uri, backend);
      }
  }

  /** Closes every backend subscription. */
  close(): void {
    for (const backend of this.#open.values()) backend.subscription?.close();
    this.#open.clear();
  }

  /** Subscribes on the backend; true when it honours the URI (or is not ready yet). */
  async #listen(uri: string, backend: Backend): Promise<boolean> {
    const client = this.#host.clientOf(backend.server);
    if (!client) return true;
    // A stream that drops while the server stays up is opened again on the same connection.
    const subscription = client.listen({ resourceSubscriptions: [backend.uri] }, { reconnect: true });
    backend.subscription = subscription;
    const acknowledged = await within(subscription.acknowledged, ACK_TIMEOUT_MS).catch(() => undefined);
    if (!acknowledged?.resourceSubscriptions?.includes(backend.uri)) {
      subscription.close();
      return false;
    }
    void this.#pump(uri, backend, subscription);
    return true;
  }

  async #pump(uri: string, backend: Backend, subscription: Subscription): Promise<void> {
    try {
      for await (const n of subscription)
        if (n.method === 'notifications/resources/updated' && n.params?.uri === backend.uri)
          this.#notify(uri);
    } catch {
      // Closed by us; a new connection is subscribed by `resubscribe` once the server is ready.
    }
  }
}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimer(
      () => reject(new LocalError('TIMEOUT', `no acknowledgment within ${ms} ms (the gateway's fixed wait)`)),
      ms,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
