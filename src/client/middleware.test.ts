import { describe, expect, it } from 'vitest';
import type { McpMessage, MessageHandler, MiddlewareContext } from '../core/middleware.js';
import type { Params } from '../core/jsonrpc.js';
import { toolHeaderStep } from './middleware.js';

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

const ctx = (era: 'modern' | 'legacy'): MiddlewareContext => ({
  side: 'client',
  direction: 'outgoing',
  era,
  protocolVersion: era === 'modern' ? '2026-07-28' : '2025-11-25',
  signal: new AbortController().signal,
});

/** A terminal that answers tools/list with `tools` and records the ctx of each call. */
function terminal(): { next: MessageHandler; seen: MiddlewareContext[] } {
  const seen: MiddlewareContext[] = [];
  const next: MessageHandler = async (message: McpMessage, c) => {
    seen.push(c);
    return message.method === 'tools/list' ? ({ tools, nextCursor: 'c' } as Params) : { content: [] };
  };
  return { next, seen };
}

const list: McpMessage = { kind: 'request', method: 'tools/list' };

describe('the x-mcp-header step', () => {
  it('drops invalid tools from a modern tools/list with a warning naming the tool', async () => {
    const warnings: string[] = [];
    const { next } = terminal();
    const handler = toolHeaderStep((m) => warnings.push(m)).step(next);
    expect(await handler(list, ctx('modern'))).toEqual({ tools: [tools[0], tools[2]], nextCursor: 'c' });
    expect(warnings).toEqual([expect.stringContaining('"broken"')]);
  });

  it('leaves legacy results alone (headers exist only on the modern wire)', async () => {
    const { next } = terminal();
    const handler = toolHeaderStep(() => undefined).step(next);
    expect(((await handler(list, ctx('legacy'))) as { tools: unknown[] }).tools).toHaveLength(3);
  });

  it('mirrors present arguments into Mcp-Param headers, omits null and absent ones', async () => {
    const { next, seen } = terminal();
    const handler = toolHeaderStep(() => undefined).step(next);
    await handler(list, ctx('modern'));
    const args = { region: 'Hello, 世界', priority: 42, verbose: null, nested: { tenant: 'acme' } };
    const call: McpMessage = {
      kind: 'request',
      method: 'tools/call',
      params: { name: 'execute_sql', arguments: args },
    };
    await handler(call, { ...ctx('modern'), headers: { authorization: 'Bearer t' } });
    expect(seen[1]?.headers).toEqual({
      authorization: 'Bearer t',
      'Mcp-Param-Region': '=?base64?SGVsbG8sIOS4lueVjA==?=',
      'Mcp-Param-Priority': '42',
      'Mcp-Param-Tenant': 'acme',
    });
    await handler({ ...call, params: { name: 'unknown', arguments: args } }, ctx('modern'));
    expect(seen[2]?.headers).toBeUndefined();
  });
});
