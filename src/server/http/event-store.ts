/**
 * Storage of SSE events for resuming legacy streams after a disconnect.
 * Source: 2025-11-25 basic/transports "Resumability and Redelivery".
 */
import type { JsonRpcMessage } from '../../core/jsonrpc.js';

/** One event sent on a stream: `seq` counts from 1 within the stream; `id` is the SSE id. */
export interface StoredEvent {
  id: string;
  seq: number;
  message: JsonRpcMessage;
}

/**
 * Where a server keeps the events of its legacy SSE streams so a client can resume a
 * stream with `Last-Event-ID`. Implementations may be asynchronous (a shared store for
 * a fleet); the in-memory default is {@link createMemoryEventStore}.
 */
export interface EventStore {
  /** Records an event of `streamId`; events of one stream arrive in `seq` order. */
  append(streamId: string, event: StoredEvent): void | Promise<void>;
  /** The events of `streamId` with `seq` greater than `afterSeq`, oldest first. */
  since(streamId: string, afterSeq: number): StoredEvent[] | Promise<StoredEvent[]>;
  /** Forgets a stream (its session ended). */
  deleteStream(streamId: string): void | Promise<void>;
}

/** Options of {@link createMemoryEventStore}. */
export interface MemoryEventStoreOptions {
  /** Most events kept across all streams; the oldest are dropped first (default 10 000). */
  maxEvents?: number;
}

/** An {@link EventStore} in this process's memory, bounded by `maxEvents`. */
export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): EventStore {
  const maxEvents = options.maxEvents ?? 10_000;
  const streams = new Map<string, StoredEvent[]>();
  let order: string[] = [];
  const evict = (): void => {
    while (order.length > maxEvents) {
      const streamId = order.shift() ?? '';
      const events = streams.get(streamId);
      events?.shift();
      if (events?.length === 0) streams.delete(streamId);
    }
  };
  return {
    append(streamId, event) {
      const events = streams.get(streamId) ?? [];
      if (events.length === 0) streams.set(streamId, events);
      events.push(event);
      order.push(streamId);
      evict();
    },
    since: (streamId, afterSeq) => (streams.get(streamId) ?? []).filter((e) => e.seq > afterSeq),
    deleteStream(streamId) {
      if (streams.delete(streamId)) order = order.filter((id) => id !== streamId);
    },
  };
}
