import { describe, expect, it } from 'vitest';
import type { Middleware, MiddlewareContext } from '../core/middleware.js';
import type { Params, RequestId } from '../core/jsonrpc.js';
import { META } from '../core/revisions.js';
import { TASKS_EXTENSION } from '../core/tasks.js';
import { connectFake, legacy, modern } from '../../test/support/client-harness.js';
import { ToolHeaders } from './middleware.js';

const prop = (type: string, header: unknown) => ({ type, 'x-mcp-header': header });
const schema = (properties: object) => ({ type: 'object', properties });
const tools = [
  {
    name: 'execute_sql',
    inputSchema: schema({
      region: prop('string', 'Region'),
      priority: prop('integer', 'Priority'),
      verbose: prop('boolean', 'Verbose'),
      nested: { type: 'object', properties: { tenant: prop('string', 'Tenant') } },
    }),
  },
  { name: 'broken', inputSchema: schema({ v: prop('number', 'Score') }) },
  { name: 'plain', inputSchema: schema({}) },
];

describe('the x-mcp-header step', () => {
  it('drops invalid tools from a modern tools/list with a warning naming the tool', () => {
    const warnings: string[] = [];
    const step = new ToolHeaders((m) => warnings.push(m));
    expect(step.screen({ tools, nextCursor: 'c' })).toEqual({ tools: [tools[0], tools[2]], nextCursor: 'c' });
    expect(warnings).toEqual([expect.stringContaining('"broken"')]);
  });

  it('drops a hostile tool (a 100 000-character header name, 10 000 annotations) with a short reason, keeping the rest', () => {
    const warnings: string[] = [];
    const step = new ToolHeaders((m) => warnings.push(m));
    const many = Object.fromEntries(
      Array.from({ length: 10_000 }, (_, i) => [`p${i}`, prop('string', `H${i}`)]),
    );
    const hostile = [
      { name: 'long', inputSchema: schema({ v: prop('string', 'N'.repeat(100_000)) }) },
      { name: 'many', inputSchema: schema(many) },
      tools[2],
    ];
    expect(step.screen({ tools: hostile })).toEqual({ tools: [tools[2]] });
    expect(warnings).toEqual([
      expect.stringMatching(/"long" rejected: .*longer than 128 characters/),
      expect.stringMatching(/"many" rejected: more than 64 x-mcp-header annotations/),
    ]);
    expect(Math.max(...warnings.map((w) => w.length))).toBeLessThan(200);
    expect(step.headersFor(undefined, { name: 'long', arguments: { v: 'x' } })).toBeUndefined();
  });

  it('leaves legacy results alone (headers exist only on the modern wire)', async () => {
    const { client } = await connectFake(
      legacy({ 'tools/list': () => ({ tools }) }),
      { era: 'legacy' },
      '2025-11-25',
    );
    expect(await client.listTools()).toHaveLength(3);
  });

  it('mirrors present arguments into Mcp-Param headers, omits null and absent ones', () => {
    const step = new ToolHeaders(() => undefined);
    step.screen({ tools });
    const args = { region: 'Hello, 世界', priority: 42, verbose: null, nested: { tenant: 'acme' } };
    const headers = step.headersFor({ authorization: 'Bearer t' }, { name: 'execute_sql', arguments: args });
    expect(headers).toEqual({
      authorization: 'Bearer t',
      'Mcp-Param-Region': '=?base64?SGVsbG8sIOS4lueVjA==?=',
      'Mcp-Param-Priority': '42',
      'Mcp-Param-Tenant': 'acme',
    });
    expect(step.headersFor(undefined, { name: 'unknown', arguments: args })).toBeUndefined();
  });
});

describe('client middleware', () => {
  /** Passes `next` a ctx it builds field by field instead of spreading the one it got. */
  const freshCtx: Middleware = (next) => (message, ctx) => {
    const own: MiddlewareContext = {
      side: ctx.side,
      direction: ctx.direction,
      era: ctx.era,
      protocolVersion: ctx.protocolVersion,
      signal: ctx.signal,
    };
    return next(message, own);
  };

  it('may build a fresh ctx: the call keeps its own options (request id, Tasks extension)', async () => {
    const fake = await connectFake(
      modern({
        'tools/list': () => ({ tools: [] }),
        'tools/call': () => ({ resultType: 'task', taskId: 't1', status: 'working' }),
      }),
      { middleware: [freshCtx] },
    );
    const ids: RequestId[] = [];
    const handle = await fake.client.callTool(
      'slow',
      {},
      { task: 'allow', onRequestId: (id) => ids.push(id) },
    );
    expect((handle as { taskId: string }).taskId).toBe('t1');
    const call = fake.received.find((r) => r.method === 'tools/call');
    expect(ids).toEqual([call?.id]);
    const caps = (call?.params?._meta as Params)[META.clientCapabilities] as Params;
    expect(caps.extensions).toEqual({ [TASKS_EXTENSION]: {} });
  });
});

describe('one composition rule: a chain is built once, and next runs at most once per message', () => {
  it('sends a request once when a middleware calls next twice; the second next rejects with a clear LocalError', async () => {
    let second: unknown;
    const twice: Middleware = (next) => async (message, ctx) => {
      const first = await next(message, ctx);
      if (message.kind === 'request') second = await next(message, ctx).catch((e: unknown) => e);
      return first;
    };
    const fake = await connectFake(modern({ 'tools/list': () => ({ tools: [] }) }), { middleware: [twice] });
    await fake.client.listTools();
    expect(fake.received.filter((r) => r.method === 'tools/list')).toHaveLength(1);
    expect(second).toMatchObject({ name: 'LocalError', code: 'INVALID_ARGUMENT' });
    expect((second as Error).message).toMatch(/next twice.*tools\/list/);
  });

  it('runs a legacy server’s request handler once when a middleware calls next twice', async () => {
    let asked = 0;
    const twice: Middleware = (next) => async (message, ctx) => {
      if (message.kind !== 'request' || ctx.direction !== 'incoming') return next(message, ctx);
      const first = await next(message, ctx);
      await expect(next(message, ctx)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      return first;
    };
    const fake = await connectFake(
      legacy(),
      { era: 'legacy', middleware: [twice], handlers: { roots: async () => (asked++, { roots: [] }) } },
      '2025-11-25',
    );
    expect(await fake.server.request('roots/list', {})).toEqual({ roots: [] });
    expect(asked).toBe(1);
  });

  it('builds the outgoing chain once per connection, not per request', async () => {
    let built = 0;
    const counting: Middleware = (next) => (built++, next);
    const fake = await connectFake(
      modern({ 'tools/list': () => ({ tools: [] }), 'tools/call': () => ({ content: [] }) }),
      { middleware: [counting] },
    );
    const before = built;
    await fake.client.callTool('a');
    await fake.client.callTool('b');
    expect(fake.received.filter((r) => r.method === 'tools/call')).toHaveLength(2);
    expect(built).toBe(before);
  });
});
