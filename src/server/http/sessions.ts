/**
 * The live legacy sessions of one handler, by `Mcp-Session-Id`, with idle expiry done
 * lazily on access (no timers, so nothing keeps a process alive).
 * Source: 2025-11-25 basic/transports "Session Management" (a terminated session's id
 * gets 404).
 */
import type { HttpSession } from './session.js';

/** Sessions by id; a session idle longer than `idleMs` and not in use is ended. */
export class SessionTable {
  readonly #sessions = new Map<string, HttpSession>();
  readonly #idleMs: number;
  readonly #maxSessions: number;
  #lastSweep = Date.now();

  constructor(idleMs: number, maxSessions = Infinity) {
    this.#idleMs = idleMs;
    this.#maxSessions = maxSessions;
  }

  /** True when no further session may open (after ending the idle ones). */
  get full(): boolean {
    if (this.#sessions.size < this.#maxSessions) return false;
    this.#lastSweep = 0;
    this.#sweep();
    return this.#sessions.size >= this.#maxSessions;
  }

  /** Registers a session after a successful `initialize`. */
  add(session: HttpSession): void {
    this.#sweep();
    this.#sessions.set(session.id, session);
  }

  /** The live session with this id, if any. */
  get(id: string): HttpSession | undefined {
    this.#sweep();
    return this.#sessions.get(id);
  }

  /** Ends and forgets a session; false when the id is unknown. */
  delete(id: string): boolean {
    const session = this.#sessions.get(id);
    if (!session) return false;
    this.#sessions.delete(id);
    session.end();
    return true;
  }

  /** Forgets a session here without ending it for a fleet (see `HttpSession.release`). */
  release(id: string): void {
    const session = this.#sessions.get(id);
    this.#sessions.delete(id);
    session?.release();
  }

  /** The sessions held here (a fleet refreshes the TTL of those with an open stream). */
  values(): IterableIterator<HttpSession> {
    return this.#sessions.values();
  }

  /** Lets go of every session (the handler is shutting down). */
  clear(): void {
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
