/**
 * The legacy (2025-03-26 … 2025-11-25) side of a Streamable HTTP connection: the session id
 * and negotiated version sent on every request after `initialize`, the standalone GET
 * stream for server-initiated messages, resuming a broken stream with `Last-Event-ID`
 * after the server's `retry` interval, and the DELETE that ends the session.
 * Source: 2025-11-25 basic/transports "Session Management", "Listening for Messages from
 * the Server", "Resumability and Redelivery", "Protocol Version Header".
 */
import { mediaTypeOf } from '../frames.js';
import { newCursor, readSse, type SseCursor } from '../sse.js';
import { sleep, withDeadline } from '../../../core/runtime.js';

/** One request in flight, as the transport tracks it. */
export interface Exchange {
  readonly id: string | number;
  readonly method: string;
  /** True when the request carries modern `_meta`. */
  readonly modern: boolean;
  readonly controller: AbortController;
  /** Set once the response for `id` has been delivered. */
  answered: boolean;
}

/** What a session needs from its transport. */
export interface SessionHost {
  /** The MCP endpoint, for errors. */
  readonly url: URL;
  /** Sends a bodiless request to the endpoint (the caller's own headers are added). */
  fetch(method: 'GET' | 'DELETE', headers: Headers, signal: AbortSignal): Promise<Response>;
  /** Hands one frame to the client; `exchange` is the request the stream belongs to. */
  deliver(text: string, exchange?: Exchange): void;
  warn(message: string): void;
  /** Told when a GET with the session id is answered 404: the server lost the session. */
  lost?(): void;
  /** Wait when the server gave no `retry` (ms), and most reconnects in a row without progress. */
  readonly reconnect: { readonly delayMs: number; readonly maxAttempts: number };
}

/** A GET stream being followed: where it is, what stops it, what it answers, who waits for its first answer. */
interface FollowedStream {
  cursor: SseCursor;
  signal: AbortSignal;
  /** The request whose stream is resumed; undefined for the standalone GET stream. */
  exchange: Exchange | undefined;
  /** Called once the server answered (or refused) each GET. */
  connected: () => void;
}

type Outcome = 'stop' | 'again';

/** Longest wait, in milliseconds, for the server to answer the DELETE that ends a session. */
const DELETE_TIMEOUT_MS = 5000;

function discard(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}

/** The session state of one legacy connection. */
export class LegacySession {
  readonly #host: SessionHost;
  #id: string | undefined;
  #version: string | undefined;
  #stream: AbortController | undefined;

  constructor(host: SessionHost) {
    this.#host = host;
  }

  /** The negotiated version once `initialize` succeeded; undefined before. */
  get version(): string | undefined {
    return this.#version;
  }

  /** Remembers the version the server answered `initialize` with. */
  set version(version: string | undefined) {
    this.#version = version;
  }

  /** True when the server assigned a session id. */
  get hasId(): boolean {
    return this.#id !== undefined;
  }

  /** Adds `Mcp-Session-Id` and `MCP-Protocol-Version` once known. */
  apply(headers: Headers): void {
    if (this.#id !== undefined) headers.set('Mcp-Session-Id', this.#id);
    if (this.#version !== undefined) headers.set('MCP-Protocol-Version', this.#version);
  }

  /** Takes the session id from the response to `initialize`, if the server assigned one. */
  adopt(response: Response): void {
    const id = response.headers.get('mcp-session-id');
    if (id !== null && id !== '') this.#id = id;
  }

  /** Forgets the session (a new `initialize`, or the server ended it); closes the GET stream. */
  reset(): void {
    this.#stream?.abort();
    this.#stream = undefined;
    this.#id = undefined;
    this.#version = undefined;
  }

  /**
   * Opens the standalone GET stream (once); a 405 means the server offers none. Resolves
   * when the server has answered the first GET (or refused it), so requests sent after
   * that cannot overtake it.
   */
  openStream(): Promise<void> {
    if (this.#stream) return Promise.resolve();
    const controller = new AbortController();
    this.#stream = controller;
    return new Promise((answered) => {
      const stream = {
        cursor: newCursor(),
        signal: controller.signal,
        exchange: undefined,
        connected: answered,
      };
      void this.#follow(stream, false).then((gaveUp) => {
        answered();
        if (gaveUp) this.#host.warn('the GET stream could not be reconnected; giving up on it');
      });
    });
  }

  /**
   * Resumes the stream of `exchange` after it broke: waits the `retry` interval, GETs with
   * `Last-Event-ID`, and keeps reading (and reconnecting) until the response arrives, the
   * request is aborted, or the server refuses. The caller checks `exchange.answered`.
   */
  async resume(exchange: Exchange, cursor: SseCursor): Promise<void> {
    const stream = { cursor, signal: exchange.controller.signal, exchange, connected: () => undefined };
    await this.#follow(stream, true);
  }

  /** Closes the GET stream and ends the session with DELETE (a 405 answer is fine). */
  async terminate(): Promise<void> {
    const hadId = this.#id !== undefined;
    const headers = new Headers();
    this.apply(headers);
    this.reset();
    if (!hadId) return;
    try {
      const ms = DELETE_TIMEOUT_MS;
      await withDeadline({ url: this.#host.url, ms }, async (signal) =>
        discard(await this.#host.fetch('DELETE', headers, signal)),
      );
    } catch {
      // The server may be gone already; the session ends with it.
    }
  }

  /** Returns true when it gave up after `maxAttempts` reconnects without progress. */
  async #follow(stream: FollowedStream, waitFirst: boolean): Promise<boolean> {
    const { cursor, signal, exchange } = stream;
    const done = (): boolean => signal.aborted || (exchange?.answered ?? false);
    let failures = 0;
    for (let wait = waitFirst; !done(); wait = true) {
      if (wait) await sleep(cursor.retryMs ?? this.#host.reconnect.delayMs, signal).catch(() => undefined);
      if (done()) break;
      const before = cursor.lastEventId;
      const outcome = await this.#connect(stream, done);
      if (outcome === 'stop') break;
      failures = cursor.lastEventId !== before ? 0 : failures + 1;
      if (failures >= this.#host.reconnect.maxAttempts) return true;
    }
    return false;
  }

  async #connect(stream: FollowedStream, done: () => boolean): Promise<Outcome> {
    const { cursor, signal, exchange, connected } = stream;
    const headers = new Headers({ Accept: 'text/event-stream' });
    this.apply(headers);
    if (cursor.lastEventId !== undefined) headers.set('Last-Event-ID', cursor.lastEventId);
    let response: Response;
    try {
      response = await this.#host.fetch('GET', headers, signal);
    } catch {
      connected();
      return signal.aborted ? 'stop' : 'again';
    }
    connected();
    if (!response.ok || mediaTypeOf(response) !== 'text/event-stream' || !response.body) {
      discard(response);
      // 404 with a session id: the session is gone, a new one replaces this stream.
      if (response.status === 404 && this.#id !== undefined) this.#host.lost?.();
      // 405: no GET stream here. Other refusals are not retried, except server errors.
      else if (response.status !== 405) this.#host.warn(`GET stream refused: HTTP ${response.status}`);
      return response.status >= 500 ? 'again' : 'stop';
    }
    try {
      await readSse(response.body, cursor, {
        onData: (data) => this.#host.deliver(data, exchange),
        stop: done,
      });
    } catch {
      if (signal.aborted) return 'stop';
    }
    return 'again';
  }
}
