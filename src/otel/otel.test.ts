import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, propagation, trace, SpanKind } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { createClient, streamableHttp, type Client } from '../client/index.js';
import { createServer } from '../server/index.js';
import { serve, type Served } from '../integrations/node/index.js';
import { tracing } from './index.js';

const exporter = new InMemorySpanExporter();
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
  );
});

afterAll(() => {
  trace.disable();
  propagation.disable();
  context.disable();
});

function textOf(result: { content?: unknown }): string {
  return ((result.content ?? []) as { text?: string }[])[0]?.text ?? '';
}

describe.each(['modern', 'legacy'] as const)('tracing through middleware (%s era, HTTP)', (era) => {
  const closers: (() => Promise<void>)[] = [];
  let client: Client;

  beforeAll(async () => {
    const inner = createServer({ name: 'inner', version: '1.0.0' }).use(tracing());
    inner.tool('inner', {}, (_args, ctx) => ({
      content: [{ type: 'text', text: String(ctx.meta.traceparent) }],
    }));
    const innerServed: Served = await serve(inner, { port: 0 });
    closers.push(() => innerServed.close());
    const nested = createClient({ name: 'nested', version: '1.0.0', era, middleware: [tracing()] });
    await nested.connect(streamableHttp(innerServed.url));
    closers.push(() => nested.close());

    const outer = createServer({ name: 'outer', version: '1.0.0' }).use(tracing());
    outer.tool('outer', {}, async () => ({ content: (await nested.callTool('inner', {})).content }));
    const outerServed = await serve(outer, { port: 0 });
    closers.push(() => outerServed.close());
    client = createClient({ name: 'top', version: '1.0.0', era, middleware: [tracing()] });
    await client.connect(streamableHttp(outerServed.url));
    closers.push(() => client.close());
  });

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('makes one trace of client → server → nested client → server, with the MCP attributes', async () => {
    exporter.reset();
    const result = await client.callTool('outer', {});
    const byName = (name: string, kind: SpanKind): ReadableSpan => {
      const span = exporter.getFinishedSpans().find((s) => s.name === name && s.kind === kind);
      if (!span) throw new Error(`no ${SpanKind[kind]} span ${name}`);
      return span;
    };
    const top = byName('tools/call outer', SpanKind.CLIENT);
    const outerServer = byName('tools/call outer', SpanKind.SERVER);
    const nestedClient = byName('tools/call inner', SpanKind.CLIENT);
    const innerServer = byName('tools/call inner', SpanKind.SERVER);
    const traceId = top.spanContext().traceId;
    for (const span of [outerServer, nestedClient, innerServer])
      expect(span.spanContext().traceId).toBe(traceId);
    expect(outerServer.parentSpanContext?.spanId).toBe(top.spanContext().spanId);
    expect(nestedClient.parentSpanContext?.spanId).toBe(outerServer.spanContext().spanId);
    expect(innerServer.parentSpanContext?.spanId).toBe(nestedClient.spanContext().spanId);
    // The trace context reached the inner handler in _meta, as the spec says.
    expect(textOf(result)).toMatch(new RegExp(`^00-${traceId}-${nestedClient.spanContext().spanId}-0[01]$`));
    expect(innerServer.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'inner',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': era === 'modern' ? '2026-07-28' : '2025-11-25',
    });
    expect(typeof innerServer.attributes['jsonrpc.request.id']).toBe('string');
    if (era === 'legacy') expect(typeof innerServer.attributes['mcp.session.id']).toBe('string');
  });

  it('records a JSON-RPC error as error.type on both spans', async () => {
    exporter.reset();
    await expect(client.request('prompts/get', { name: 'missing' })).rejects.toThrow();
    const spans = exporter.getFinishedSpans().filter((s) => s.name === 'prompts/get missing');
    expect(spans.map((s) => s.kind).sort()).toEqual([SpanKind.SERVER, SpanKind.CLIENT].sort());
    for (const span of spans) expect(span.attributes['error.type']).toMatch(/^-?\d+$/);
  });
});
