/**
 * One client request running in a legacy HTTP session: the line and binding of its scope, where its related messages go, and an AbortController made only when someone asks
 * for the signal or the client cancels (most requests never need one, and an
 * AbortController is the largest object a small call would otherwise allocate).
 * Source: 2025-11-25 basic/utilities/cancellation; basic/transports "Sending Messages".
 */
import type { Params } from '../../../core/index.js';
import type { HeaderReader, ScopeBinding, ScopeLine } from '../../runtime.js';
import type { AuthInfo, LegacySession } from '../../index.js';
import type { MessageSink } from '../reply.js';

/** A running request of a session: the line and binding of its scope. */
export class SessionRequest implements ScopeLine, ScopeBinding {
  readonly session: LegacySession;
  readonly authInfo: AuthInfo | undefined;
  readonly headers: HeaderReader | undefined;
  /** Where messages related to the request go (its POST's reply). */
  readonly sink: MessageSink;
  #controller: AbortController | undefined;

  constructor(
    session: LegacySession,
    sink: MessageSink,
    from: { auth?: AuthInfo | undefined; headers?: HeaderReader | undefined },
  ) {
    this.session = session;
    this.sink = sink;
    this.authInfo = from.auth;
    this.headers = from.headers;
  }

  /** The request's signal, created on first use (already aborted if it was cancelled). */
  get signal(): AbortSignal {
    return (this.#controller ??= new AbortController()).signal;
  }

  /** True once cancelled (by the client, or because the session ended). */
  get aborted(): boolean {
    return this.#controller?.signal.aborted === true;
  }

  /** Whether `signal` is this request's (without creating one). */
  owns(signal: AbortSignal): boolean {
    return this.#controller?.signal === signal;
  }

  /** Cancels the request; its signal fires once. */
  abort(reason: unknown): void {
    (this.#controller ??= new AbortController()).abort(reason);
  }

  notify(method: string, params: Params): void {
    if (!this.aborted) this.sink.send({ jsonrpc: '2.0', method, params });
  }
}
