/**
 * The ctx objects the server's middleware chains pass around, built cheaply: plain data
 * properties, plus one accessor for an incoming request's `signal`. Transports make a
 * request's AbortSignal only when something reads it (an AbortController costs more than
 * the rest of the seam), so that accessor asks on first read. It is an own, enumerable
 * property, so `{ ...ctx, auth }` keeps the signal. Where a message goes once the chain is
 * through with it rides on the ctx under a symbol, out of middleware's sight (spreading a
 * ctx keeps it too).
 */
import type { McpMessage, MiddlewareContext } from '../core/middleware.js';
import type { JsonRpcRequest } from '../core/jsonrpc.js';
import type { Era } from '../core/revisions.js';
import { eraOf, revisionOf } from '../core/era.js';
import type { HeaderReader, RequestChannel } from './channel.js';
import type { LegacySession, SessionLink } from './legacy/session.js';

const ROUTE = Symbol('mcpkit.route');

/** Where a message goes once the chain is through with it. */
export type Route =
  | { kind: 'request'; channel: RequestChannel; request: JsonRpcRequest }
  | { kind: 'notification'; session: LegacySession | undefined; headers: HeaderReader | undefined }
  | { kind: 'notify'; channel: RequestChannel; parent: MiddlewareContext }
  | { kind: 'link'; link: SessionLink };

interface Routed extends MiddlewareContext {
  readonly [ROUTE]: Route;
}

const NEVER = new AbortController().signal;

/** The route a ctx carries; undefined when a middleware built a ctx of its own. */
export function routeOf(ctx: MiddlewareContext): Route | undefined {
  return (ctx as Partial<Routed>)[ROUTE];
}

/** `signal` of a ctx, read from its route when first asked. */
const LAZY_SIGNAL: PropertyDescriptor = {
  enumerable: true,
  get(this: Routed): AbortSignal {
    const route = this[ROUTE];
    if (route.kind === 'request') return route.channel.signal;
    return route.kind === 'notify' ? route.parent.signal : NEVER;
  },
};

/** The era and revision the server will treat a message as (core/era.ts, as dispatch routes). */
function eraAndRevision(message: McpMessage, route: Route): { era: Era; version: string | undefined } {
  const source = route.kind === 'request' ? route.channel : route.kind === 'notification' ? route : {};
  const era = eraOf(message, source) ?? 'modern';
  return { era, version: revisionOf(message, era, source) };
}

/** The ctx of a request or notification from a client. */
export function incomingContext(message: McpMessage, route: Route): MiddlewareContext {
  const { era, version } = eraAndRevision(message, route);
  if (route.kind !== 'request') {
    const session = route.kind === 'notification' ? route.session : undefined;
    const headers = route.kind === 'notification' ? route.headers : undefined;
    const ctx: Routed = {
      side: 'server',
      direction: 'incoming',
      era,
      protocolVersion: version,
      sessionId: session?.id,
      signal: NEVER,
      headers: headers && headerRecord(headers),
      [ROUTE]: route,
    };
    return ctx;
  }
  const { channel } = route;
  const ctx = {
    side: 'server',
    direction: 'incoming',
    era,
    protocolVersion: version,
    sessionId: channel.session?.id,
    auth: channel.authInfo,
    headers: channel.headers && headerRecord(channel.headers),
    [ROUTE]: route,
  } as const;
  return Object.defineProperty(ctx, 'signal', LAZY_SIGNAL) as Routed;
}

/** The ctx of a notification tied to the request whose ctx is `parent`. */
export function notifyContext(parent: MiddlewareContext, route: Route): MiddlewareContext {
  const ctx = {
    side: 'server',
    direction: 'outgoing',
    era: parent.era,
    protocolVersion: parent.protocolVersion,
    sessionId: parent.sessionId,
    auth: parent.auth,
    [ROUTE]: route,
  } as const;
  return Object.defineProperty(ctx, 'signal', LAZY_SIGNAL) as Routed;
}

/** The ctx of a message the server sends on a legacy session. */
export function linkContext(session: LegacySession, route: Route, signal = NEVER): MiddlewareContext {
  const ctx: Routed = {
    side: 'server',
    direction: 'outgoing',
    era: 'legacy',
    protocolVersion: session.protocolVersion,
    sessionId: session.id,
    signal,
    [ROUTE]: route,
  };
  return ctx;
}

/** A header reader as a plain record of lowercase names; undefined when it cannot list them. */
function headerRecord(reader: HeaderReader): Readonly<Record<string, string>> | undefined {
  if (!reader.forEach) return undefined;
  const record: Record<string, string> = {};
  reader.forEach((value, name) => (record[name.toLowerCase()] = value));
  return record;
}
