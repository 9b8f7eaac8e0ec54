/** The host's events and a small typed listener list. */
import type { JsonRpcNotification, RequestId } from '../core/index.js';
import type { ServerStatus } from './link.js';
import type { ListKind } from './lists.js';

/** What the host emits. */
export interface HostEvents {
  /** A server's status changed. */
  status: ServerStatus;
  /** The merged registry changed because `server`'s lists of `kinds` changed (or it came or went). */
  change: { server: string; kinds: ListKind[] };
  /**
   * Any notification a server sent (progress included), with the server's name and, when
   * the transport tells (Streamable HTTP), the id of the host's request whose stream carried it.
   */
  notification: { server: string; notification: JsonRpcNotification; relatedRequestId?: RequestId };
  /** Advice about a server worth logging, e.g. that it needs pinning to the legacy era. */
  warning: { server: string; message: string };
}

/** Listeners per event; a throwing listener does not stop the others. */
export class Listeners<E> {
  readonly #map = new Map<keyof E, Set<(payload: never) => void>>();

  on<K extends keyof E>(event: K, listener: (payload: E[K]) => void): () => void {
    let set = this.#map.get(event);
    if (!set) this.#map.set(event, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  emit<K extends keyof E>(event: K, payload: E[K]): void {
    for (const listener of this.#map.get(event) ?? []) {
      try {
        (listener as (payload: E[K]) => void)(payload);
      } catch {
        // A listener's failure is its own.
      }
    }
  }
}
