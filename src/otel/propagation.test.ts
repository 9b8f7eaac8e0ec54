import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanKind } from '@opentelemetry/api';
import { createClient, streamableHttp, type Client } from '../client/index.js';
import type { Middleware } from '../core/index.js';
import { createServer } from '../server/index.js';
import { serve, type Served } from '../integrations/node/index.js';
import { findSpan, installTracing, type InstalledTracing } from '../../test/support/otel.js';
import { until } from '../../test/support/wait.js';
import { tracing } from './index.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const HEADER_PARENT = `00-${TRACE}-00f067aa0ba902b7-01`;
const META_TRACE = '0af7651916cd43dd8448eb211c80319c';
const META_PARENT = `00-${META_TRACE}-b7ad6b7169203331-01`;

let installed: InstalledTracing;
beforeAll(() => {
  installed = installTracing();
});
afterAll(() => installed?.uninstall());

/** A client middleware that sends `traceparent` as an HTTP header (and, if asked, in `_meta`). */
function sendTraceparent(options: { meta?: string } = {}): Middleware {
  return (next) => (message, ctx) => {
    const params =
      options.meta === undefined || message.kind !== 'request'
        ? message.params
        : {
            ...message.params,
            _meta: { ...(message.params?._meta as object | undefined), traceparent: options.meta },
          };
    return next({ ...message, params }, { ...ctx, headers: { ...ctx.headers, traceparent: HEADER_PARENT } });
  };
}

describe.each(['modern', 'legacy'] as const)('trace context and notifications over HTTP (%s era)', (era) => {
  let served: Served;
  const clients: Client[] = [];
  const seenHeaders: (Readonly<Record<string, string>> | undefined)[] = [];

  beforeAll(async () => {
    const server = createServer({ name: 'traced', version: '1.0.0' });
    server.use((next) => (message, ctx) => {
      if (message.kind === 'request') seenHeaders.push(ctx.headers);
      return next(message, ctx);
    });
    server.use(tracing());
    server.tool('talk', {}, (_args, ctx) => {
      ctx.log('info', 'said from inside the tool');
      return 'done';
    });
    served = await serve(server, { port: 0 });
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
    await served?.close();
  });

  async function connect(middleware: Middleware[], received?: string[]): Promise<Client> {
    const client = createClient({
      name: 'c',
      version: '1.0.0',
      era,
      middleware,
      ...(received ? { logLevel: 'info', onNotification: (n) => void received.push(n.method) } : {}),
    });
    await client.connect(streamableHttp(served.url));
    clients.push(client);
    return client;
  }

  it('gives server middleware the HTTP request headers, by lowercase name', async () => {
    const client = await connect([sendTraceparent()]);
    seenHeaders.length = 0;
    await client.listTools();
    const headers = seenHeaders.at(-1);
    expect(headers?.traceparent).toBe(HEADER_PARENT);
    expect(headers?.['content-type']).toMatch(/application\/json/);
    if (era === 'legacy') expect(typeof headers?.['mcp-session-id']).toBe('string');
    else expect(headers?.['mcp-method']).toBe('tools/list');
  });

  it('continues the trace named by the traceparent header when _meta has none', async () => {
    const client = await connect([sendTraceparent()]);
    installed.exporter.reset();
    await client.listTools();
    const span = findSpan(installed.exporter, 'tools/list', SpanKind.SERVER);
    expect(span?.spanContext().traceId).toBe(TRACE);
    expect(span?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
  });

  it('prefers the trace context in _meta over the HTTP headers', async () => {
    const client = await connect([sendTraceparent({ meta: META_PARENT })]);
    installed.exporter.reset();
    await client.listTools();
    const span = findSpan(installed.exporter, 'tools/list', SpanKind.SERVER);
    expect(span?.spanContext().traceId).toBe(META_TRACE);
    expect(span?.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
  });

  it('traces a notification the server sends, into the client, in the trace of the request', async () => {
    const received: string[] = [];
    const client = await connect([tracing()], received);
    installed.exporter.reset();
    await client.callTool('talk', {});
    await until(() => findSpan(installed.exporter, 'notifications/message', SpanKind.SERVER) !== undefined);
    const call = findSpan(installed.exporter, 'tools/call talk', SpanKind.SERVER);
    const sent = findSpan(installed.exporter, 'notifications/message', SpanKind.CLIENT);
    const got = findSpan(installed.exporter, 'notifications/message', SpanKind.SERVER);
    expect(received).toContain('notifications/message');
    expect(sent?.parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
    expect(got?.parentSpanContext?.spanId).toBe(sent?.spanContext().spanId);
    expect(got?.spanContext().traceId).toBe(call?.spanContext().traceId);
    expect(got?.attributes['mcp.method.name']).toBe('notifications/message');
    expect(got?.attributes['jsonrpc.request.id']).toBeUndefined();
  });
});

describe('a client notification to the server (legacy session over HTTP)', () => {
  it('gets a CLIENT span on the client and a SERVER span, its child, on the server', async () => {
    const server = createServer({ name: 'traced', version: '1.0.0' }).use(tracing());
    const served = await serve(server, { port: 0 });
    // A roots handler declares roots.listChanged, without which the notification is not sent.
    const client = createClient({
      name: 'c',
      version: '1.0.0',
      era: 'legacy',
      middleware: [tracing()],
      handlers: { roots: async () => ({ roots: [] }) },
    });
    try {
      await client.connect(streamableHttp(served.url));
      installed.exporter.reset();
      client.notifyRootsChanged();
      const name = 'notifications/roots/list_changed';
      await until(() => findSpan(installed.exporter, name, SpanKind.SERVER) !== undefined);
      const sent = findSpan(installed.exporter, name, SpanKind.CLIENT);
      const got = findSpan(installed.exporter, name, SpanKind.SERVER);
      expect(got?.spanContext().traceId).toBe(sent?.spanContext().traceId);
      expect(got?.parentSpanContext?.spanId).toBe(sent?.spanContext().spanId);
      expect(typeof got?.attributes['mcp.session.id']).toBe('string');
    } finally {
      await client.close();
      await served.close();
    }
  });
});
