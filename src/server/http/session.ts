/**
 * One legacy session on Streamable HTTP: the {@link LegacySession} the server reads,
 * the SSE streams of the session, and a core {@link Peer} for server-initiated requests
 * whose transport writes to the right stream and whose incoming frames are the
 * client's POSTed responses.
 * Source: 2025-11-25 basic/transports "Streamable HTTP" (streams, sessions).
 */
import { ERROR_TABLE } from '../../core/errors.js';
import {
  errorResponse,
  isRequestId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
} from '../../core/jsonrpc.js';
import { Peer } from '../../core/peer.js';
import type { Transport, TransportSink } from '../../core/transport.js';
import type { HeaderReader, RequestChannel, SessionInit } from '../channel.js';
import type { AuthInfo } from '../context.js';
import { watchEvents } from '../connect.js';
import { methodNotFound } from '../modern.js';
import type { McpServer } from '../server.js';
import { LegacySession } from '../session.js';
import type { EventStore } from './event-store.js';
import { answer, type MessageSink, type OpenStream, type Outcome } from './reply.js';
import { ResumableStream } from './resumable.js';
import { FleetReplica, applyRecord, type ReplicaHost, type SessionFleet } from './fleet-session.js';
import type { SessionRecord } from './session-store.js';

/** How many ended POST streams a session keeps for resumption. */
const KEPT_STREAMS = 100;

/** Settings a session takes from the handler options. */
export interface HttpSessionOptions {
  store: EventStore;
  keepAliveMs: number;
  /** Most bytes queued on a stream for a client that does not read. */
  maxBufferedBytes?: number;
  /** The principal that opened the session ('' when anonymous); others get 404. */
  owner?: string;
  /** The fleet sharing the session (through a session store), if any. */
  fleet?: SessionFleet | undefined;
  /** The stored session this instance serves a replica of (fleet only). */
  record?: SessionRecord;
  /** Whom per-principal bounds (stored events) count this session against ('' for nobody). */
  principal?: string | undefined;
}

/** The state of one `Mcp-Session-Id`. */
export class HttpSession {
  readonly id: string;
  readonly legacy: LegacySession;
  /** The principal that opened the session ('' when anonymous). */
  readonly owner: string;
  /** The stream a GET opens: messages not related to any request. */
  readonly standalone: ResumableStream;
  /** When the client last sent something (ms since epoch). */
  lastActive = Date.now();
  readonly #server: McpServer;
  readonly #options: HttpSessionOptions;
  readonly #peer: Peer;
  readonly #streams = new Map<string, ResumableStream>();
  readonly #inFlight = new Map<RequestId, AbortController>();
  readonly #sinkOf = new WeakMap<AbortSignal, MessageSink>();
  readonly #unwatch: () => void;
  /** The fleet side of this session, when a session store shares it. */
  readonly replica: FleetReplica | undefined;
  #frames: TransportSink | undefined;
  #target: MessageSink | undefined;
  #receiving: HeaderReader | undefined;

  constructor(server: McpServer, init: SessionInit, options: HttpSessionOptions) {
    this.#server = server;
    this.#options = options;
    const { record, fleet } = options;
    this.id = record?.id ?? crypto.randomUUID();
    this.owner = record?.owner ?? options.owner ?? '';
    this.legacy = new LegacySession({ ...init, id: this.id, link: this.#link() });
    this.standalone = this.#newStream(record?.standaloneStreamId);
    const replica = fleet && new FleetReplica(this.#replicaHost(), fleet);
    this.replica = replica;
    if (record) this.apply(record);
    this.#peer = new Peer(
      this.#transport(),
      {
        request: (request) => Promise.reject(methodNotFound(request.method)),
        notification: (n) => server.handleNotification(n, this.legacy, this.#receiving),
      },
      fleet ? { requestIdPrefix: `${fleet.tag}.` } : {},
    );
    void this.#peer.start();
    this.#unwatch = watchEvents(server, this.legacy, replica && (() => replica.holdsStandalone));
  }

  /** Takes the state the fleet stored (a replica made or refreshed from the store). */
  apply(record: SessionRecord): void {
    applyRecord(this.#replicaHost(), record);
  }

  /** True while a request runs or a client connection is attached (the session is in use). */
  get busy(): boolean {
    return this.#inFlight.size > 0 || [...this.#streams.values()].some((s) => s.connected);
  }

  /** A stream of this session by id (for `Last-Event-ID`). */
  stream(streamId: string): ResumableStream | undefined {
    return this.#streams.get(streamId);
  }

  /**
   * In a fleet, a POST stream of this session that another instance served, for replaying
   * what it stored after a `Last-Event-ID` (it ends after the replay: its request runs
   * elsewhere). Undefined for any other id.
   */
  storedStream(streamId: string): ResumableStream | undefined {
    if (!this.replica || !streamId.startsWith(`${this.id}.`)) return undefined;
    const stream = this.#newStream(streamId);
    stream.end();
    return stream;
  }

  /** Opens a new resumable stream for a POST's reply. */
  readonly openStream: OpenStream = () => {
    const stream = this.#newStream();
    return { body: stream.connect(), sink: stream };
  };

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
    if (this.#inFlight.has(request.id)) return duplicateId(request.id);
    const controller = new AbortController();
    this.#inFlight.set(request.id, controller);
    this.#sinkOf.set(controller.signal, sink);
    const channel: RequestChannel = {
      signal: controller.signal,
      session: this.legacy,
      authInfo: from.auth,
      headers: from.headers,
      notify: (method, params) => {
        if (!controller.signal.aborted) sink.send({ jsonrpc: '2.0', method, params });
      },
    };
    try {
      const outcome = await answer(this.#server, request, channel);
      if (this.replica && 'result' in outcome.response)
        await this.replica.persist(request.method, request.params);
      return controller.signal.aborted ? undefined : outcome;
    } finally {
      this.#inFlight.delete(request.id);
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
      const local = isRequestId(id) ? this.#inFlight.get(id) : undefined;
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

  #frame(message: JsonRpcNotification | JsonRpcResponse, headers: HeaderReader | undefined): void {
    // The Peer handles the frame synchronously: its notification reaches the server with
    // the headers of the POST that carried it.
    this.#receiving = headers;
    try {
      this.#frames?.frame(JSON.stringify(message));
    } finally {
      this.#receiving = undefined;
    }
  }

  /** Ends the session: cancels its requests, fails pending server requests, closes streams. */
  end(): void {
    this.#close();
    for (const stream of this.#streams.values())
      void Promise.resolve(this.#options.store.deleteStream(stream.id)).catch(() => undefined);
    this.#streams.clear();
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
    this.replica?.leave();
    this.#unwatch();
    for (const controller of this.#inFlight.values()) controller.abort(new Error('session ended'));
    void this.#peer.close();
    for (const stream of this.#streams.values()) stream.end();
  }

  #replicaHost(): ReplicaHost {
    return {
      id: this.id,
      legacy: this.legacy,
      sendStandalone: (message) => this.standalone.send(message),
      dropStandalone: () => this.standalone.disconnect(),
      frame: (message) => this.#frames?.frame(JSON.stringify(message)),
      abort: (id, reason) => this.#inFlight.get(id)?.abort(reason),
      syncSubscriptions: (uris) => this.#server.syncSessionSubscriptions(this.legacy, uris),
    };
  }

  #link(): LegacySession['link'] {
    return {
      request: (method, params, options) => {
        this.#target = options?.signal ? this.#sinkOf.get(options.signal) : undefined;
        try {
          return this.#peer.request(method, params, options);
        } finally {
          this.#target = undefined;
        }
      },
      notify: (method, params) => this.#peer.notify(method, params),
    };
  }

  #transport(): Transport {
    return {
      start: (sink) => {
        this.#frames = sink;
      },
      send: (message) => {
        const sink = this.#target ?? this.replica ?? this.standalone;
        for (const m of [message].flat() as JsonRpcMessage[]) sink.send(m);
      },
      close: async () => undefined,
    };
  }

  /** A new stream; in a fleet its id starts with the session id (any instance can tell whose it is). */
  #newStream(id?: string): ResumableStream {
    const streamId = id ?? (this.replica ? `${this.id}.${crypto.randomUUID()}` : crypto.randomUUID());
    const stream = new ResumableStream(streamId, {
      store: this.#options.store,
      keepAliveMs: this.#options.keepAliveMs,
      ...(this.#options.maxBufferedBytes === undefined
        ? {}
        : { maxBufferedBytes: this.#options.maxBufferedBytes }),
      prime: this.legacy.protocolVersion >= '2025-11-25',
      owner: this.#options.principal,
    });
    this.#streams.set(stream.id, stream);
    if (this.#streams.size > KEPT_STREAMS) this.#forgetOldestEnded();
    return stream;
  }

  #forgetOldestEnded(): void {
    for (const stream of this.#streams.values()) {
      if (!stream.ended) continue;
      this.#streams.delete(stream.id);
      void Promise.resolve(this.#options.store.deleteStream(stream.id)).catch(() => undefined);
      return;
    }
  }
}

function duplicateId(id: RequestId): Outcome {
  const error = { code: ERROR_TABLE.InvalidRequest.code, message: 'Invalid request: id already in flight' };
  return { response: errorResponse(id, error), status: 200 };
}
