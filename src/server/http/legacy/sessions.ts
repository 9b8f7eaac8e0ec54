/**
 * The live legacy sessions of one handler, by `Mcp-Session-Id`, with idle expiry done
 * lazily on access (no timers, so nothing keeps a process alive).
 * Source: 2025-11-25 basic/transports "Session Management" (a terminated session's id
 * gets 404).
 */
import type { EventBus } from '../../../core/index.js';
import type { HttpSession } from './session.js';

/** Bounds of a {@link SessionTable}. */
export interface SessionTableOptions {
  /** A session idle this long (no request, no open stream) ends, in milliseconds. */
  idleMs: number;
  /** Most sessions at once (default unlimited). */
  maxSessions?: number;
  /** Most sessions one principal holds at once (default unlimited; '' principals are not counted). */
  maxPerPrincipal?: number;
  /** The server's events, forwarded to every session held (one subscription for all of them). */
  events?: EventBus;
}

/**
 * Sessions by id; a session idle longer than `idleMs` and not in use is ended. The server's
 * events reach the sessions held here.
 */
export class SessionTable {
  readonly #sessions = new Map<string, HttpSession>();
  readonly #perPrincipal = new Map<string, number>();
  readonly #idleMs: number;
  readonly #maxSessions: number;
  readonly #maxPerPrincipal: number;
  #lastSweep = Date.now();
  readonly #unsubscribe: (() => void) | undefined;

  constructor(options: SessionTableOptions) {
    this.#unsubscribe = options.events?.subscribe((event) => {
      for (const session of this.#sessions.values()) session.hear(event);
    });
    this.#idleMs = options.idleMs;
    this.#maxSessions = options.maxSessions ?? Infinity;
    this.#maxPerPrincipal = options.maxPerPrincipal ?? Infinity;
  }

  /**
   * Which bound a new session of `principal` would break (after ending the idle ones):
   * `maxSessions`, `maxSessionsPerPrincipal`, or undefined when it may open.
   */
  refusal(principal = ''): 'maxSessions' | 'principals.maxSessions' | undefined {
    if (this.#sessions.size >= this.#maxSessions || this.#countOf(principal) >= this.#maxPerPrincipal) {
      this.#lastSweep = 0;
      this.#sweep();
    }
    if (this.#sessions.size >= this.#maxSessions) return 'maxSessions';
    if (this.#countOf(principal) >= this.#maxPerPrincipal) return 'principals.maxSessions';
    return undefined;
  }

  #countOf(principal: string): number {
    return principal === '' ? 0 : (this.#perPrincipal.get(principal) ?? 0);
  }

  /** Registers a session after a successful `initialize` (counted for its `principal`). */
  add(session: HttpSession): void {
    this.#sweep();
    this.#sessions.set(session.id, session);
    const principal = session.principal ?? '';
    if (principal !== '') this.#perPrincipal.set(principal, this.#countOf(principal) + 1);
  }

  /** The live session with this id, if any. */
  get(id: string): HttpSession | undefined {
    this.#sweep();
    return this.#sessions.get(id);
  }

  /** Ends and forgets a session; false when the id is unknown. */
  delete(id: string): boolean {
    const session = this.#forget(id);
    session?.end();
    return session !== undefined;
  }

  /** Forgets a session here without ending it for a fleet (see `HttpSession.release`). */
  release(id: string): void {
    this.#forget(id)?.release();
  }

  #forget(id: string): HttpSession | undefined {
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    this.#sessions.delete(id);
    const principal = session.principal ?? '';
    if (principal !== '') {
      const left = this.#countOf(principal) - 1;
      if (left > 0) this.#perPrincipal.set(principal, left);
      else this.#perPrincipal.delete(principal);
    }
    return session;
  }

  /** The sessions held here (a fleet refreshes the TTL of those with an open stream). */
  values(): IterableIterator<HttpSession> {
    return this.#sessions.values();
  }

  /** Lets go of every session and stops forwarding events (the handler is shutting down). */
  clear(): void {
    this.#unsubscribe?.();
    for (const id of [...this.#sessions.keys()]) this.release(id);
  }

  #sweep(): void {
    const now = Date.now();
    if (now - this.#lastSweep < Math.min(this.#idleMs / 4, 60_000)) return;
    this.#lastSweep = now;
    for (const [id, session] of this.#sessions) {
      if (!session.busy && now - session.lastActive > this.#idleMs) this.release(id);
    }
  }
}
