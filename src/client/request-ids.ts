/**
 * Learning the JSON-RPC id the core Peer gives an outgoing request. The Peer assigns ids
 * itself and sends the request synchronously inside `request()`, so a transport wrapper
 * that watches `send` during that call sees exactly that request. `subscriptions/listen`
 * needs it: the id is the subscription id its notifications carry.
 * Source: 2026-07-28 basic/patterns/subscriptions "Receiving Notifications".
 */
import type { RequestId } from '../core/jsonrpc.js';
import type { Transport } from '../core/transport.js';

/** Wraps one transport and reports the id of the request sent within {@link RequestIdTap.capture}. */
export class RequestIdTap {
  #watch: ((id: RequestId) => void) | undefined;

  /** Returns a transport that forwards everything to `transport`, watching what is sent. */
  wrap(transport: Transport): Transport {
    return {
      start: (sink) => transport.start(sink),
      close: () => transport.close(),
      send: (message) => {
        const watch = this.#watch;
        if (watch && !Array.isArray(message) && 'method' in message && 'id' in message) {
          this.#watch = undefined;
          watch(message.id);
        }
        transport.send(message);
      },
    };
  }

  /**
   * Calls `send` (which must start one Peer request) and reports that request's id to
   * `onId` before the request reaches the transport. Nothing is reported when the Peer
   * sends nothing (it was already closed).
   */
  capture<T>(send: () => T, onId: (id: RequestId) => void): T {
    this.#watch = onId;
    try {
      return send();
    } finally {
      this.#watch = undefined;
    }
  }
}
