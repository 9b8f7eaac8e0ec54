/**
 * The server's `limits.schema` bound the elicitation `requestedSchema`s its handlers send as
 * they bound its tools' schemas: a schema over the limits is refused before it reaches the
 * client, and the answer to one within them is checked with the same limits (not the
 * defaults), on both eras, for JSON Schema and zod.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient } from '../../src/client/index.js';
import { connect, createServer, type ServerOptions } from '../../src/server/index.js';
import { createLinkedPair } from '../../src/testing/linked-pair.js';

/** A server whose `ask` tool elicits with `requestedSchema`, reporting the outcome as text. */
async function run(opts: {
  era: 'modern' | 'legacy';
  limits: NonNullable<ServerOptions['limits']>;
  requestedSchema: object;
  content: Record<string, string>;
}): Promise<{ text: string; seen: unknown[] }> {
  const server = createServer({ name: 's', version: '1', limits: opts.limits }).tool(
    'ask',
    async (_a, ctx) => {
      try {
        const answer = await ctx.elicit({ message: 'code?', requestedSchema: opts.requestedSchema } as never);
        return `${(answer as { action: string }).action} ${JSON.stringify((answer as { content?: unknown }).content)}`;
      } catch (error) {
        return `refused ${(error as { code?: unknown }).code}: ${(error as Error).message}`;
      }
    },
  );
  const seen: unknown[] = [];
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const client = createClient({
    name: 'c',
    version: '1',
    era: opts.era,
    handlers: {
      elicitation: async (params) => (seen.push(params), { action: 'accept', content: opts.content }),
    },
  });
  await client.connect(a);
  // A modern retry's answers are checked as they arrive, before the handler runs again: a bad
  // one then fails the call itself (-32602), where on legacy the handler's ctx.elicit throws it.
  const text = await client.callTool('ask').then(
    (result) => (result.content[0] as { text: string }).text,
    (error: { code?: unknown; message: string }) => `refused ${String(error.code)}: ${error.message}`,
  );
  await client.close();
  return { text, seen };
}

const longPattern = `^(?:${'x'.repeat(5000)})?a$`; // 5 011 characters: over the 4 096 default

describe.each(['modern', 'legacy'] as const)('ctx.elicit under limits.schema (%s)', (era) => {
  it('a JSON Schema requestedSchema over the limits is refused before it is sent', async () => {
    const { text, seen } = await run({
      era,
      limits: { schema: { maxPatternLength: 4 } },
      requestedSchema: { type: 'object', properties: { code: { type: 'string', pattern: 'abcdef' } } },
      content: { code: 'abcdef' },
    });
    expect(seen).toEqual([]);
    expect(text).toMatch(/^refused INVALID_DEFINITION: elicitation requestedSchema: /);
    expect(text).toContain('limits.schema.maxPatternLength');
  });

  it('a zod requestedSchema over the limits is refused before it is sent', async () => {
    const { text, seen } = await run({
      era,
      limits: { schema: { maxPatternLength: 4 } },
      requestedSchema: z.object({ code: z.string().regex(/abcdef/) }),
      content: { code: 'abcdef' },
    });
    expect(seen).toEqual([]);
    expect(text).toMatch(/^refused INVALID_DEFINITION: elicitation requestedSchema: /);
    expect(text).toContain('limits.schema.maxPatternLength');
  });

  it('the answer to a schema within raised limits is checked with them, not the defaults', async () => {
    const { text, seen } = await run({
      era,
      limits: { schema: { maxPatternLength: 8000 } },
      requestedSchema: { type: 'object', properties: { code: { type: 'string', pattern: longPattern } } },
      content: { code: 'a' },
    });
    expect(seen).toHaveLength(1);
    expect(text).toBe('accept {"code":"a"}');
  });

  it('an answer breaking such a schema is still refused', async () => {
    const { text } = await run({
      era,
      limits: { schema: { maxPatternLength: 8000 } },
      requestedSchema: { type: 'object', properties: { code: { type: 'string', pattern: longPattern } } },
      content: { code: 'b' },
    });
    expect(text).toMatch(/^refused -32602: .*does not match the requested schema/);
  });
});
