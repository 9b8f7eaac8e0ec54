/**
 * The one extension seam of mcpkit, on both sides: middleware wraps the function that
 * handles a message and returns a new one, in the manner of tRPC links and undici
 * interceptors. It sees every request and notification, incoming and outgoing, with its
 * method, params, era, principal and AbortSignal, and may change it, answer it (return a
 * result without calling `next`), refuse it (throw an `WireError`: the caller gets that
 * JSON-RPC error), time it, or cancel it (call `next` with a ctx whose `signal` aborts).
 * Core holds only the shapes and the composition; the server and the client run the chain.
 */
import { LocalError } from './errors.js';
import type { Params, RequestId } from './jsonrpc.js';
import type { Era } from './revisions.js';

/**
 * The principal a request acts for, when a transport or an auth middleware established
 * it (an OAuth access token's subject, client and scopes).
 */
export interface AuthInfo {
  /** The principal (user or client) the credentials belong to. */
  readonly subject?: string;
  readonly clientId?: string;
  readonly scopes?: readonly string[];
  readonly token?: string;
  /** When the credentials expire, in seconds since the epoch. */
  readonly expiresAt?: number;
  /** The verified token's claims (JWT payload or introspection answer). */
  readonly claims?: Readonly<Record<string, unknown>>;
  readonly extra?: Record<string, unknown>;
}

/** A request or a notification as middleware sees it. */
export interface McpMessage {
  /** `'request'` expects a result; `'notification'` does not (its `next` resolves undefined). */
  readonly kind: 'request' | 'notification';
  readonly method: string;
  /** The params as they go on the wire (`_meta` included). */
  readonly params?: Params | undefined;
  /**
   * The JSON-RPC id of an incoming request. Outgoing requests get their id when they are
   * sent, after the chain (see the client's `onRequestId`), so it is absent there.
   */
  readonly id?: RequestId | undefined;
}

/** What middleware knows about a message besides the message itself. */
export interface MiddlewareContext {
  /** Which side runs the chain. */
  readonly side: 'server' | 'client';
  /** `'incoming'`: from the peer to us. `'outgoing'`: from us to the peer. */
  readonly direction: 'incoming' | 'outgoing';
  /**
   * The era the message belongs to; undefined on a client while the era is still being
   * settled (the `server/discover` probe, `initialize`).
   */
  readonly era: Era | undefined;
  /** The revision in use, when known (modern: the one in `_meta`; legacy: the negotiated one). */
  readonly protocolVersion: string | undefined;
  /** `Mcp-Session-Id` of a legacy Streamable HTTP session; undefined elsewhere. */
  readonly sessionId?: string | undefined;
  /**
   * Aborted when the request is cancelled (by the peer, the caller, or the connection
   * closing). A middleware cancels a request by passing `next` a ctx whose signal aborts:
   * on the client the request is then cancelled on the wire; on the server the handler's
   * `ctx.signal` aborts.
   */
  readonly signal: AbortSignal;
  /**
   * The principal, when known. An auth middleware sets it (`next(message, { ...ctx, auth })`)
   * and server handlers read it as `ctx.auth`.
   */
  readonly auth?: AuthInfo | undefined;
  /**
   * HTTP headers. Client, outgoing: extra headers sent with the message (add one with
   * `next(message, { ...ctx, headers: { ...ctx.headers, name: value } })`; stdio ignores
   * them; the protocol's own headers win). Server, incoming on Streamable HTTP (both eras):
   * the headers of the HTTP request that carried the message, by lowercase name (a repeated
   * header's values joined with `, `), already checked against the spec's header rules;
   * undefined on other transports. A copy per message: changing it changes nothing.
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Client, incoming notification: the id of our request whose stream carried it, when the
   * transport tells (Streamable HTTP: that POST's SSE stream); undefined elsewhere.
   */
  readonly relatedRequestId?: RequestId | undefined;
}

/**
 * Handles one message: resolves with the result of a request (the `result` object of the
 * response) or undefined for a notification. Rejects with `WireError` for a JSON-RPC error.
 */
export type MessageHandler = (message: McpMessage, ctx: MiddlewareContext) => Promise<Params | undefined>;

/**
 * A middleware: given the rest of the chain (`next`), returns the handler that runs in its
 * place. One rule on both sides: a chain is composed once, not per message (the server's
 * when it first serves and again after each `use()`; the client's when it connects), so
 * `(next) => …` runs once per chain and `(message, ctx) => …` once per message. Keep
 * per-message state inside the handler. What the chain's end needs to know about one
 * message (the server's request scope, the client's call options) travels with the message
 * and the ctx it was given, so pass either on (or a spread copy of it).
 *
 * A middleware calls `next` at most once per message: it may answer without calling it,
 * but a second call is refused (its promise rejects with LocalError `INVALID_ARGUMENT`),
 * so the server never runs a handler twice and the client never sends a request twice.
 * To retry, make a new request.
 */
export type Middleware = (next: MessageHandler) => MessageHandler;

/**
 * Builds the chain once: `middleware[0]` runs first (outermost) and `terminal` last.
 * With no middleware the terminal itself is returned (no cost per message). The terminal
 * is what refuses a second `next` for one message (see {@link Middleware}).
 */
export function composeMiddleware(
  middleware: readonly Middleware[],
  terminal: MessageHandler,
): MessageHandler {
  let handler = terminal;
  for (let i = middleware.length - 1; i >= 0; i--) handler = (middleware[i] as Middleware)(handler);
  return handler;
}

/**
 * The error of a second `next` for one message (see {@link Middleware}): LocalError
 * `INVALID_ARGUMENT` naming the method.
 */
export function nextCalledTwice(method: string): LocalError {
  return new LocalError(
    'INVALID_ARGUMENT',
    `a middleware called next twice for one ${method} message; each message is handled or sent once`,
  );
}

let never: AbortSignal | undefined;

/**
 * The signal of a call that has none: it never aborts. Made on first use, since strict
 * runtimes (workerd) refuse `new AbortController()` in global scope.
 */
export function neverAborted(): AbortSignal {
  return (never ??= new AbortController().signal);
}
