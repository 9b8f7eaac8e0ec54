/**
 * Tracing with `mcpkit/otel`: an OpenTelemetry SDK is registered (tracer provider, W3C
 * propagators, async-hooks context manager), `tracing()` is installed on a server and on a
 * client, and one tool call makes one trace: the client's CLIENT span, the server's SERVER
 * span (its parent, found through `traceparent` in `_meta`), and the span of the log
 * notification the tool sends back. Each finished span is printed as one line.
 *
 * Run: npm run build && node dist/examples/tracing.js
 * In your project, import from 'mcpkit/server', 'mcpkit/client', 'mcpkit/otel' and
 * 'mcpkit/testing', and install @opentelemetry/api with the SDK packages you use.
 */
import { context, propagation, trace, SpanKind } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { createClient } from '../src/client/index.js';
import { tracing } from '../src/otel/index.js';
import { connect, createServer } from '../src/server/index.js';
import { createLinkedPair } from '../src/testing/index.js';

/** Prints each finished span: kind, name, trace id, and its parent's span id. */
const printer: SpanExporter = {
  export(spans: ReadableSpan[], done) {
    for (const span of spans) {
      const parent = span.parentSpanContext?.spanId ?? 'root';
      const { traceId, spanId } = span.spanContext();
      console.log(`${SpanKind[span.kind]} ${span.name} trace=${traceId} span=${spanId} parent=${parent}`);
    }
    done({ code: 0 });
  },
  shutdown: async () => undefined,
};

async function main(): Promise<void> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(printer)] }),
  );

  const server = createServer({ name: 'traced', version: '1.0.0' }).use(tracing());
  server.tool('greet', {}, (_args, ctx) => {
    ctx.log('info', 'greeting someone');
    return 'hello';
  });
  const [clientEnd, serverEnd] = createLinkedPair();
  await connect(server, serverEnd);
  const client = createClient({
    name: 'example',
    version: '1.0.0',
    logLevel: 'info',
    middleware: [tracing()],
  });
  await client.connect(clientEnd);
  await client.callTool('greet', {});
  await client.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
