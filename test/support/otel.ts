/**
 * Registers a real OpenTelemetry SDK for a test file: the async-hooks context manager, the
 * W3C trace-context and baggage propagators, and a tracer provider exporting to an
 * in-memory exporter. Call {@link installTracing} in `beforeAll` and its `uninstall` in
 * `afterAll` (vitest runs each file in its own worker, so the globals do not leak).
 */
import { context, propagation, trace, SpanKind } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/** The registered SDK: its exporter, and how to take it down again. */
export interface InstalledTracing {
  exporter: InMemorySpanExporter;
  uninstall(): void;
}

/** Registers the SDK globally (see the module comment). */
export function installTracing(): InstalledTracing {
  const exporter = new InMemorySpanExporter();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
  return {
    exporter,
    uninstall: () => {
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** The finished span called `name` of `kind`, or undefined. */
export function findSpan(
  exporter: InMemorySpanExporter,
  name: string,
  kind: SpanKind,
): ReadableSpan | undefined {
  return exporter.getFinishedSpans().find((s) => s.name === name && s.kind === kind);
}
