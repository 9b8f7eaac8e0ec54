/**
 * One legacy session on Streamable HTTP: the {@link LegacySession} the server reads,
 * the SSE streams of the session, and, once the server first sends the client a request,
 * a core {@link Peer} whose transport writes to the right stream and whose incoming frames
 * are the client's POSTed responses.
 *
 * An idle session holds little: its streams (the GET stream included), the peer, the map
 * of running requests and their AbortControllers are all made on first use, so a session
 * that only answers a few requests allocates and keeps a few small objects.
 * Source: 2025-11-25 basic/transports "Streamable HTTP" (streams, sessions).
 */
import {
  runtimeOf,
  RequestScope,
  type HeaderReader,
  forwardEvent,
  methodNotFound,
  LegacySession,
} from '../../runtime.js';
import {
  ERROR_TABLE,
  LocalError,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type Params,
  type RequestId,
  type RequestOptions,
  type Transport,
  type TransportSink,
  type ServerEvent,
} from '../../../core/index.js';
import { errorResponse, isRequestId, Peer } from '../../../core/runtime.js';
import type { SessionInit, AuthInfo, McpServer, SessionLink } from '../../index.js';
import type { EventStore } from './event-store.js';
import { answer, type MessageSink, type StreamSink, type StreamOpener, type Outcome } from '../reply.js';
import { SessionStreams, type ResumableStream } from './resumable.js';
import { FleetReplica, applyRecord, type ReplicaHost, type SessionFleet } from './fleet-session.js';
import type { SessionRecord } from './session-store.js';
import { SessionRequest } from './session-request.js';
import { HTTP_OK } from '../responses.js';

/** Settings the sessions of one handler share (one object for all of them). */
export interface HttpSessionOptions {
  store: EventStore;
  keepAliveMs: number;
  /** Most bytes queued on a stream for a client that does not read. */
  maxBufferedBytes?: number;
  /** The fleet sharing the sessions (through a session store), if any. */
  fleet?: SessionFleet | undefined;
}

/** What one session is opened with. */
export interface HttpSessionOpening {
  /** The handler's settings, shared by its sessions. */
  settings: HttpSessionOptions;
  /** The principal that opened the session ('' when anonymous); others get 404. */
  owner?: string;
  /** The stored session this instance serves a replica of (fleet only). */
  record?: SessionRecord;
  /** Whom per-principal bounds (stored events) count this session against ('' for nobody). */
  principal?: string | undefined;
}

/**
 * The state of one `Mcp-Session-Id`. It is its {@link LegacySession}'s link: the way the
 * server reaches the client.
 */
export class HttpSession implements SessionLink, StreamOpener {
  readonly id: string;
  readonly legacy: LegacySession;
  /** The principal that opened the session ('' when anonymous). */
  readonly owner: string;
  /** When the client last sent something (ms since epoch). */
  lastActive = Date.now();
  /** The fleet side of this session, when a session store shares it. */
  readonly replica: FleetReplica | undefined;
  /**
   * Whom per-principal bounds count this session against: the session table's
   * `principals.maxSessions`, the event store's share per owner ('' or undefined for nobody).
   */
  readonly principal: string | undefined;
  readonly #server: McpServer;
  readonly #settings: HttpSessionOptions;
  /** The session's SSE streams (a resumable POST stream per request that streams, and the GET stream). */
  readonly streams: SessionStreams;
  #inFlight: Map<RequestId, SessionRequest> | undefined;
  #peer: Peer | undefined;
  #frames: TransportSink | undefined;
  #target: MessageSink | undefined;
  #receiving: HeaderReader | undefined;
  #ended = false;

  constructor(server: McpServer, init: SessionInit, opening: HttpSessionOpening) {
    this.#server = server;
    this.#settings = opening.settings;
    this.principal = opening.principal;
    const { record } = opening;
    const fleet = opening.settings.fleet;
    // Lower-cased: one flat string kept for the session's life, not randomUUID's concatenation.
    this.id = record?.id ?? crypto.randomUUID().toLowerCase();
    this.owner = record?.owner ?? opening.owner ?? '';
    this.legacy = new LegacySession({ ...init, id: this.id, link: this });
    const { store, keepAliveMs, maxBufferedBytes } = opening.settings;
    this.streams = new SessionStreams({
      store,
      keepAliveMs,
      ...(maxBufferedBytes === undefined ? {} : { maxBufferedBytes }),
      owner: this.principal,
      prime: () => this.legacy.protocolVersion >= '2025-11-25',
      idPrefix: fleet ? `${this.id}.` : '',
      standaloneId: record?.standaloneStreamId,
    });
    this.replica = fleet && new FleetReplica(this.#replicaHost(), fleet);
    if (record) this.apply(record);
  }

  /**
   * Forwards a server event (a list change, a resource update) to the client; a fleet's
   * replica forwards only where the session's GET stream is held. The session table calls
   * it for the sessions it holds.
   */
  hear(event: ServerEvent): void {
    if (!this.replica || this.replica.holdsStandalone) forwardEvent(event, this.legacy);
  }

  /** Takes the state the fleet stored (a replica made or refreshed from the store). */
  apply(record: SessionRecord): void {
    applyRecord(this.#replicaHost(), record);
  }

  /** True while a request runs or a client connection is attached (the session is in use). */
  get busy(): boolean {
    return (this.#inFlight !== undefined && this.#inFlight.size > 0) || this.streams.connected;
  }

  /**
   * In a fleet, a POST stream of this session that another instance served, for replaying
   * what it stored after a `Last-Event-ID` (it ends after the replay: its request runs
   * elsewhere). Undefined for any other id.
   */
  storedStream(streamId: string): ResumableStream | undefined {
    if (!this.replica || !streamId.startsWith(`${this.id}.`)) return undefined;
    const stream = this.streams.open(streamId);
    stream.end();
    return stream;
  }

  /** Opens a new resumable stream for a POST's reply. */
  openStream(): { body: ReadableStream<Uint8Array>; sink: StreamSink } {
    const stream = this.streams.open();
    return { body: stream.connect(), sink: stream };
  }

  /**
   * Runs a client request; related messages (progress, logs, server-initiated requests)
   * go to `sink`. Resolves undefined when the client cancelled it.
   */
  async run(
    request: JsonRpcRequest,
    sink: MessageSink,
    from: { auth?: AuthInfo | undefined; headers?: HeaderReader } = {},
  ): Promise<Outcome | undefined> {
    this.lastActive = Date.now();
    const inFlight = (this.#inFlight ??= new Map());
    if (inFlight.has(request.id)) return duplicateId(request.id);
    const running = new SessionRequest(this.legacy, sink, from);
    inFlight.set(request.id, running);
    try {
      const outcome = await answer(this.#server, new RequestScope(request, running, running));
      if (this.replica && 'result' in outcome.response)
        await this.replica.persist(request.method, request.params);
      return running.aborted ? undefined : outcome;
    } finally {
      inFlight.delete(request.id);
      // An idle session keeps no map (a new one costs less than one held per idle session).
      if (inFlight.size === 0 && this.#inFlight === inFlight) this.#inFlight = undefined;
      this.lastActive = Date.now();
    }
  }

  /**
   * Takes a client notification or a response to a server-initiated request. In a fleet, a
   * response to another instance's request and a cancellation of a request not running
   * here go on to the fleet; the promise settles once they did (or the state was stored).
   */
  receive(message: JsonRpcNotification | JsonRpcResponse, headers?: HeaderReader): Promise<void> | undefined {
    this.lastActive = Date.now();
    const replica = this.replica;
    if ('method' in message && message.method === 'notifications/cancelled') {
      const id = message.params?.requestId;
      const local = isRequestId(id) ? this.#inFlight?.get(id) : undefined;
      if (local || !replica || !isRequestId(id)) return void local?.abort(message.params?.reason);
      return replica.forwardCancel(id, message.params?.reason);
    }
    if (replica && !('method' in message) && !replica.isOwnResponse(message))
      return replica.forwardResponse(message);
    if (replica && 'method' in message && message.method === 'notifications/initialized') {
      this.#frame(message, headers);
      return replica.initialized();
    }
    this.#frame(message, headers);
    return undefined;
  }

  // With a peer (the server sent requests), the frame goes through it: responses settle
  // its requests, progress resets their timeouts. Without one there is nothing to answer.
  #frame(message: JsonRpcNotification | JsonRpcResponse, headers: HeaderReader | undefined): void {
    if (!this.#frames) {
      if ('method' in message) this.#notified(message, headers);
      return;
    }
    // The Peer handles the frame synchronously: its notification reaches the server with
    // the headers of the POST that carried it.
    this.#receiving = headers;
    try {
      this.#frames.frame(JSON.stringify(message));
    } finally {
      this.#receiving = undefined;
    }
  }

  // As the peer does: a failing notification handler is not the client's concern.
  #notified(message: JsonRpcNotification, headers: HeaderReader | undefined): void {
    try {
      runtimeOf(this.#server).handleNotification(message, this.legacy, headers);
    } catch {
      // ignored, as on a peer without an internalError handler
    }
  }

  /** Ends the session: cancels its requests, fails pending server requests, closes streams. */
  end(): void {
    this.#close();
    this.streams.forgetAll();
  }

  /**
   * Lets go of the session here (idle, or the handler closes): as {@link end} without a
   * fleet; in a fleet only this replica goes, the stored session and streams stay.
   */
  release(): void {
    if (this.replica) this.#close();
    else this.end();
  }

  #close(): void {
    this.#ended = true;
    this.replica?.leave();
    runtimeOf(this.#server).sessionEnded(this.legacy);
    if (this.#inFlight)
      for (const running of this.#inFlight.values())
        running.abort(new LocalError('ABORTED', 'session ended'));
    if (this.#peer) void this.#peer.close();
    this.streams.endAll();
  }

  #replicaHost(): ReplicaHost {
    return {
      id: this.id,
      legacy: this.legacy,
      sendStandalone: (message) => this.streams.standalone.send(message),
      dropStandalone: () => this.streams.standalone.disconnect(),
      frame: (message) => this.#frames?.frame(JSON.stringify(message)),
      abort: (id, reason) => this.#inFlight?.get(id)?.abort(reason),
      syncSubscriptions: (uris) => runtimeOf(this.#server).syncSessionSubscriptions(this.legacy, uris),
    };
  }

  /** Sends a notification not tied to a request: on the GET stream (dropped once ended). */
  notify(method: string, params?: Params): void {
    if (!this.#ended)
      this.#send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /**
   * Sends a server-initiated request: on the stream of the client request whose signal
   * `options` carries, else on the GET stream.
   * @throws LocalError `CONNECTION_CLOSED` once the session ended (as the promise's rejection).
   */
  request(method: string, params: Params, options?: RequestOptions): Promise<Params> {
    if (this.#ended)
      return Promise.reject(new LocalError('CONNECTION_CLOSED', 'Connection closed: the session ended'));
    const signal = options?.signal;
    this.#target = signal ? this.#sinkOf(signal) : undefined;
    try {
      return this.#peerFor().request(method, params, options);
    } finally {
      this.#target = undefined;
    }
  }

  /** The sink of the running request whose signal this is. */
  #sinkOf(signal: AbortSignal): MessageSink | undefined {
    if (this.#inFlight)
      for (const running of this.#inFlight.values()) if (running.owns(signal)) return running.sink;
    return undefined;
  }

  #peerFor(): Peer {
    if (this.#peer) return this.#peer;
    const fleet = this.#settings.fleet;
    const transport: Transport = {
      start: (sink) => {
        this.#frames = sink;
      },
      send: (message) => {
        for (const m of [message].flat() as JsonRpcMessage[]) this.#send(m);
      },
      close: async () => undefined,
    };
    this.#peer = new Peer(
      transport,
      {
        request: (request) => Promise.reject(methodNotFound(request.method)),
        notification: (n) => runtimeOf(this.#server).handleNotification(n, this.legacy, this.#receiving),
      },
      fleet ? { requestIdPrefix: `${fleet.tag}.` } : {},
    );
    void this.#peer.start();
    return this.#peer;
  }

  /** Sends a server-initiated message: on the stream of the request it relates to, else the GET stream. */
  #send(message: JsonRpcMessage): void {
    (this.#target ?? this.replica ?? this.streams.standalone).send(message);
  }
}

function duplicateId(id: RequestId): Outcome {
  const error = { code: ERROR_TABLE.InvalidRequest.code, message: 'Invalid request: id already in flight' };
  return { response: errorResponse(id, error), status: HTTP_OK };
}
