/**
 * The server's middleware chains (`server.use(mw)`): one for what arrives from clients
 * (requests and notifications, every transport and era) and one for what the server
 * sends them (notifications tied to a request or to a legacy session, and a legacy
 * session's server-initiated requests). See core/middleware.ts for the shapes.
 *
 * Order on the way in: the transport's own checks first (HTTP: Host/Origin, Accept,
 * Content-Type, body size, JSON, envelope, `MCP-Protocol-Version`/`Mcp-Method`/`Mcp-Name`
 * and `Mcp-Param-*` headers), then the middleware in `use()` order, then the server's
 * dispatch (era routing, modern `_meta` checks, capabilities, the feature handler).
 * On the way out: the middleware in `use()` order, then the transport.
 *
 * The ctx is plain data: a middleware may pass it on, spread it (`{ ...ctx, auth }`) or
 * build a brand-new one. Where a message goes once the chain is through with it (the
 * request's scope, or a session's link) is the chain's own business, carried beside the
 * ctx: the message and the ctx the server built both hold it under a module-private
 * symbol, so passing on either (or a spread copy of either) is enough. A ctx's `signal`
 * is an own enumerable accessor, so a request's AbortSignal is made only when read.
 * With no middleware the server never comes here; with some, a message costs one ctx and
 * one message object, and the chain is composed once (see bench/scenarios/middleware.ts).
 * The incoming terminal dispatches a request's scope once: a second `next` for it rejects
 * (core/middleware.ts, `nextCalledTwice`).
 */
import {
  LocalError,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type Params,
  composeMiddleware,
  type MessageHandler,
  type McpMessage,
  type Middleware,
  type MiddlewareContext,
} from '../core/index.js';
import { eraOf, neverAborted, nextCalledTwice, revisionOf, setOwn } from '../core/runtime.js';
import type { LegacySession, SessionLink } from './legacy/session.js';
import {
  RequestScope,
  bindingOf,
  chainCtxOf,
  chained,
  lineOf,
  requestOf,
  rewrite,
  type HeaderReader,
} from './scope.js';
import type { Caller } from './catalogue/types.js';

/** What the incoming terminal calls with the request's scope, or a notification. */
export interface ServerDispatch {
  request(scope: RequestScope): Promise<Params>;
  notification(notification: JsonRpcNotification, session: LegacySession | undefined): void;
}

/** Where a message goes after the chain: a request's scope, a session (its notifications), or a session's link. */
type Destination = RequestScope | LegacySession | SessionLink | undefined;

const DESTINATION = Symbol('mcpkit.destination');
type Carrier = { readonly [DESTINATION]?: Destination };

const DONE: Promise<undefined> = Promise.resolve(undefined);
const drop = (): undefined => undefined;
const orEmpty = (result: Params | undefined): Params => result ?? {};

/** A request's `signal`, read from its scope's transport when first asked. */
const LAZY_SIGNAL: PropertyDescriptor = {
  enumerable: true,
  get(this: Carrier): AbortSignal {
    return lineOf(this[DESTINATION] as RequestScope).signal;
  },
};

/** A notification's `signal`: its request's, as the chain passed it on. */
const SCOPE_SIGNAL: PropertyDescriptor = {
  enumerable: true,
  get(this: Carrier): AbortSignal {
    return (this[DESTINATION] as RequestScope).signal;
  },
};

/** A server's middleware and the two chains built from it (lazily, again after each `use`). */
export class MiddlewareChains {
  readonly #dispatch: ServerDispatch;
  readonly #list: Middleware[] = [];
  /** The built-in policy (middleware/): innermost, so it sees the auth a user middleware set. */
  readonly #builtIn: Middleware[] = [];
  #incoming: MessageHandler | undefined;
  #outgoing: MessageHandler | undefined;

  constructor(dispatch: ServerDispatch) {
    this.#dispatch = dispatch;
  }

  /** True when no middleware was added (the server then skips the chains entirely). */
  get empty(): boolean {
    return this.#list.length === 0 && this.#builtIn.length === 0;
  }

  /** Adds built-in middleware, run after every `use()` middleware (incoming chain only). */
  builtIn(middleware: Middleware): void {
    this.#builtIn.push(middleware);
    this.#incoming = undefined;
  }

  use(middleware: Middleware): void {
    this.#list.push(middleware);
    this.#incoming = undefined;
    this.#outgoing = undefined;
  }

  /**
   * Runs a request from a client through the incoming chain. Resolves undefined only when a
   * middleware answered a request without a result object; the transports then send `{}`.
   */
  request(scope: RequestScope): Promise<Params> {
    const request = requestOf(scope);
    const binding = bindingOf(scope);
    const message = {
      kind: 'request',
      method: request.method,
      params: request.params,
      id: request.id,
      [DESTINATION]: scope,
    } as const;
    const era = eraOf(request, binding) ?? 'modern';
    const ctx = {
      side: 'server',
      direction: 'incoming',
      era,
      protocolVersion: revisionOf(request, era, binding),
      sessionId: binding.session?.id,
      auth: scope.auth,
      headers: binding.headers && headerRecord(binding.headers),
      [DESTINATION]: scope,
    } as const;
    Object.defineProperty(ctx, 'signal', LAZY_SIGNAL);
    return this.#in()(message, ctx as unknown as MiddlewareContext) as Promise<Params>;
  }

  /** Runs a notification from a client through the incoming chain (errors are dropped). */
  notification(
    notification: JsonRpcNotification,
    session: LegacySession | undefined,
    headers?: HeaderReader,
  ): void {
    const source = { session, headers };
    const era = eraOf(notification, source) ?? 'modern';
    const message = {
      kind: 'notification',
      method: notification.method,
      params: notification.params,
      [DESTINATION]: session,
    } as const;
    const ctx = {
      side: 'server',
      direction: 'incoming',
      era,
      protocolVersion: revisionOf(notification, era, source),
      sessionId: session?.id,
      signal: neverAborted(),
      headers: headers && headerRecord(headers),
      [DESTINATION]: session,
    } as const;
    this.#in()(message, ctx).catch(drop);
  }

  /** Sends a notification of the request `scope` (chained with `parent`) through the outgoing chain. */
  notify(scope: RequestScope, method: string, params: Params): void {
    const parent = chainCtxOf(scope) as MiddlewareContext;
    const ctx = {
      side: 'server',
      direction: 'outgoing',
      era: parent.era,
      protocolVersion: parent.protocolVersion,
      sessionId: parent.sessionId,
      auth: parent.auth,
      [DESTINATION]: scope,
    } as const;
    Object.defineProperty(ctx, 'signal', SCOPE_SIGNAL);
    const message = { kind: 'notification', method, params, [DESTINATION]: scope } as const;
    this.#out()(message, ctx as unknown as MiddlewareContext).catch(drop);
  }

  /** Passes what a session opened by a chained request sends through the outgoing chain. */
  opened(session: LegacySession): void {
    session.link = chainedLink(session, this.#out());
  }

  #out(): MessageHandler {
    return (this.#outgoing ??= composeMiddleware(this.#list, outgoingTerminal));
  }

  #in(): MessageHandler {
    return (this.#incoming ??= composeMiddleware(
      this.#builtIn.length === 0 ? this.#list : [...this.#list, ...this.#builtIn],
      (message, ctx) => this.#terminal(message, ctx),
    ));
  }

  /** The terminal of the incoming chain: dispatches with the ctx's signal and principal. */
  #terminal(message: McpMessage, ctx: MiddlewareContext): Promise<Params | undefined> {
    const destination = destinationOf(message, ctx);
    if (message.kind === 'notification') {
      this.#dispatch.notification(asNotification(message), destination as LegacySession | undefined);
      return DONE;
    }
    const scope = destination as RequestScope | undefined;
    if (scope === undefined) return Promise.reject(lostDestination());
    if (chainCtxOf(scope) !== undefined) return Promise.reject(nextCalledTwice(message.method));
    rewrite(scope, asRequest(message, requestOf(scope) as JsonRpcRequest));
    chained(scope, ctx, this);
    return this.#dispatch.request(scope);
  }
}

/**
 * Who sends the request passing the chain, as per-caller rules read it: the identity the
 * chain carries (`ctx.auth`, `ctx.era`) and the client its scope names. Undefined when the
 * message is not a request of this server's chain.
 */
export function callerOf(message: McpMessage, ctx: MiddlewareContext): Caller | undefined {
  const scope =
    message.kind === 'request' ? (destinationOf(message, ctx) as RequestScope | undefined) : undefined;
  if (scope === undefined) return undefined;
  return {
    auth: ctx.auth,
    era: ctx.era ?? scope.era,
    clientCapabilities: scope.clientCapabilities,
    clientInfo: scope.clientInfo,
  };
}

function destinationOf(message: McpMessage, ctx: MiddlewareContext): Destination {
  return (message as Carrier)[DESTINATION] ?? (ctx as Carrier)[DESTINATION];
}

function lostDestination(): LocalError {
  return new LocalError(
    'INVALID_ARGUMENT',
    'a middleware passed on neither the message nor the ctx the server gave it (or a spread copy)',
  );
}

function asNotification(message: McpMessage): JsonRpcNotification {
  const params = message.params;
  return params === undefined
    ? { jsonrpc: '2.0', method: message.method }
    : { jsonrpc: '2.0', method: message.method, params };
}

/** The request as the chain passed it on (the original when no middleware changed it). */
function asRequest(message: McpMessage, original: JsonRpcRequest): JsonRpcRequest {
  const id = message.id ?? original.id;
  if (message.method === original.method && message.params === original.params && id === original.id)
    return original;
  return message.params === undefined
    ? { jsonrpc: '2.0', id, method: message.method }
    : { jsonrpc: '2.0', id, method: message.method, params: message.params };
}

/** A session link whose requests and notifications pass through the outgoing chain. */
function chainedLink(session: LegacySession, outgoing: MessageHandler): SessionLink {
  const link = session.link;
  const ctx = (signal: AbortSignal): MiddlewareContext =>
    ({
      side: 'server',
      direction: 'outgoing',
      era: 'legacy',
      protocolVersion: session.protocolVersion,
      sessionId: session.id,
      signal,
      [DESTINATION]: link,
    }) as MiddlewareContext;
  return {
    request: (method, params, options) =>
      outgoing(
        { kind: 'request', method, params, [DESTINATION]: link } as McpMessage,
        ctx(options?.signal ?? neverAborted()),
      ).then(orEmpty),
    notify: (method, params) =>
      void outgoing(
        { kind: 'notification', method, params, [DESTINATION]: link } as McpMessage,
        ctx(neverAborted()),
      ).catch(drop),
  };
}

/**
 * The terminal of the outgoing chain: a notification on the request's transport line, or
 * a message on a session's link.
 */
const outgoingTerminal: MessageHandler = (message, ctx) => {
  const destination = destinationOf(message, ctx);
  if (destination === undefined) return Promise.reject(lostDestination());
  if (destination instanceof RequestScope) {
    lineOf(destination).notify(message.method, message.params ?? {});
    return DONE;
  }
  const link = destination as SessionLink;
  if (message.kind === 'notification') {
    link.notify(message.method, message.params);
    return DONE;
  }
  return link.request(message.method, message.params ?? {}, { signal: ctx.signal });
};

/** A header reader as a plain record of lowercase names; undefined when it cannot list them. */
function headerRecord(reader: HeaderReader): Readonly<Record<string, string>> | undefined {
  if (!reader.forEach) return undefined;
  const record: Record<string, string> = {};
  reader.forEach((value, name) => setOwn(record, name.toLowerCase(), value));
  return record;
}
