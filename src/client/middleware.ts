/**
 * The client's middleware chains (`createClient({ middleware: [...] })`) and the built-in
 * steps that run inside them. Outgoing, from the outside in:
 *
 * 1. the caller's middleware, in array order;
 * 2. modern `_meta`: on a modern request, the per-request protocol fields are added to
 *    `_meta` (the caller's own `_meta` keys kept), and a -32022 naming a version the
 *    client speaks is retried once with it (basic/versioning);
 * 3. `x-mcp-header`: a modern `tools/list` result loses the tools whose annotations break
 *    the rules (each reported to `onWarning`), and a `tools/call` gets the
 *    `Mcp-Param-{Name}` headers of the annotated arguments (streamable-http "Custom
 *    Headers from Tool Parameters"; transports without headers ignore them);
 * 4. the core Peer: the request gets its id (reported to `onRequestId`), is sent with the
 *    ctx's headers, and is cancelled on the wire when the ctx's signal aborts.
 *
 * Incoming (a legacy server's requests and every notification): the caller's middleware,
 * then the client's handlers. The Peer's own traffic (responses, `notifications/cancelled`
 * it sends for an aborted request, progress routing to `onprogress`) is not a message the
 * chain sees. The deprecated HTTP+SSE fallback is a change of wire inside the HTTP
 * transport, below the chain.
 */
import { ERROR_TABLE, McpError } from '../core/errors.js';
import type { Params } from '../core/jsonrpc.js';
import type { MessageHandler, Middleware, MiddlewareContext } from '../core/middleware.js';
import type { RequestOptions } from '../core/peer.js';
import { checkToolHeaders, headerValueOf, valueAtPath, type HeaderAnnotation } from '../core/wire.js';
import { pickVersion } from './era.js';

/** The per-call options a chain passes to its terminal, out of middleware's sight. */
export const CALL_OPTIONS = Symbol('mcpkit.callOptions');

/** A ctx that carries the caller's Peer options. */
export interface CallContext extends MiddlewareContext {
  readonly [CALL_OPTIONS]?: RequestOptions | undefined;
}

/** What the modern `_meta` step needs from its connection. */
export interface MetaStepHost {
  /** The params with the modern `_meta` of `version` (and the call's extensions, read from `ctx`). */
  withMeta(version: string, params: Params | undefined, ctx: MiddlewareContext): Params;
  /** Moves the connection to another version after a -32022. */
  setVersion(version: string): void;
}

/** Step 2: modern `_meta` and the -32022 retry. */
export function modernMetaStep(host: MetaStepHost): Middleware {
  return (next) => (message, ctx) => {
    const current = ctx.protocolVersion;
    if (ctx.era !== 'modern' || message.kind !== 'request' || current === undefined)
      return next(message, ctx);
    const sent = { ...message, params: host.withMeta(current, message.params, ctx) };
    return next(sent, ctx).catch((error: unknown) => {
      const version = retryVersion(error, current);
      if (version === undefined) throw error;
      host.setVersion(version);
      const retried = { ...message, params: host.withMeta(version, message.params, ctx) };
      return next(retried, { ...ctx, protocolVersion: version });
    });
  };
}

/** The version to retry with after a -32022, or undefined when there is none to try. */
function retryVersion(error: unknown, current: string): string | undefined {
  if (!(error instanceof McpError) || error.code !== ERROR_TABLE.UnsupportedProtocolVersion.code)
    return undefined;
  const supported = (error.data as { supported?: unknown } | undefined)?.supported;
  // Retried once, even with the same version: a server may list the version it refused.
  return pickVersion(current, Array.isArray(supported) ? supported : []);
}

/**
 * Step 3: `x-mcp-header`. Remembers the annotations of the tools each modern `tools/list`
 * lists (dropping the invalid ones) and mirrors annotated arguments into headers.
 */
export function toolHeaderStep(warn: (message: string) => void): {
  step: Middleware;
  forget(): void;
} {
  const byTool = new Map<string, HeaderAnnotation[]>();
  const step: Middleware = (next) => (message, ctx) => {
    if (ctx.era !== 'modern' || message.kind !== 'request') return next(message, ctx);
    if (message.method === 'tools/call') return next(message, withParamHeaders(ctx, byTool, message.params));
    if (message.method !== 'tools/list') return next(message, ctx);
    return next(message, ctx).then((result) => result && screen(result, byTool, warn));
  };
  return { step, forget: () => byTool.clear() };
}

function withParamHeaders(
  ctx: MiddlewareContext,
  byTool: Map<string, HeaderAnnotation[]>,
  params: Params | undefined,
): MiddlewareContext {
  const name = params?.name;
  const annotations = typeof name === 'string' ? byTool.get(name) : undefined;
  if (!annotations || annotations.length === 0) return ctx;
  const headers: Record<string, string> = { ...ctx.headers };
  for (const { path, name: header } of annotations) {
    const text = headerValueOf(valueAtPath(params?.arguments, path));
    if (text !== undefined) headers[`Mcp-Param-${header}`] = text;
  }
  return { ...ctx, headers };
}

function screen(result: Params, byTool: Map<string, HeaderAnnotation[]>, warn: (m: string) => void): Params {
  if (!Array.isArray(result.tools)) return result;
  const kept = result.tools.filter((tool: unknown) => {
    if (typeof tool !== 'object' || tool === null || typeof (tool as Params).name !== 'string') return true;
    const { name, inputSchema } = tool as { name: string; inputSchema?: unknown };
    const check = checkToolHeaders(inputSchema);
    if (check.ok) byTool.set(name, check.annotations);
    else {
      byTool.delete(name);
      warn(`tool ${JSON.stringify(name)} rejected: ${check.reason}`);
    }
    return check.ok;
  });
  return kept.length === result.tools.length ? result : { ...result, tools: kept };
}

/** Builds a chain: the caller's middleware outside, the built-in steps inside, then `terminal`. */
export function clientChain(
  middleware: readonly Middleware[],
  builtIn: readonly Middleware[],
  terminal: MessageHandler,
): MessageHandler {
  let handler = terminal;
  for (const mw of [...middleware, ...builtIn].reverse()) handler = mw(handler);
  return handler;
}
