/**
 * An in-memory pair of linked transports for tests: what one end sends, the other
 * receives as a frame of JSON text (so no objects are shared), asynchronously and in order.
 * Source: 2026-07-28 basic/transports "Custom transports".
 */
import type { JsonRpcMessage, Transport, TransportSink } from '../core/index.js';

/** An item waiting in an end's inbox: a frame of text, or the end of the channel. */
type Item = { frame: string } | { closed: true };

/** One end's receiving side: an inbox drained into the sink once it is started. */
class Inbox {
  #sink: TransportSink | undefined;
  #items: Item[] = [];
  #done = false;

  start(sink: TransportSink): void {
    this.#sink = sink;
    queueMicrotask(() => this.#drain());
  }

  /** Queues an item; it reaches the sink on a later microtask, after every earlier item. */
  put(item: Item): void {
    queueMicrotask(() => {
      this.#items.push(item);
      this.#drain();
    });
  }

  #drain(): void {
    const sink = this.#sink;
    if (!sink) return;
    const items = this.#items;
    this.#items = [];
    for (const item of items) {
      if (this.#done) return;
      if ('frame' in item) sink.frame(item.frame);
      else {
        this.#done = true;
        sink.closed();
      }
    }
  }
}

/**
 * Creates two linked transports `[a, b]`.
 *
 * - `a.send(m)` delivers `JSON.stringify(m)` to b's sink on a later microtask; order is kept,
 *   and frames sent before the receiving end is started wait for its `start()`.
 * - `close()` on either end closes both: each sink gets `closed()` (no error) once, after the
 *   frames already sent to it. Sends after close are dropped silently.
 */
export function createLinkedPair(): [Transport, Transport] {
  const inboxes = [new Inbox(), new Inbox()] as const;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    for (const inbox of inboxes) inbox.put({ closed: true });
  };
  const end = (own: Inbox, other: Inbox): Transport => ({
    start: (sink) => own.start(sink),
    send: (message: JsonRpcMessage | JsonRpcMessage[]) => {
      if (!closed) other.put({ frame: JSON.stringify(message) });
    },
    close,
  });
  return [end(inboxes[0], inboxes[1]), end(inboxes[1], inboxes[0])];
}
