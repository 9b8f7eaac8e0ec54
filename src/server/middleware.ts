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
 * Cost: with no middleware the server never comes here. With some, each message costs one
 * ctx object, one message object and, for a request, one channel wrapper; the chain itself
 * is composed once and adds no promise of its own (see bench/scenarios/middleware.ts).
 */
import type { JsonRpcNotification, JsonRpcRequest, Params } from '../core/jsonrpc.js';
import {
  composeMiddleware,
  type AuthInfo,
  type MessageHandler,
  type McpMessage,
  type Middleware,
  type MiddlewareContext,
} from '../core/middleware.js';
import type { Era } from '../core/revisions.js';
import type { HeaderReader, RequestChannel, SessionInit } from './channel.js';
import { incomingContext, linkContext, notifyContext, routeOf, type Route } from './middleware-context.js';
import type { LegacySession, SessionLink } from './legacy/session.js';

/** What the incoming terminal calls with the request and the channel to serve it on. */
export interface ServerDispatch {
  request(request: JsonRpcRequest, channel: RequestChannel): Promise<Params>;
  notification(notification: JsonRpcNotification, session: LegacySession | undefined): void;
}

const DONE: Promise<undefined> = Promise.resolve(undefined);
const drop = (): undefined => undefined;
const orEmpty = (result: Params | undefined): Params => result ?? {};

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
   * middleware answered a request without a result object; the transports then send `{}`
   * (no extra promise here: one more hop per call measurably slowed stdio).
   */
  request(request: JsonRpcRequest, channel: RequestChannel): Promise<Params> {
    const message: McpMessage = {
      kind: 'request',
      method: request.method,
      params: request.params,
      id: request.id,
    };
    const route: Route = { kind: 'request', channel, request };
    return this.#in()(message, incomingContext(message, route)) as Promise<Params>;
  }

  /** Runs a notification from a client through the incoming chain (errors are dropped). */
  notification(
    notification: JsonRpcNotification,
    session: LegacySession | undefined,
    headers?: HeaderReader,
  ): void {
    const message: McpMessage = {
      kind: 'notification',
      method: notification.method,
      params: notification.params,
    };
    const route: Route = { kind: 'notification', session, headers };
    this.#in()(message, incomingContext(message, route)).catch(drop);
  }

  #out(): MessageHandler {
    return (this.#outgoing ??= composeMiddleware(this.#list, outgoingTerminal));
  }

  #in(): MessageHandler {
    return (this.#incoming ??= composeMiddleware(
      this.#builtIn.length === 0 ? this.#list : [...this.#list, ...this.#builtIn],
      incomingTerminal(this.#dispatch, () => this.#out()),
    ));
  }
}

/**
 * The terminal of the incoming chain: dispatches to the server, on a channel whose signal,
 * principal and notifications are those of the ctx middleware passed on.
 */
function incomingTerminal(dispatch: ServerDispatch, outgoing: () => MessageHandler): MessageHandler {
  return (message, ctx) => {
    const route = routeOf(ctx);
    if (route?.kind === 'notification') {
      dispatch.notification(asNotification(message), route.session);
      return DONE;
    }
    if (route?.kind !== 'request') return Promise.reject(new Error('an incoming message lost its route'));
    return dispatch.request(
      asRequest(message, route.request),
      new ChainedChannel(route.channel, ctx, outgoing()),
    );
  };
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

/** A transport's channel seen through the chain: signal and principal from the ctx. */
class ChainedChannel implements RequestChannel {
  readonly #channel: RequestChannel;
  readonly #ctx: MiddlewareContext;
  readonly #outgoing: MessageHandler;

  constructor(channel: RequestChannel, ctx: MiddlewareContext, outgoing: MessageHandler) {
    this.#channel = channel;
    this.#ctx = ctx;
    this.#outgoing = outgoing;
  }

  get signal(): AbortSignal {
    return this.#ctx.signal;
  }
  get session(): LegacySession | undefined {
    return this.#channel.session;
  }
  get era(): Era | undefined {
    return this.#channel.era;
  }
  get authInfo(): AuthInfo | undefined {
    return this.#ctx.auth;
  }
  get headers(): HeaderReader | undefined {
    return this.#channel.headers;
  }

  openSession(init: SessionInit): LegacySession {
    if (!this.#channel.openSession) throw new Error('this channel cannot open a session');
    const session = this.#channel.openSession(init);
    session.link = chainedLink(session, this.#outgoing);
    return session;
  }

  notify(method: string, params: Params): void {
    const route: Route = { kind: 'notify', channel: this.#channel, parent: this.#ctx };
    this.#outgoing({ kind: 'notification', method, params }, notifyContext(this.#ctx, route)).catch(drop);
  }
}

/** A session link whose requests and notifications pass through the outgoing chain. */
function chainedLink(session: LegacySession, outgoing: MessageHandler): SessionLink {
  const route: Route = { kind: 'link', link: session.link };
  return {
    request: (method, params, options) =>
      outgoing({ kind: 'request', method, params }, linkContext(session, route, options?.signal)).then(
        orEmpty,
      ),
    notify: (method, params) =>
      void outgoing({ kind: 'notification', method, params }, linkContext(session, route)).catch(drop),
  };
}

/**
 * The terminal of the outgoing chain: a notification to the request's channel, or a
 * message on a session link.
 */
const outgoingTerminal: MessageHandler = (message, ctx) => {
  const route = routeOf(ctx);
  if (route?.kind === 'notify') {
    route.channel.notify(message.method, message.params ?? {});
    return DONE;
  }
  if (route?.kind !== 'link') return Promise.reject(new Error('an outgoing message lost its route'));
  if (message.kind === 'notification') {
    route.link.notify(message.method, message.params);
    return DONE;
  }
  return route.link.request(message.method, message.params ?? {}, { signal: ctx.signal });
};
