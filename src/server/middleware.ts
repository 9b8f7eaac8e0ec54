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
import { metaVersionOf } from '../core/wire.js';
import type { Era } from '../core/revisions.js';
import type { RequestChannel, SessionInit } from './channel.js';
import type { LegacySession, SessionLink } from './session.js';

/** Where a message goes once the chain is through with it (kept out of sight on the ctx). */
const ROUTE = Symbol('mcpkit.route');

type Route =
  | { kind: 'request'; channel: RequestChannel; request: JsonRpcRequest }
  | { kind: 'notification'; session: LegacySession | undefined }
  | { kind: 'notify'; channel: RequestChannel }
  | { kind: 'link'; link: SessionLink };

interface Routed extends MiddlewareContext {
  readonly [ROUTE]: Route;
}

/** What the incoming terminal calls with the request and the channel to serve it on. */
export interface ServerDispatch {
  request(request: JsonRpcRequest, channel: RequestChannel): Promise<Params>;
  notification(notification: JsonRpcNotification, session: LegacySession | undefined): void;
}

/** A server's middleware and the two chains built from it (lazily, again after each `use`). */
export class MiddlewareChains {
  readonly #dispatch: ServerDispatch;
  readonly #list: Middleware[] = [];
  #incoming: MessageHandler | undefined;
  #outgoing: MessageHandler | undefined;

  constructor(dispatch: ServerDispatch) {
    this.#dispatch = dispatch;
  }

  /** True when no middleware was added (the server then skips the chains entirely). */
  get empty(): boolean {
    return this.#list.length === 0;
  }

  use(middleware: Middleware): void {
    this.#list.push(middleware);
    this.#incoming = undefined;
    this.#outgoing = undefined;
  }

  /** Runs a request from a client through the incoming chain. */
  request(request: JsonRpcRequest, channel: RequestChannel): Promise<Params> {
    const [message, ctx] = incomingRequest(request, channel);
    return this.#in()(message, ctx).then((result) => result ?? {});
  }

  /** Runs a notification from a client through the incoming chain (errors are dropped). */
  notification(notification: JsonRpcNotification, session: LegacySession | undefined): void {
    const message: McpMessage = {
      kind: 'notification',
      method: notification.method,
      params: notification.params,
    };
    void this.#in()(message, notificationContext(message, session)).catch(() => undefined);
  }

  #out(): MessageHandler {
    return (this.#outgoing ??= composeMiddleware(this.#list, outgoingTerminal));
  }

  #in(): MessageHandler {
    return (this.#incoming ??= composeMiddleware(
      this.#list,
      incomingTerminal(this.#dispatch, () => this.#out()),
    ));
  }
}

const NEVER = new AbortController().signal;

/** The era and revision the server will treat `request` as (the same rule `handle` routes by). */
function eraOf(request: JsonRpcRequest, channel: RequestChannel): { era: Era; version: string | undefined } {
  const version = metaVersionOf(request.params);
  if (channel.era === 'modern' || version !== undefined) return { era: 'modern', version };
  if (request.method === 'initialize' || channel.session)
    return { era: 'legacy', version: channel.session?.protocolVersion };
  return { era: 'modern', version: undefined };
}

/** The incoming message and ctx of a request on `channel`. */
function incomingRequest(request: JsonRpcRequest, channel: RequestChannel): [McpMessage, MiddlewareContext] {
  const { era, version } = eraOf(request, channel);
  const ctx: Routed = {
    side: 'server',
    direction: 'incoming',
    era,
    protocolVersion: version,
    sessionId: channel.session?.id,
    // Read on first use: transports create a request's AbortSignal lazily, and most
    // requests never need one.
    get signal(): AbortSignal {
      return channel.signal;
    },
    auth: channel.authInfo,
    [ROUTE]: { kind: 'request', channel, request },
  };
  return [{ kind: 'request', method: request.method, params: request.params, id: request.id }, ctx];
}

/** The incoming ctx of a notification (legacy when it belongs to a session). */
function notificationContext(
  notification: McpMessage,
  session: LegacySession | undefined,
): MiddlewareContext {
  const version = metaVersionOf(notification.params);
  const ctx: Routed = {
    side: 'server',
    direction: 'incoming',
    era: session && version === undefined ? 'legacy' : 'modern',
    protocolVersion: version ?? session?.protocolVersion,
    sessionId: session?.id,
    signal: NEVER,
    [ROUTE]: { kind: 'notification', session },
  };
  return ctx;
}

/**
 * The terminal of the incoming chain: dispatches to the server, on a channel whose signal,
 * principal and notifications are those of the ctx middleware passed on.
 */
function incomingTerminal(dispatch: ServerDispatch, outgoing: () => MessageHandler): MessageHandler {
  return async (message, ctx) => {
    const route = (ctx as Routed)[ROUTE];
    if (route.kind === 'notification') {
      const params = message.params;
      dispatch.notification(
        params === undefined
          ? { jsonrpc: '2.0', method: message.method }
          : { jsonrpc: '2.0', method: message.method, params },
        route.session,
      );
      return undefined;
    }
    if (route.kind !== 'request') throw new Error('an incoming message lost its route');
    const id = message.id ?? route.request.id;
    const request: JsonRpcRequest =
      message.params === undefined
        ? { jsonrpc: '2.0', id, method: message.method }
        : { jsonrpc: '2.0', id, method: message.method, params: message.params };
    return dispatch.request(request, new ChainedChannel(route.channel, ctx, outgoing()));
  };
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

  openSession(init: SessionInit): LegacySession {
    if (!this.#channel.openSession) throw new Error('this channel cannot open a session');
    const session = this.#channel.openSession(init);
    session.link = chainedLink(session, this.#outgoing);
    return session;
  }

  notify(method: string, params: Params): void {
    const ctx: Routed = {
      ...this.#ctx,
      direction: 'outgoing',
      [ROUTE]: { kind: 'notify', channel: this.#channel },
    };
    void this.#outgoing({ kind: 'notification', method, params }, ctx).catch(() => undefined);
  }
}

/** A session link whose requests and notifications pass through the outgoing chain. */
function chainedLink(session: LegacySession, outgoing: MessageHandler): SessionLink {
  const link = session.link;
  const base = (signal: AbortSignal): Routed => ({
    side: 'server',
    direction: 'outgoing',
    era: 'legacy',
    protocolVersion: session.protocolVersion,
    sessionId: session.id,
    signal,
    [ROUTE]: { kind: 'link', link },
  });
  return {
    request: async (method, params, options) =>
      (await outgoing({ kind: 'request', method, params }, base(options?.signal ?? NEVER))) ?? {},
    notify: (method, params) =>
      void outgoing({ kind: 'notification', method, params }, base(NEVER)).catch(() => undefined),
  };
}

/**
 * The terminal of the outgoing chain: a notification to the request's channel, or a
 * message on a session link.
 */
const outgoingTerminal: MessageHandler = async (message, ctx) => {
  const route = (ctx as Routed)[ROUTE];
  if (route.kind === 'notify') {
    route.channel.notify(message.method, message.params ?? {});
    return undefined;
  }
  if (route.kind !== 'link') throw new Error('an outgoing message lost its route');
  if (message.kind === 'notification') {
    route.link.notify(message.method, message.params);
    return undefined;
  }
  return route.link.request(message.method, message.params ?? {}, { signal: ctx.signal });
};
