import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createClient, type ClientHandlers } from '../client/index.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { validateWire } from '../testing/wire-tap.js';
import { connect, createServer } from './index.js';

const Person = z.object({ name: z.string(), age: z.number().int().min(0).optional() });

function server() {
  return createServer({ name: 's', version: '1' }).tool('ask', async (_args, ctx) => {
    const answer = await ctx.elicit({ message: 'Who are you?', requestedSchema: Person });
    if (answer.action !== 'accept') return answer.action;
    expectTypeOf(answer.content).toEqualTypeOf<{ name: string; age?: number | undefined }>();
    return `${answer.content.name} (${answer.content.age ?? '?'})`;
  });
}

async function call(era: 'modern' | 'legacy', elicitation: ClientHandlers['elicitation']) {
  const seen: unknown[] = [];
  const [a, b] = createLinkedPair();
  await connect(server(), b);
  const revision = era === 'modern' ? '2026-07-28' : '2025-11-25';
  const client = createClient({
    name: 'c',
    version: '1',
    era,
    handlers: { elicitation: async (params, ctx) => (seen.push(params), elicitation!(params, ctx)) },
  });
  await client.connect(validateWire(a, revision));
  return { result: client.callTool('ask'), seen };
}

describe.each(['modern', 'legacy'] as const)('ctx.elicit with a Standard Schema (%s)', (era) => {
  it('sends the JSON Schema form and hands the handler the parsed content', async () => {
    const { result, seen } = await call(era, async () => ({
      action: 'accept',
      content: { name: 'Ada', age: 36 },
    }));
    expect(await result).toMatchObject({ content: [{ type: 'text', text: 'Ada (36)' }] });
    expect(seen[0]).toMatchObject({
      message: 'Who are you?',
      requestedSchema: {
        type: 'object',
        properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
        required: ['name'],
      },
    });
  });

  it('passes decline through without content', async () => {
    const { result } = await call(era, async () => ({ action: 'decline' }));
    expect(await result).toMatchObject({ content: [{ type: 'text', text: 'decline' }] });
  });

  it('refuses an accepted answer that does not match the schema with -32602', async () => {
    const { result } = await call(era, async () => ({ action: 'accept', content: { name: 'Al', age: -5 } }));
    await expect(result).rejects.toMatchObject({ code: -32602 });
  });
});
