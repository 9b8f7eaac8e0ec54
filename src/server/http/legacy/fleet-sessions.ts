/**
 * The legacy sessions of one instance of a fleet: each session lives in the
 * {@link SessionStore}; an instance that gets a request for a session it does not hold
 * yet makes a local replica of it (bounded by `maxSessions`), and every request reads the
 * stored state again, which also starts the session's TTL again.
 * Source: 2025-11-25 basic/transports "Session Management" (a session that ended or
 * expired gets 404 on every instance).
 */
import { LocalError } from '../../../core/index.js';
import type { McpServer } from '../../index.js';
import { recordOf, type SessionFleet } from './fleet-session.js';
import { HttpSession, type HttpSessionOptions } from './session.js';
import type { SessionRecord, SessionStore } from './session-store.js';
import type { SessionTable } from './sessions.js';

/** The fleet-wide sessions of one HTTP handler. */
export class FleetSessions {
  readonly fleet: SessionFleet;
  /** The handler's session settings with this fleet: what its sessions are opened with. */
  readonly settings: HttpSessionOptions;
  readonly #server: McpServer;
  readonly #table: SessionTable;
  readonly #adopting = new Map<string, Promise<HttpSession>>();
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(init: {
    store: SessionStore;
    server: McpServer;
    table: SessionTable;
    options: HttpSessionOptions;
  }) {
    this.#server = init.server;
    this.#table = init.table;
    const tag = crypto.randomUUID().slice(0, 8);
    this.fleet = { store: init.store, tag, ended: (id) => void this.#table.delete(id) };
    this.settings = { ...init.options, fleet: this.fleet };
    // An open GET stream is use too: keep such sessions alive while no POST comes.
    const every = Math.max(1000, Math.min(init.store.ttlMs / 3, 60_000));
    this.#timer = setInterval(() => this.#refreshOpen(), every);
    this.#timer.unref?.();
  }

  /**
   * The session `id` for this request: the stored state, in a local replica (made on first
   * use); undefined when the store does not know it (never opened, ended, or expired).
   * @throws LocalError `LIMIT_EXCEEDED` when a new replica would exceed `maxSessions`; what the store
   *   throws when it cannot be reached.
   */
  async find(id: string): Promise<HttpSession | undefined> {
    const record = await this.fleet.store.load(id);
    const local = this.#table.get(id);
    if (!record) {
      if (local) this.#table.delete(id);
      return undefined;
    }
    if (!local) return this.#adopt(record);
    local.apply(record);
    return local;
  }

  /** Stores a session that `initialize` just opened here and starts serving it. */
  async open(session: HttpSession): Promise<void> {
    await this.fleet.store.create(recordOf(session));
    await session.replica?.join();
    this.#table.add(session);
  }

  /** Ends a session everywhere (DELETE). */
  async end(session: HttpSession): Promise<void> {
    await this.fleet.store.delete(session.id);
    this.#table.delete(session.id);
  }

  /** Stops refreshing (the handler closes). */
  close(): void {
    clearInterval(this.#timer);
  }

  #adopt(record: SessionRecord): Promise<HttpSession> {
    const pending = this.#adopting.get(record.id) ?? this.#replica(record);
    this.#adopting.set(record.id, pending);
    const forget = (): void => void this.#adopting.delete(record.id);
    pending.then(forget, forget);
    return pending;
  }

  async #replica(record: SessionRecord): Promise<HttpSession> {
    if (this.#table.refusal() === 'maxSessions')
      throw new LocalError('LIMIT_EXCEEDED', 'too many open sessions on this instance');
    const init = {
      protocolVersion: record.protocolVersion,
      clientInfo: record.clientInfo,
      clientCapabilities: record.clientCapabilities,
    };
    const session = new HttpSession(this.#server, init, { settings: this.settings, record });
    try {
      await session.replica?.join();
    } catch (error) {
      session.release();
      throw error;
    }
    this.#table.add(session);
    return session;
  }

  #refreshOpen(): void {
    for (const session of this.#table.values())
      if (session.busy) void this.fleet.store.load(session.id).catch(() => undefined);
  }
}
