/**
 * Storage of SSE events for resuming legacy streams after a disconnect.
 * Source: 2025-11-25 basic/transports "Resumability and Redelivery".
 */
import type { JsonRpcMessage } from '../../../core/index.js';

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
  /**
   * Records an event of `streamId`; events of one stream arrive in `seq` order. `owner` is
   * the principal whose session the stream belongs to ('' or absent when unidentified),
   * for stores that bound what one client may keep.
   */
  append(streamId: string, event: StoredEvent, owner?: string): void | Promise<void>;
  /** The events of `streamId` with `seq` greater than `afterSeq`, oldest first. */
  since(streamId: string, afterSeq: number): StoredEvent[] | Promise<StoredEvent[]>;
  /** Forgets a stream (its session ended). */
  deleteStream(streamId: string): void | Promise<void>;
}

/** Options of {@link createMemoryEventStore}. */
export interface MemoryEventStoreOptions {
  /** Most events kept across all streams; the oldest are dropped first (default 10 000). */
  maxEvents?: number;
  /**
   * Most events kept for one owner (principal) across its streams; beyond it that owner's
   * oldest are dropped, so one client cannot push out everyone else's (default 1 000).
   */
  maxEventsPerOwner?: number;
}

interface Kept {
  streamId: string;
  owner: string;
  event: StoredEvent;
  dropped: boolean;
}

/** An {@link EventStore} in this process's memory, bounded by `maxEvents` and `maxEventsPerOwner`. */
export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): EventStore {
  const maxEvents = options.maxEvents ?? 10_000;
  const maxPerOwner = options.maxEventsPerOwner ?? 1000;
  const streams = new Map<string, Kept[]>();
  const all = new KeptQueue();
  const owners = new Map<string, KeptQueue>();
  const forget = (kept: Kept): void => {
    kept.dropped = true;
    all.live--;
    const mine = owners.get(kept.owner);
    if (mine && --mine.live === 0) owners.delete(kept.owner);
  };
  const dropOldest = (queue: KeptQueue): void => {
    const kept = queue.shift();
    forget(kept);
    const events = streams.get(kept.streamId);
    if (events?.[0] === kept) events.shift();
    if (events?.length === 0) streams.delete(kept.streamId);
  };
  return {
    append(streamId, event, owner = '') {
      const kept: Kept = { streamId, owner, event, dropped: false };
      const events = streams.get(streamId) ?? [];
      if (events.length === 0) streams.set(streamId, events);
      events.push(kept);
      all.push(kept);
      if (owner !== '') {
        const mine = owners.get(owner) ?? new KeptQueue();
        owners.set(owner, mine);
        mine.push(kept);
        if (mine.live > maxPerOwner) dropOldest(mine);
      }
      while (all.live > maxEvents) dropOldest(all);
    },
    since: (streamId, afterSeq) =>
      (streams.get(streamId) ?? []).filter((k) => k.event.seq > afterSeq).map((k) => k.event),
    deleteStream(streamId) {
      for (const kept of streams.get(streamId) ?? []) forget(kept);
      streams.delete(streamId);
    },
  };
}

/** A FIFO of kept events that skips dropped ones; `live` counts those not dropped. */
class KeptQueue {
  live = 0;
  #items: Kept[] = [];
  #head = 0;

  push(kept: Kept): void {
    this.#items.push(kept);
    this.live++;
    // Entries dropped through another queue (or a deleted stream) are swept out in bulk.
    if (this.#items.length - this.#head > 2 * this.live + 1024) {
      this.#items = this.#items.slice(this.#head).filter((k) => !k.dropped);
      this.#head = 0;
    }
  }

  /** Removes and returns the oldest entry not dropped (there must be one). */
  shift(): Kept {
    while (this.#items[this.#head]!.dropped) this.#head++;
    const kept = this.#items[this.#head++]!;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return kept;
  }
}
