/**
 * On a legacy session, an answer to a handler's explicit `input_required` is given to a later
 * `ctx.elicit` of the same key only when it fits that call's question too (issue 35 §1: every
 * answer reaches a handler checked against the schema that asked for it); otherwise the
 * client is asked again. Two sessions (alice's and bob's) at once.
 */
import { describe, expect, it } from 'vitest';
import { createLinkedPair } from '../../testing/linked-pair.js';
import { createClient } from '../../client/index.js';
import { connect, createServer, inputRequired } from '../index.js';

const schema = (maximum: number) => ({
  type: 'object' as const,
  properties: { n: { type: 'integer' as const, maximum } },
  required: ['n'],
});

describe('legacy explicit input_required answers', () => {
  it('asks again when the recorded answer does not fit the question asked by key', async () => {
    const server = createServer({ name: 't', version: '1' });
    server.tool('pay', {}, async (_args, ctx) => {
      if (!Object.hasOwn(ctx.inputResponses, 'amount'))
        return inputRequired({
          amount: {
            method: 'elicitation/create',
            params: { message: 'amount?', requestedSchema: schema(1000) },
          },
        });
      const amount = await ctx.elicit(
        { message: 'amount, at most 10?', requestedSchema: schema(10) },
        { key: 'amount' },
      );
      return `paid ${String(amount.content?.n)}`;
    });
    const session = async (answers: number[]) => {
      const [a, b] = createLinkedPair();
      await connect(server, b);
      const asked: string[] = [];
      const client = createClient({
        name: 'c',
        version: '1',
        era: 'legacy',
        handlers: {
          elicitation: async (params) => {
            asked.push(String(params.message));
            return { action: 'accept', content: { n: answers[asked.length - 1] ?? 0 } };
          },
        },
      });
      await client.connect(a);
      return { client, asked };
    };
    const [alice, bob] = await Promise.all([session([100, 5]), session([7])]);
    const [paidA, paidB] = await Promise.all([
      alice.client.callTool('pay', {}),
      bob.client.callTool('pay', {}),
    ]);
    expect(paidA.content).toEqual([{ type: 'text', text: 'paid 5' }]);
    expect(alice.asked).toEqual(['amount?', 'amount, at most 10?']);
    expect(paidB.content).toEqual([{ type: 'text', text: 'paid 7' }]);
    expect(bob.asked).toEqual(['amount?']);
    await Promise.all([alice.client.close(), bob.client.close()]);
  });
});
