/**
 * A legacy SSE stream that outlives its HTTP connection: every event gets an id
 * (`<streamId>_<seq>`) and goes to the {@link EventStore}; a client that lost the
 * connection reconnects with `Last-Event-ID` and gets what it missed, then the rest.
 * Source: 2025-11-25 basic/transports "Sending Messages to the Server" item 6
 * (priming event), "Resumability and Redelivery".
 */
import type { JsonRpcMessage } from '../../../core/index.js';
import { setTimer } from '../../../core/runtime.js';
import type { EventStore, StoredEvent } from './event-store.js';
import type { StreamSink } from '../reply.js';
import { SseWriter } from '../sse.js';

/** Options of {@link ResumableStream}. */
export interface ResumableStreamOptions {
  store: EventStore;
  /** Milliseconds between keep-alive comments; 0 turns them off. */
  keepAliveMs: number;
  /** Most bytes queued for a client that does not read (default 4 MiB). */
  maxBufferedBytes?: number;
  /** Whether a new connection starts with a priming event (an id and empty data). */
  prime: boolean;
  /** The principal whose session this stream belongs to (bounds its share of the store). */
  owner?: string | undefined;
}

/** Splits an event id into its stream id and sequence number, if it is one of ours. */
export function parseEventId(eventId: string): { streamId: string; seq: number } | undefined {
  const at = eventId.lastIndexOf('_');
  const seq = Number(eventId.slice(at + 1));
  if (at <= 0 || !Number.isSafeInteger(seq) || seq < 0) return undefined;
  return { streamId: eventId.slice(0, at), seq };
}

/** One logical SSE stream of a legacy session (a POST's stream or the GET stream). */
export class ResumableStream implements StreamSink {
  readonly id: string;
  readonly #options: ResumableStreamOptions;
  #seq = 0;
  #writer: SseWriter | undefined;
  #pending: StoredEvent[] | undefined;
  #ended = false;

  constructor(id: string, options: ResumableStreamOptions) {
    this.id = id;
    this.#options = options;
  }

  /** True while a client connection is attached. */
  get connected(): boolean {
    return this.#writer !== undefined && !this.#writer.closed;
  }

  /** True once the stream has ended (its last event was sent). */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Attaches a new connection (replacing any other) and returns its body. With `untilMs`
   * (epoch milliseconds: when the access token that opened it expires), the connection is
   * dropped then, as {@link disconnect} does: the client reconnects, presenting its current
   * token, and an expired one gets the endpoint's 401.
   */
  connect(untilMs?: number): ReadableStream<Uint8Array> {
    const writer = this.#attach(untilMs);
    if (this.#options.prime) writer.send({ id: `${this.id}_${this.#seq}`, data: '' });
    if (this.#ended) writer.close();
    return writer.body;
  }

  /** Attaches a connection that first receives the events after `afterSeq` (`untilMs`: as {@link connect}). */
  async resume(afterSeq: number, untilMs?: number): Promise<ReadableStream<Uint8Array>> {
    const writer = this.#attach(untilMs);
    const pending: StoredEvent[] = [];
    this.#pending = pending;
    const stored = await this.#options.store.since(this.id, afterSeq);
    let last = afterSeq;
    for (const event of [...stored, ...pending]) {
      if (event.seq <= last) continue;
      last = event.seq;
      writer.send({ id: event.id, data: JSON.stringify(event.message) });
    }
    if (this.#pending === pending) this.#pending = undefined;
    this.#seq = Math.max(this.#seq, last);
    if (this.#ended) writer.close();
    return writer.body;
  }

  /**
   * Continues the numbering after what the store already holds for this stream (another
   * instance of a fleet wrote it before this one took the stream over).
   */
  async catchUp(): Promise<void> {
    const stored = await this.#options.store.since(this.id, this.#seq);
    this.#seq = Math.max(this.#seq, stored.at(-1)?.seq ?? 0);
  }

  /** Sends a message: stored, and written to the connection if one is attached. */
  send(message: JsonRpcMessage): void {
    if (this.#ended) return;
    const event: StoredEvent = { id: `${this.id}_${++this.#seq}`, seq: this.#seq, message };
    void Promise.resolve(this.#options.store.append(this.id, event, this.#options.owner)).catch(
      () => undefined,
    );
    if (this.#pending) this.#pending.push(event);
    else this.#writer?.send({ id: event.id, data: JSON.stringify(message) });
  }

  /** Ends the stream: closes the connection once what was sent is written. */
  end(): void {
    this.#ended = true;
    if (!this.#pending) this.#writer?.close();
  }

  /** Drops the connection without ending the stream (the client may resume). */
  disconnect(): void {
    this.#writer?.close();
    this.#writer = undefined;
  }

  #attach(untilMs: number | undefined): SseWriter {
    this.#writer?.close();
    let expiry: ReturnType<typeof setTimeout> | undefined;
    const writer: SseWriter = new SseWriter({
      keepAliveMs: this.#options.keepAliveMs,
      ...(this.#options.maxBufferedBytes === undefined
        ? {}
        : { maxBufferedBytes: this.#options.maxBufferedBytes }),
      onCancel: () => {
        clearTimeout(expiry);
        if (this.#writer === writer) this.#writer = undefined;
      },
    });
    this.#writer = writer;
    if (untilMs !== undefined) {
      expiry = setTimer(() => {
        if (this.#writer === writer) this.disconnect();
        else writer.close();
      }, untilMs - Date.now());
      expiry?.unref?.();
    }
    return writer;
  }
}

/** How many ended POST streams a session keeps for resumption. */
const KEPT_STREAMS = 100;

/** What the streams of one session are made with. */
export interface SessionStreamsOptions extends Omit<ResumableStreamOptions, 'prime'> {
  /** Whether new connections start with a priming event (2025-11-25 and later; read per stream). */
  prime: () => boolean;
  /** Prefix of new stream ids (a fleet's: the session id, so any instance can tell whose a stream is). */
  idPrefix: string;
  /** The GET stream's id, when a fleet's stored session names one. */
  standaloneId?: string | undefined;
}

/**
 * The SSE streams of one legacy session by id: the GET stream, POST streams, and up to
 * {@link KEPT_STREAMS} ended ones kept for `Last-Event-ID`. Everything is made on first use.
 */
export class SessionStreams {
  readonly #options: SessionStreamsOptions;
  #standalone: ResumableStream | undefined;
  #streams: Map<string, ResumableStream> | undefined;

  constructor(options: SessionStreamsOptions) {
    this.#options = options;
  }

  /** The stream a GET opens: messages not related to any request. */
  get standalone(): ResumableStream {
    return (this.#standalone ??= this.open(this.#options.standaloneId));
  }

  /** True while a client connection is attached to one of the streams. */
  get connected(): boolean {
    if (this.#streams) for (const stream of this.#streams.values()) if (stream.connected) return true;
    return false;
  }

  /** A stream by id (for `Last-Event-ID`). */
  get(streamId: string): ResumableStream | undefined {
    return streamId === this.#options.standaloneId ? this.standalone : this.#streams?.get(streamId);
  }

  /** A new stream (`id`: an id the fleet already knows); the oldest ended one beyond the bound is forgotten. */
  open(id?: string): ResumableStream {
    const o = this.#options;
    const stream = new ResumableStream(id ?? `${o.idPrefix}${crypto.randomUUID().toLowerCase()}`, {
      store: o.store,
      keepAliveMs: o.keepAliveMs,
      ...(o.maxBufferedBytes === undefined ? {} : { maxBufferedBytes: o.maxBufferedBytes }),
      prime: o.prime(),
      owner: o.owner,
    });
    const streams = (this.#streams ??= new Map());
    streams.set(stream.id, stream);
    if (streams.size > KEPT_STREAMS) this.#forgetOldestEnded(streams);
    return stream;
  }

  /** Ends every stream's connection (their stored events stay). */
  endAll(): void {
    if (this.#streams) for (const stream of this.#streams.values()) stream.end();
  }

  /** Drops every stream's stored events, the fleet's GET stream's too where it was never opened. */
  forgetAll(): void {
    const standaloneId = this.#options.standaloneId;
    if (!this.#standalone && standaloneId !== undefined) this.#forget(standaloneId);
    if (!this.#streams) return;
    for (const id of this.#streams.keys()) this.#forget(id);
    this.#streams.clear();
  }

  /** Drops a stream's stored events (a failing store is not the client's concern). */
  #forget(id: string): void {
    void Promise.resolve(this.#options.store.deleteStream(id)).catch(() => undefined);
  }

  #forgetOldestEnded(streams: Map<string, ResumableStream>): void {
    for (const stream of streams.values()) {
      if (!stream.ended || stream === this.#standalone) continue;
      streams.delete(stream.id);
      return this.#forget(stream.id);
    }
  }
}
