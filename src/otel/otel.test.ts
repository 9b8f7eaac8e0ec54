import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createClient, streamableHttp, type Client } from '../client/index.js';
import { WireError } from '../core/index.js';
import { connect, createServer } from '../server/index.js';
import { Peer } from '../core/peer.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { serve, type Served } from '../integrations/node/index.js';
import { findSpan, installTracing, type InstalledTracing } from '../../test/support/otel.js';
import { tracing } from './index.js';

let installed: InstalledTracing;
beforeAll(() => {
  installed = installTracing();
});
afterAll(() => installed?.uninstall());

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
    outer.use((next) => (message, ctx) => {
      if (message.method === 'tools/call' && message.params?.name === 'broken')
        return Promise.reject(WireError.of('InternalError', 'broken on purpose'));
      return next(message, ctx);
    });
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
    installed.exporter.reset();
    const result = await client.callTool('outer', {});
    const byName = (name: string, kind: SpanKind): ReadableSpan => {
      const span = findSpan(installed.exporter, name, kind);
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

  it('records a refused request as an error on the client span only (the caller erred, not the server)', async () => {
    installed.exporter.reset();
    await expect(client.request('prompts/get', { name: 'missing' })).rejects.toThrow();
    const spans = installed.exporter.getFinishedSpans().filter((s) => s.name === 'prompts/get missing');
    const sent = spans.find((s) => s.kind === SpanKind.CLIENT);
    const served = spans.find((s) => s.kind === SpanKind.SERVER);
    expect(sent?.attributes['error.type']).toMatch(/^-326\d\d$/);
    expect(sent?.status.code).toBe(SpanStatusCode.ERROR);
    expect(served?.attributes['rpc.response.status_code']).toBe(sent?.attributes['error.type']);
    expect(served?.attributes['error.type']).toBeUndefined();
    expect(served?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records a server failure (-32603) as an error on both spans', async () => {
    installed.exporter.reset();
    await expect(client.request('tools/call', { name: 'broken', arguments: {} })).rejects.toThrow();
    const spans = installed.exporter.getFinishedSpans().filter((s) => s.name === 'tools/call broken');
    expect(spans.map((s) => [s.kind, s.attributes['error.type']]).sort()).toEqual(
      [
        [SpanKind.CLIENT, '-32603'],
        [SpanKind.SERVER, '-32603'],
      ].sort(),
    );
  });
});

describe('text a peer decides the length of', () => {
  it('is cut to 256 characters in span names, attributes and status messages, never inside a surrogate pair', async () => {
    installed.exporter.reset();
    const server = createServer({ name: 's', version: '1.0.0' }).use(tracing());
    server.resource('notes://a', { name: 'a' }, (uri) => [{ uri, text: 'a' }]);
    const [a, b] = createLinkedPair();
    await connect(server, b);
    const peer = new Peer(a, { request: async () => ({}) });
    await peer.start();
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const long = `${'t'.repeat(254)}😀${'x'.repeat(20_000)}`;
    await expect(peer.request('tools/call', { _meta, name: long, arguments: {} })).rejects.toThrow();
    await expect(peer.request('resources/read', { _meta, uri: `notes://${long}` })).rejects.toThrow();
    await expect(peer.request(`x/${long}`, { _meta })).rejects.toThrow();
    await peer.close();
    const spans = installed.exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER);
    const call = spans.find((s) => s.attributes['mcp.method.name'] === 'tools/call');
    const tool = String(call?.attributes['gen_ai.tool.name']);
    expect(tool).toBe(`${'t'.repeat(254)}…`);
    expect(call?.name).toBe(`tools/call ${tool}`);
    expect(spans.map((s) => s.attributes['mcp.method.name'])).toEqual([
      'tools/call',
      'resources/read',
      `x/${'t'.repeat(253)}…`,
    ]);
    for (const span of spans) {
      for (const value of Object.values(span.attributes))
        expect(String(value).length).toBeLessThanOrEqual(256);
      expect(span.name.length).toBeLessThanOrEqual(2 * 256 + 1);
      expect((span.status.message ?? '').length).toBeLessThanOrEqual(256);
    }
  });
});
