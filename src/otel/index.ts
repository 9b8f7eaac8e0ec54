/**
 * `mcpkit/otel`: OpenTelemetry tracing as middleware, on the server (`server.use(tracing())`)
 * and on the client (`createClient({ middleware: [tracing()] })`). Each request gets a span
 * named `{mcp.method.name} {target}` (kind SERVER for what a side receives, CLIENT for what
 * it sends) with the attributes of the OpenTelemetry semantic conventions for MCP. Trace
 * context travels in `params._meta` (`traceparent`, `tracestate`, `baggage`), which the
 * client injects and the server extracts (2026-07-28 basic/index "_meta"); the client also
 * sends it as HTTP headers. Uses the globally registered tracer provider, propagator and
 * context manager of `@opentelemetry/api` (an optional peer dependency): with no SDK
 * registered every call is a no-op. Notifications are not traced.
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
} from '@opentelemetry/api';
import {
  McpError,
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

const metaGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** The low-cardinality target of a span name: the tool or prompt name. */
function targetOf(message: McpMessage): string | undefined {
  const name = message.params?.name;
  return (message.method === 'tools/call' || message.method === 'prompts/get') && typeof name === 'string'
    ? name
    : undefined;
}

function attributesOf(message: McpMessage, ctx: MiddlewareContext): Attributes {
  const attributes: Attributes = { 'mcp.method.name': message.method };
  const target = targetOf(message);
  if (message.method === 'tools/call' && target !== undefined) {
    attributes['gen_ai.tool.name'] = target;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  }
  if (message.method === 'prompts/get' && target !== undefined) attributes['gen_ai.prompt.name'] = target;
  const uri = message.params?.uri;
  if (message.method.startsWith('resources/') && typeof uri === 'string')
    attributes['mcp.resource.uri'] = uri;
  if (message.id !== undefined) attributes['jsonrpc.request.id'] = String(message.id);
  if (ctx.protocolVersion !== undefined) attributes['mcp.protocol.version'] = ctx.protocolVersion;
  if (ctx.sessionId !== undefined) attributes['mcp.session.id'] = ctx.sessionId;
  return attributes;
}

/** Ends `span` with the outcome: a JSON-RPC error, a local error, or a tool result with `isError`. */
function finish(span: Span, outcome: { result?: Params | undefined; error?: unknown }): void {
  const { error, result } = outcome;
  if (error instanceof McpError) {
    span.setAttributes({ 'error.type': String(error.code), 'rpc.response.status_code': String(error.code) });
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  } else if (error !== undefined) {
    const type = (error as { code?: unknown }).code ?? (error as Error).name ?? 'Error';
    span.setAttribute('error.type', String(type));
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
  } else if (result?.isError === true) {
    span.setAttribute('error.type', 'tool_error');
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

async function traced(
  span: Span,
  parent: Context,
  run: () => Promise<Params | undefined>,
): Promise<Params | undefined> {
  try {
    const result = await context.with(trace.setSpan(parent, span), run);
    finish(span, { result });
    return result;
  } catch (error) {
    finish(span, { error });
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

/** The parent context a request names in `_meta` (falls back to the active context). */
function extract(message: McpMessage): Context {
  const meta = message.params?._meta;
  if (typeof meta !== 'object' || meta === null) return context.active();
  const carrier = meta as Record<string, unknown>;
  if (!TRACE_KEYS.some((key) => typeof carrier[key] === 'string')) return context.active();
  return propagation.extract(context.active(), carrier, metaGetter);
}

/**
 * The tracing middleware, for either side. Incoming requests get a SERVER span whose parent
 * is the trace context in `_meta`; outgoing requests get a CLIENT span, child of the active
 * context, whose context is injected into `_meta` (and HTTP headers). Handlers run with the
 * server span active, so calls they make with a traced client join the same trace (given a
 * context manager, e.g. `@opentelemetry/context-async-hooks`).
 */
export function tracing(options: TracingOptions = {}): Middleware {
  const tracer = options.tracer ?? trace.getTracer('mcpkit');
  return (next) => (message, ctx) => {
    if (message.kind !== 'request') return next(message, ctx);
    const target = targetOf(message);
    const name = target === undefined ? message.method : `${message.method} ${target}`;
    const incoming = ctx.direction === 'incoming';
    const parent = incoming ? extract(message) : context.active();
    const span = tracer.startSpan(name, { kind: incoming ? SpanKind.SERVER : SpanKind.CLIENT }, parent);
    // No SDK and no propagator registered: nothing to record or pass on, so stay out of the way.
    if (!span.isRecording() && propagation.fields().length === 0) {
      span.end();
      return next(message, ctx);
    }
    span.setAttributes(attributesOf(message, ctx));
    if (incoming) return traced(span, parent, () => next(message, ctx));
    const [sent, sentCtx] = inject(message, ctx, trace.setSpan(parent, span));
    return traced(span, parent, () => next(sent, sentCtx));
  };
}
