/**
 * One instance's replica of a legacy session shared by a fleet through a
 * {@link SessionStore}: it keeps the local copy of the session's state up to date, sends
 * what belongs on the GET stream to the instance holding it, hands the client's answers to
 * server-initiated requests to the instance that asked, and cancellations to the instance
 * running the request.
 * Source: 2025-11-25 basic/transports "Listening for Messages from the Server" (the GET
 * stream), "Sending Messages to the Server" (responses POSTed by the client),
 * basic/utilities/cancellation.
 */
import type { JsonRpcMessage, JsonRpcResponse, Params } from '../../../core/index.js';
import { isRequestId } from '../../../core/runtime.js';
import type { LegacySession } from '../../index.js';
import { SubscribedUris } from '../../runtime.js';
import type { SessionChange, SessionMessage, SessionRecord, SessionStore } from './session-store.js';

/** What a session replica needs from the fleet it belongs to. */
export interface SessionFleet {
  store: SessionStore;
  /** This instance's tag: the prefix of its server-initiated request ids, the author of takeovers. */
  tag: string;
  /** Drops the local replica of a session that ended on another instance. */
  ended(sessionId: string): void;
}

/** The parts of a local session the replica works on. */
export interface ReplicaHost {
  readonly id: string;
  readonly legacy: LegacySession;
  /** Writes to the local GET stream (stored for `Last-Event-ID` either way). */
  sendStandalone(message: JsonRpcMessage): void;
  /** Drops the local GET connection (another instance took the stream over). */
  dropStandalone(): void;
  /** Hands a response to the local peer (an answer to this instance's request). */
  frame(message: JsonRpcResponse): void;
  /** Cancels a request running here, if it does. */
  abort(requestId: string | number, reason: unknown): void;
  /** Sets the session's resource subscriptions (`McpServer.syncSessionSubscriptions`). */
  syncSubscriptions(uris: Iterable<string>): void;
}

/** A session as a fleet stores it. */
export function recordOf(session: {
  id: string;
  owner: string;
  legacy: LegacySession;
  streams: { standalone: { id: string } };
}): SessionRecord {
  const legacy = session.legacy;
  return {
    id: session.id,
    owner: session.owner,
    protocolVersion: legacy.protocolVersion,
    clientInfo: legacy.clientInfo,
    clientCapabilities: legacy.clientCapabilities,
    logLevel: legacy.logLevel,
    initialized: legacy.initialized,
    subscriptions: [...legacy.subscriptions.values()],
    standaloneStreamId: session.streams.standalone.id,
  };
}

/** Sets a session's state to what the fleet stored. */
export function applyRecord(
  host: Pick<ReplicaHost, 'legacy' | 'syncSubscriptions'>,
  record: SessionRecord,
): void {
  host.legacy.logLevel = record.logLevel;
  host.legacy.initialized = record.initialized;
  host.syncSubscriptions(record.subscriptions);
}

function applyChange(host: ReplicaHost, change: SessionChange): void {
  const legacy = host.legacy;
  if ('logLevel' in change) legacy.logLevel = change.logLevel;
  else if ('initialized' in change) legacy.initialized = true;
  else if ('subscribe' in change)
    host.syncSubscriptions([...legacy.subscriptions.values(), change.subscribe]);
  else {
    const next = new SubscribedUris(legacy.subscriptions.values());
    next.delete(change.unsubscribe);
    host.syncSubscriptions(next.values());
  }
}

/** The change a successful session method made, to store for the other instances. */
function changeOf(
  method: string,
  params: Params | undefined,
  legacy: LegacySession,
): SessionChange | undefined {
  const uri = typeof params?.uri === 'string' ? params.uri : undefined;
  if (method === 'logging/setLevel') return { logLevel: legacy.logLevel };
  if (method === 'resources/subscribe' && uri !== undefined) return { subscribe: uri };
  if (method === 'resources/unsubscribe' && uri !== undefined) return { unsubscribe: uri };
  return undefined;
}

/** The fleet side of one local session. */
export class FleetReplica {
  /** True while this instance holds the session's GET stream. */
  holdsStandalone = false;
  readonly #host: ReplicaHost;
  readonly #fleet: SessionFleet;
  #leave: (() => void) | undefined;
  #left = false;

  constructor(host: ReplicaHost, fleet: SessionFleet) {
    this.#host = host;
    this.#fleet = fleet;
  }

  /** Starts hearing the session's messages; resolves once subscribed. */
  async join(): Promise<void> {
    const leave = await this.#fleet.store.subscribe(this.#host.id, (m) => this.#onMessage(m));
    if (this.#left) leave();
    else this.#leave = leave;
  }

  /** Stops hearing them (the replica is dropped or the session ended). */
  leave(): void {
    this.#left = true;
    this.#leave?.();
  }

  /** Sends a message meant for the GET stream: here if held here, else to the fleet. */
  send(message: JsonRpcMessage): void {
    if (this.holdsStandalone) this.#host.sendStandalone(message);
    else void this.#fleet.store.publish(this.#host.id, { type: 'send', message }).catch(() => undefined);
  }

  /** Takes the GET stream over: the instance that held it lets go. */
  async takeStandalone(): Promise<void> {
    this.holdsStandalone = true;
    await this.#fleet.store.publish(this.#host.id, { type: 'takeover', by: this.#fleet.tag });
  }

  /** True when `message` answers a request of this instance (else it goes to the fleet). */
  isOwnResponse(message: JsonRpcResponse): boolean {
    return typeof message.id === 'string' && message.id.startsWith(`${this.#fleet.tag}.`);
  }

  /** Passes the client's answer to another instance's request on. */
  forwardResponse(message: JsonRpcResponse): Promise<void> {
    return this.#fleet.store.publish(this.#host.id, { type: 'response', message });
  }

  /** Passes a cancellation of a request not running here on. */
  forwardCancel(requestId: string | number, reason: unknown): Promise<void> {
    const message: SessionMessage = { type: 'cancelled', requestId };
    if (typeof reason === 'string') message.reason = reason;
    return this.#fleet.store.publish(this.#host.id, message);
  }

  /** Stores what a successful request changed (log level, subscriptions). */
  async persist(method: string, params: Params | undefined): Promise<void> {
    const change = changeOf(method, params, this.#host.legacy);
    if (change) await this.#fleet.store.change(this.#host.id, change);
  }

  /** Stores that `notifications/initialized` arrived. */
  initialized(): Promise<void> {
    return this.#fleet.store.change(this.#host.id, { initialized: true });
  }

  #answered(response: JsonRpcResponse): void {
    this.#host.frame(response);
    if (response.id === undefined || response.id === null) return;
    void this.#fleet.store.answered?.(this.#host.id, response.id).catch(() => undefined);
  }

  #onMessage(message: SessionMessage): void {
    switch (message.type) {
      case 'send':
        return this.holdsStandalone ? this.#host.sendStandalone(message.message) : undefined;
      case 'response':
        return this.isOwnResponse(message.message) ? this.#answered(message.message) : undefined;
      case 'cancelled':
        return isRequestId(message.requestId)
          ? this.#host.abort(message.requestId, message.reason)
          : undefined;
      case 'changed':
        return applyChange(this.#host, message.change);
      case 'takeover':
        if (message.by === this.#fleet.tag) return;
        this.holdsStandalone = false;
        return this.#host.dropStandalone();
      case 'ended':
        return this.#fleet.ended(this.#host.id);
    }
  }
}
