/**
 * Which era a message belongs to: the one rule every place that asks uses (the server's
 * routing, the middleware ctx, the HTTP endpoint's choice between its modern and legacy
 * paths), so they cannot disagree.
 *
 * In order: an era the transport already established (a stream or exchange bound modern);
 * an `MCP-Protocol-Version` header naming a modern revision; a protocol version key in
 * `_meta` with any value (a number or `null` claims modern metadata too, and is answered
 * as a malformed modern request, -32602, never served as legacy); `initialize`; the legacy
 * session the message arrived in. Otherwise the message alone does not say (undefined):
 * the server then treats it as modern, and the HTTP endpoint looks for its session.
 * Source: 2026-07-28 basic/versioning "Backward Compatibility" (a dual-era server selects
 * its behavior from how the client opens), basic/index "_meta" (the version is a string,
 * required), basic/transports/streamable-http "Protocol Version Header".
 */
import { isObject, type Params } from './jsonrpc.js';
import { META, isModernRevision, type Era } from './revisions.js';

/** The part of a message the era rule reads (unchecked input is fine: a decoded body). */
export interface EraMessage {
  readonly method?: unknown;
  readonly params?: Params | unknown;
}

/** What the transport knows about a message besides the message itself. */
export interface EraSource {
  /** The era the transport already established for this message, if any. */
  readonly era?: Era | undefined;
  /** The HTTP request's headers (Streamable HTTP); `MCP-Protocol-Version` is read from them. */
  readonly headers?: { get(name: string): string | null } | undefined;
  /** The legacy session the message arrived in, if any. */
  readonly session?: { readonly protocolVersion: string } | undefined;
}

/**
 * The era `message` belongs to (see the module comment); undefined when neither the
 * transport nor the message says. `message` undefined: a request without a body (GET) or a batch.
 */
export function eraOf(message: EraMessage | null | undefined, source: EraSource): Era | undefined {
  if (source.era !== undefined) return source.era;
  if (source.headers && isModernRevision(source.headers.get('mcp-protocol-version')?.trim())) return 'modern';
  if (message === undefined || message === null) return undefined;
  if (metaVersion(message.params) !== undefined) return 'modern';
  if (message.method === 'initialize' || source.session) return 'legacy';
  return undefined;
}

/**
 * The revision a message of `era` is under: modern, the `_meta` protocol version when it
 * is a string (a non-string is no revision); legacy, the session's negotiated one.
 */
export function revisionOf(message: EraMessage, era: Era, source?: EraSource): string | undefined {
  if (era === 'legacy') return source?.session?.protocolVersion;
  const version = metaVersion(message.params);
  return typeof version === 'string' ? version : undefined;
}

/** The value `_meta` gives the protocol version key; undefined when it has none. */
function metaVersion(params: unknown): unknown {
  const meta = isObject(params) ? params._meta : undefined;
  return isObject(meta) ? meta[META.protocolVersion] : undefined;
}
