/**
 * `mcpkit/otel`: OpenTelemetry tracing as middleware, on the server (`server.use(tracing())`)
 * and on the client (`createClient({ middleware: [tracing()] })`). Each request and each
 * notification gets a span named `{mcp.method.name} {target}` (kind SERVER for what a side
 * receives, CLIENT for what it sends) with the attributes of the OpenTelemetry semantic
 * conventions for MCP. Trace context travels in `params._meta` (`traceparent`,
 * `tracestate`, `baggage`), which the sender injects and the receiver extracts (2026-07-28
 * basic/index "_meta"); the client also sends it as HTTP headers, and a server reads those
 * headers when `_meta` carries none. Uses the globally registered tracer provider,
 * propagator and context manager of `@opentelemetry/api` (an optional peer dependency):
 * with none registered, a message costs a few property reads. Span names, attribute values
 * and status messages taken from the other side (a method, tool or prompt name, URI, request
 * id, session id, error message) are cut to {@link MAX_TEXT} characters: a peer decides their
 * length, an exporter should not have to.
 * Source: OpenTelemetry semantic conventions, "Semantic conventions for Model Context
 * Protocol (MCP)" (Development); 2026-07-28 basic/index "_meta".
 */
import {
  context,
  propagation,
  trace,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
  type Tracer,
  ProxyTracerProvider,
} from '@opentelemetry/api';
import { isServerErrorCode, methodFacts } from '../core/runtime.js';
import {
  ERROR_TABLE,
  WireError,
  type McpMessage,
  type Middleware,
  type MiddlewareContext,
  type Params,
} from '../core/index.js';

/** Options of {@link tracing}. */
export interface TracingOptions {
  /** The tracer to use (default: `trace.getTracer('mcpkit')` from the global provider). */
  tracer?: Tracer;
}

const TRACE_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

/** Most UTF-16 units of a span name, attribute value or status message built from peer text. */
const MAX_TEXT = 256;

/** `text` cut to {@link MAX_TEXT} units, never inside a surrogate pair, marked with `…`. */
function bounded(text: string): string {
  if (text.length <= MAX_TEXT) return text;
  let end = MAX_TEXT - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** The low-cardinality target of a span name: the tool or prompt name (a `name` target, core/methods.ts). */
function nameOf(message: McpMessage): string | undefined {
  const name = methodFacts(message.method)?.target === 'name' ? message.params?.name : undefined;
  return typeof name === 'string' ? bounded(name) : undefined;
}

function attributesOf(message: McpMessage, ctx: MiddlewareContext): Attributes {
  const attributes: Attributes = { 'mcp.method.name': bounded(message.method) };
  const target = nameOf(message);
  const feature = methodFacts(message.method)?.feature;
  if (target !== undefined && feature === 'tools') {
    attributes['gen_ai.tool.name'] = target;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  }
  if (target !== undefined && feature === 'prompts') attributes['gen_ai.prompt.name'] = target;
  const uri = message.params?.uri;
  if (message.method.startsWith('resources/') && typeof uri === 'string')
    attributes['mcp.resource.uri'] = bounded(uri);
  if (message.id !== undefined) attributes['jsonrpc.request.id'] = bounded(String(message.id));
  if (ctx.protocolVersion !== undefined) attributes['mcp.protocol.version'] = bounded(ctx.protocolVersion);
  if (ctx.sessionId !== undefined) attributes['mcp.session.id'] = bounded(ctx.sessionId);
  return attributes;
}

/**
 * Whether a JSON-RPC error code counts as an error for the span: every code on the side
 * that sent the request; on the side that served it only -32603 and -32000..-32099 (the
 * server's own failures, not the caller's mistakes), as the conventions say.
 */
function countsAsError(code: number, served: boolean): boolean {
  return !served || code === ERROR_TABLE.InternalError.code || isServerErrorCode(code);
}

/** Ends `span` with the outcome: a JSON-RPC error, a local error, or a tool result with `isError`. */
function finish(
  span: Span,
  served: boolean,
  outcome: { result?: Params | undefined; error?: unknown },
): void {
  const { error, result } = outcome;
  if (error instanceof WireError) {
    span.setAttribute('rpc.response.status_code', String(error.code));
    if (countsAsError(error.code, served)) {
      span.setAttribute('error.type', String(error.code));
      span.setStatus({ code: SpanStatusCode.ERROR, message: bounded(error.message) });
    }
  } else if (error !== undefined) {
    const type = (error as { code?: unknown }).code ?? (error as Error).name ?? 'Error';
    span.setAttribute('error.type', bounded(String(type)));
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: bounded(error instanceof Error ? error.message : String(error)),
    });
  } else if (result?.isError === true) {
    span.setAttribute('error.type', 'tool_error');
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** Runs `run` (which enters the span's context itself) and ends `span` with its outcome. */
async function traced(
  span: Span,
  served: boolean,
  run: () => Promise<Params | undefined>,
): Promise<Params | undefined> {
  try {
    const result = await run();
    finish(span, served, { result });
    return result;
  } catch (error) {
    finish(span, served, { error });
    throw error;
  }
}

/** Adds the current trace context to the params' `_meta` and to the ctx's HTTP headers. */
function inject(
  message: McpMessage,
  ctx: MiddlewareContext,
  active: Context,
): [McpMessage, MiddlewareContext] {
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  if (Object.keys(carrier).length === 0) return [message, ctx];
  const meta = { ...(message.params?._meta as Record<string, unknown> | undefined), ...carrier };
  return [
    { ...message, params: { ...message.params, _meta: meta } },
    { ...ctx, headers: { ...ctx.headers, ...carrier } },
  ];
}

/** The carrier of an incoming message's trace context: `_meta`, else the HTTP headers. */
function carrierOf(message: McpMessage, ctx: MiddlewareContext): Record<string, unknown> | undefined {
  const meta = message.params?._meta;
  if (typeof meta === 'object' && meta !== null && hasTraceKey(meta as Record<string, unknown>))
    return meta as Record<string, unknown>;
  const headers = ctx.headers;
  return headers !== undefined && hasTraceKey(headers) ? headers : undefined;
}

function hasTraceKey(carrier: Readonly<Record<string, unknown>>): boolean {
  return TRACE_KEYS.some((key) => typeof carrier[key] === 'string');
}

/**
 * The parent context an incoming message names: its `_meta` when that holds any of
 * `traceparent`, `tracestate`, `baggage`; otherwise the HTTP request's headers (server on
 * Streamable HTTP); otherwise the active context. `_meta` wins because it belongs to the
 * message itself, while one HTTP request's headers describe the whole exchange.
 */
function extract(message: McpMessage, ctx: MiddlewareContext): Context {
  const carrier = carrierOf(message, ctx);
  return carrier === undefined
    ? context.active()
    : propagation.extract(context.active(), carrier, metaGetter);
}

/** The global provider's delegate while no SDK has registered one. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();

/**
 * True when nothing would record or pass on a span: the default tracer of a global
 * provider no SDK has replaced, and no propagator. Checked per message, since an SDK may
 * be registered after the middleware is installed.
 */
function idle(custom: boolean): boolean {
  if (custom) return false;
  const provider = trace.getTracerProvider();
  if (!(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NOOP_PROVIDER) return false;
  return propagation.fields().length === 0;
}

/** The span's name: `{mcp.method.name} {tool or prompt name}`, or the method alone. */
function spanName(message: McpMessage): string {
  const target = nameOf(message);
  const method = bounded(message.method);
  return target === undefined ? method : `${method} ${target}`;
}

/**
 * The tracing middleware, for either side. Incoming requests and notifications get a
 * SERVER span whose parent is the trace context in `_meta` (or, failing that, in the HTTP
 * request's headers); outgoing ones get a CLIENT span, child of the active context, whose
 * context is injected into `_meta` (and HTTP headers). An outgoing notification's span
 * ends once it is handed to the transport (there is no acknowledgement). Handlers run with
 * the server span active, so calls they make with a traced client join the same trace
 * (given a context manager, e.g. `@opentelemetry/context-async-hooks`).
 */
export function tracing(options: TracingOptions = {}): Middleware {
  const custom = options.tracer !== undefined;
  const tracer = options.tracer ?? trace.getTracer('mcpkit');
  return (next) => (message, ctx) => {
    if (idle(custom)) return next(message, ctx);
    const incoming = ctx.direction === 'incoming';
    const parent = incoming ? extract(message, ctx) : context.active();
    const span = tracer.startSpan(
      spanName(message),
      { kind: incoming ? SpanKind.SERVER : SpanKind.CLIENT },
      parent,
    );
    // Nothing records and no propagator passes context on: stay out of the way.
    if (!span.isRecording() && propagation.fields().length === 0) {
      span.end();
      return next(message, ctx);
    }
    span.setAttributes(attributesOf(message, ctx));
    const active = trace.setSpan(parent, span);
    if (incoming) return traced(span, true, () => context.with(active, next, undefined, message, ctx));
    const [sent, sentCtx] = inject(message, ctx, active);
    return traced(span, false, () => context.with(active, next, undefined, sent, sentCtx));
  };
}
