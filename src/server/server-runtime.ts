/**
 * The interface of the server's face for transports (see runtime.ts), in a leaf of its own
 * so that server.ts, which builds it, and runtime.ts, which exports it, import no cycle.
 */
import type { EventBus, JsonRpcNotification, JsonRpcRequest, Params } from '../core/index.js';
import type { LegacySession } from './legacy/session.js';
import type { ServerOptions } from './options.js';
import type { Needed, ServerCatalogue } from './catalogue/catalogue.js';
import type { Caller } from './catalogue/types.js';
import type { HeaderReader, RequestScope, ScopeBinding, ScopeLine } from './scope.js';

/** What a transport calls on a server definition. */
export interface ServerRuntime {
  readonly options: ServerOptions;
  /** The bus server events (list changes, resource updates) travel on. */
  readonly eventBus: EventBus;
  /** What the server serves (own registrations, mounts, transforms); a mount reads it. */
  readonly catalogue: ServerCatalogue;
  /** True when the server serves legacy sessions (`initialize`) as well as modern requests. */
  readonly servesLegacy: boolean;
  /**
   * How many times the tool list has changed by `tool()` or `removeTool()`, announced or
   * not; transports key caches of the tool list on it.
   */
  toolsRevision(): number;
  /**
   * Answers the request of `scope` (built once by the transport). Resolves with the result
   * object; rejects with `WireError` for a JSON-RPC error (anything else a handler throws
   * should become -32603 at the transport). A middleware that answers a request itself is
   * trusted to return a result object; a transport sends `{}` if it did not.
   */
  serve(scope: RequestScope): Promise<Params>;
  /** {@link serve} for a transport whose one object is both the line and the binding of the request. */
  handle(request: JsonRpcRequest, channel: ScopeLine & ScopeBinding): Promise<Params>;
  /**
   * Handles a notification from the client (`notifications/initialized`; others are
   * ignored once middleware saw them). `headers`: the HTTP request's, for middleware.
   */
  handleNotification(
    notification: JsonRpcNotification,
    session: LegacySession | undefined,
    headers?: HeaderReader,
  ): void;
  /** Releases what a legacy session held (its resource subscriptions) when it ends. */
  sessionEnded(session: LegacySession): void;
  /**
   * Sets a legacy session's resource subscriptions to `uris`: new ones count here (the
   * `subscribe` hook may run; its refusal is not reported), gone ones are released. A
   * fleet's replica of a session calls it with what the session subscribed elsewhere.
   */
  syncSessionSubscriptions(session: LegacySession, uris: Iterable<string>): void;
  /**
   * The OAuth scopes the features a request names need, as registered with `scopes`,
   * resolved for `caller` as serving resolves them (`ServerCatalogue.requiredScopes`);
   * undefined when none, a promise only when a scoped template must be matched first.
   */
  requiredScopes(method: string, params: unknown, caller?: Caller): Needed;
  /**
   * Resolves once no background work (task handlers, their settling and signals) runs in
   * this process, including work started while waiting.
   */
  idle(): Promise<void>;
}
