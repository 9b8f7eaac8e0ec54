/**
 * What happens to a client's message between the caller's middleware
 * (`createClient({ middleware: [...] })`) and the wire. Outgoing, from the outside in:
 *
 * 1. the caller's middleware, in array order, composed once per connection with
 *    `composeMiddleware`; the call's own options (timeouts, progress, Tasks, relay) travel
 *    to the terminal with the message and its ctx, so a middleware may rebuild either one
 *    (not both), and a second `next` for one message is refused (core/middleware.ts);
 * 2. modern `_meta`: on a modern request, the per-request protocol fields are added to
 *    `_meta` (the caller's own `_meta` keys kept), and a -32022 naming a version the
 *    client speaks is retried once with it (basic/versioning, {@link retryVersion});
 * 3. `x-mcp-header`: a modern `tools/list` result loses the tools whose annotations break
 *    the rules (each reported to `onWarning`), and a `tools/call` gets the
 *    `Mcp-Param-{Name}` headers of the annotated arguments (streamable-http "Custom
 *    Headers from Tool Parameters"; transports without headers ignore them; {@link ToolHeaders});
 * 4. the core Peer: the request gets its id (reported to `onRequestId`), is sent with the
 *    ctx's headers (and, when modern, its revision, so the transport need not read `_meta`),
 *    and is cancelled on the wire when the ctx's signal aborts.
 *
 * Steps 2–4 are the terminal (`Connection`), not middleware. Incoming (a legacy server's
 * requests and every notification): the caller's middleware, then the client's handlers.
 * The Peer's own traffic (responses, `notifications/cancelled` it sends for an aborted
 * request, progress routing to `onprogress`) is not a message the chain sees. The
 * deprecated HTTP+SSE fallback is a change of wire inside the HTTP transport, below it.
 */
import {
  ERROR_TABLE,
  LocalError,
  WireError,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type Params,
  type McpMessage,
  type MessageHandler,
  type MiddlewareContext,
  type ClientCapabilities,
  type RequestOptions,
  type SendOptions,
} from '../core/index.js';
import {
  checkToolHeaders,
  type HeaderAnnotation,
  headerValueOf,
  neverAborted,
  nextCalledTwice,
  valueAtPath,
} from '../core/runtime.js';
import { pickVersion } from './era.js';

/**
 * The version to retry a modern request with after a -32022, or undefined when there is
 * none to try (the error is another, or names no version this client speaks).
 */
export function retryVersion(error: unknown, current: string): string | undefined {
  if (!(error instanceof WireError) || error.code !== ERROR_TABLE.UnsupportedProtocolVersion.code)
    return undefined;
  const supported = (error.data as { supported?: unknown } | undefined)?.supported;
  // Retried once, even with the same version: a server may list the version it refused.
  return pickVersion(current, Array.isArray(supported) ? supported : []);
}

/**
 * Step 3, `x-mcp-header`: remembers the annotations of the tools each modern `tools/list`
 * lists (dropping the invalid ones) and mirrors annotated arguments into headers.
 */
export class ToolHeaders {
  readonly #byTool = new Map<string, HeaderAnnotation[]>();
  readonly #warn: (message: string) => void;

  /** `warn` is told of each tool rejected for its annotations. */
  constructor(warn: (message: string) => void) {
    this.#warn = warn;
  }

  /**
   * The headers of a modern `tools/call` with `params`: `headers` plus one
   * `Mcp-Param-{Name}` per annotated argument present; undefined when the tool has none.
   */
  headersFor(
    headers: Readonly<Record<string, string>> | undefined,
    params: Params | undefined,
  ): Record<string, string> | undefined {
    const name = params?.name;
    const annotations = typeof name === 'string' ? this.#byTool.get(name) : undefined;
    if (!annotations || annotations.length === 0) return undefined;
    const out: Record<string, string> = { ...headers };
    for (const { path, name: header } of annotations) {
      const text = headerValueOf(valueAtPath(params?.arguments, path));
      if (text !== undefined) out[`Mcp-Param-${header}`] = text;
    }
    return out;
  }

  /** A modern `tools/list` result without the tools whose `x-mcp-header` annotations are invalid. */
  screen(result: Params): Params {
    if (!Array.isArray(result.tools)) return result;
    const kept = result.tools.filter((tool: unknown) => {
      if (typeof tool !== 'object' || tool === null || typeof (tool as Params).name !== 'string') return true;
      const { name, inputSchema } = tool as { name: string; inputSchema?: unknown };
      const check = checkToolHeaders(inputSchema);
      if (check.ok) this.#byTool.set(name, check.annotations);
      else {
        this.#byTool.delete(name);
        this.#warn(`tool ${JSON.stringify(name)} rejected: ${check.reason}`);
      }
      return check.ok;
    });
    return kept.length === result.tools.length ? result : { ...result, tools: kept };
  }
}

/**
 * The Peer's options of one send: the call's, with the signal and headers the chain
 * handed the terminal, and the revision of a modern request for the transport.
 */
export function peerOptions(
  ctx: MiddlewareContext,
  call: RequestOptions,
  modernVersion: string | undefined,
): RequestOptions & SendOptions & { headers?: Readonly<Record<string, string>> | undefined } {
  const options: RequestOptions & { -readonly [K in keyof SendOptions]: SendOptions[K] } = {
    ...call,
    modernVersion,
  };
  if (ctx.signal !== neverAborted()) options.signal = ctx.signal;
  if (ctx.headers !== undefined) options.headers = ctx.headers;
  return options;
}

/** The JSON-RPC request frame of a middleware request message. */
export function requestOf(message: McpMessage): JsonRpcRequest {
  const id = message.id ?? 0;
  return message.params === undefined
    ? { jsonrpc: '2.0', id, method: message.method }
    : { jsonrpc: '2.0', id, method: message.method, params: message.params };
}

/** The JSON-RPC notification frame of a middleware notification message. */
export function notificationOf(message: McpMessage): JsonRpcNotification {
  return message.params === undefined
    ? { jsonrpc: '2.0', method: message.method }
    : { jsonrpc: '2.0', method: message.method, params: message.params };
}

/** Per-call options of `Connection.roundTrip`: the Peer's, plus what the client and the host add. */
export interface CallOptions extends RequestOptions {
  /** Extensions declared in this request's client capabilities only (modern), e.g. Tasks. */
  extensions?: Record<string, Params> | undefined;
  /** Return a `resultType: "task"` result as it is (the caller negotiated the Tasks extension). */
  acceptTask?: boolean | undefined;
  /** Return an `input_required` result as it is instead of answering it (MRTR relayed to the caller's client). */
  relayInputRequired?: boolean | undefined;
  /** Modern: the capabilities to declare in this request's `_meta` instead of this client's own. */
  clientCapabilities?: ClientCapabilities | undefined;
  /** A request sent before the era is settled that is modern all the same (the `server/discover` probe). */
  modernVersion?: string | undefined;
}

/**
 * One message on its way through the client's chains, carried on the message and the ctx
 * under a module-private symbol (a spread copy of either keeps it): the call's options the
 * terminal sends with, and whether the terminal was reached, so a second `next` fails
 * (core/middleware.ts).
 */
export interface Passage {
  readonly options: CallOptions;
  reached: boolean;
}
export const PASSAGE = Symbol('mcpkit.passage');
type Carrier = { readonly [PASSAGE]?: Passage | undefined };

/**
 * The message's passage the first time its terminal is reached; else the LocalError
 * `INVALID_ARGUMENT` to reject with (a second `next`, or a message and ctx both rebuilt).
 */
function pass(message: McpMessage, ctx: MiddlewareContext): Passage | LocalError {
  const passage = (message as Carrier)[PASSAGE] ?? (ctx as Carrier)[PASSAGE];
  if (passage === undefined)
    return new LocalError(
      'INVALID_ARGUMENT',
      'a middleware passed on neither the message nor the ctx the client gave it (or a spread copy)',
    );
  if (passage.reached) return nextCalledTwice(message.method);
  passage.reached = true;
  return passage;
}

/**
 * A chain's terminal that runs at most once per message, with the options its passage
 * carries: a second `next`, or a message and ctx both rebuilt, rejects with LocalError
 * `INVALID_ARGUMENT` instead.
 */
export function once(
  terminal: (message: McpMessage, ctx: MiddlewareContext, call: CallOptions) => Promise<Params | undefined>,
): MessageHandler {
  return (message, ctx) => {
    const passage = pass(message, ctx);
    return passage instanceof LocalError ? Promise.reject(passage) : terminal(message, ctx, passage.options);
  };
}
