import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createClient } from '../client/index.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { connect, createServer, type McpServer, type RequestContext } from './index.js';

async function clientOf(server: McpServer, era: 'modern' | 'legacy') {
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const client = createClient({ name: 'c', version: '1', era });
  await client.connect(a);
  return client;
}

describe.each(['modern', 'legacy'] as const)('typed tools (%s)', (era) => {
  it('registers a tool without a definition object', async () => {
    const server = createServer({ name: 's', version: '1' }).tool('hello', () => 'hi');
    const client = await clientOf(server, era);
    expect((await client.listTools()).map((t) => [t.name, t.inputSchema])).toEqual([
      ['hello', { type: 'object' }],
    ]);
    expect(await client.callTool('hello')).toMatchObject({ content: [{ type: 'text', text: 'hi' }] });
  });

  it('wraps a bare structured value with its JSON text block (server/tools "Structured Content")', async () => {
    const server = createServer({ name: 's', version: '1' }).tool(
      'forecast',
      { outputSchema: z.object({ celsius: z.number(), city: z.string() }) },
      () => ({ celsius: 21, city: 'Paris' }),
    );
    const result = await (await clientOf(server, era)).callTool('forecast');
    expect(result.structuredContent).toEqual({ celsius: 21, city: 'Paris' });
    expect(result.content).toEqual([{ type: 'text', text: '{"celsius":21,"city":"Paris"}' }]);
    expect(result.isError).toBeUndefined();
  });

  it('still checks a bare structured value against outputSchema at run time', async () => {
    const loose = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const server = createServer({ name: 's', version: '1' }).tool('bad', { outputSchema: loose }, () => ({
      n: 'not a number',
    }));
    const client = await clientOf(server, era);
    await expect(client.callTool('bad')).rejects.toMatchObject({ code: -32603 });
  });

  it('passes an error result of a structured tool through without structuredContent', async () => {
    const server = createServer({ name: 's', version: '1' }).tool(
      'fails',
      { outputSchema: z.object({ n: z.number() }) },
      () => ({ content: [{ type: 'text', text: 'no luck' }], isError: true }),
    );
    const result = await (await clientOf(server, era)).callTool('fails');
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'no luck' }] });
  });
});

describe('tool types', () => {
  it('infers arguments from inputSchema and structuredContent from outputSchema', () => {
    const server = createServer({ name: 's', version: '1' });
    server.tool(
      'typed',
      {
        inputSchema: z.object({ city: z.string(), days: z.number().optional() }),
        outputSchema: z.object({ c: z.number() }),
      },
      (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number | undefined }>();
        expectTypeOf(ctx).toEqualTypeOf<RequestContext>();
        return { content: [{ type: 'text', text: args.city }], structuredContent: { c: 1 } };
      },
    );
    server.tool('untyped', {}, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return 'ok';
    });
  });

  it('refuses results that do not match the output schema at compile time', () => {
    const server = createServer({ name: 's', version: '1' });
    const out = z.object({ c: z.number() });
    // @ts-expect-error a string is not the structured value
    server.tool('a', { outputSchema: out }, () => 'text');
    // @ts-expect-error structuredContent has the wrong type
    server.tool('b', { outputSchema: out }, () => ({ content: [], structuredContent: { c: 'x' } }));
    // @ts-expect-error the bare value has the wrong type
    server.tool('c', { outputSchema: out }, () => ({ c: true }));
    // @ts-expect-error without outputSchema a bare object is not a result
    server.tool('d', {}, () => ({ c: 1 }));
    expect(server).toBeDefined();
  });
});
