/**
 * mcpkit's sequential-thinking server against the official
 * `@modelcontextprotocol/server-sequential-thinking`, each a child process over stdio: the
 * same tools/list and the same answer to every call of a corpus, including the official
 * server's leniency (`"true"` and `"2"` strings), its order of branch ids and its refusals.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from '../../src/client/index.js';
import {
  comparableAnswer,
  comparableTool,
  officialEntry,
  ourEntry,
  settle,
  startServer,
} from '../support/reference-servers.js';

const SLOW = { timeout: 120_000 };
const clients: Client[] = [];
afterAll(() => Promise.all(clients.map((c) => c.close())));

const thought = (n: number, more: Record<string, unknown> = {}) => ({
  thought: `step ${n}`,
  nextThoughtNeeded: true,
  thoughtNumber: n,
  totalThoughts: 3,
  ...more,
});

/** One call's arguments, and whether they break the schema. */
const CORPUS: [Record<string, unknown>, boolean?][] = [
  [thought(1)],
  [thought(2, { nextThoughtNeeded: 'TRUE', thoughtNumber: '2' })],
  [thought(5)],
  [thought(2, { isRevision: true, revisesThought: 1 })],
  [thought(3, { branchFromThought: 2, branchId: 'alt' })],
  [thought(4, { branchFromThought: 2, branchId: 'alt', needsMoreThoughts: 'false' })],
  [thought(3, { branchFromThought: 1 })],
  // Branch ids that are array indices come first, ascending, as the keys of the official server's object.
  [thought(4, { branchFromThought: 3, branchId: '7' })],
  [thought(4, { branchFromThought: 3, branchId: '02' })],
  [thought(4, { branchFromThought: 3, branchId: '3' })],
  [thought(6, { nextThoughtNeeded: false })],
  [thought(1, { nextThoughtNeeded: 'maybe' }), true],
  [thought(1, { thoughtNumber: 1.5 }), true],
  [thought(1, { thoughtNumber: 0 }), true],
  [thought(1, { totalThoughts: 'many' }), true],
  [{ thought: 'no number', nextThoughtNeeded: true }, true],
];

async function run(entry: string, era: 'legacy' | 'modern') {
  const client = await startServer({ entry, era, env: { DISABLE_THOUGHT_LOGGING: 'true' } });
  clients.push(client);
  const tools = (await client.listTools()).map((t) =>
    comparableTool(t as unknown as Record<string, unknown>),
  );
  const answers: unknown[] = [];
  for (const [args, invalid = false] of CORPUS)
    answers.push(comparableAnswer(await settle(client, 'sequentialthinking', args), invalid));
  return { tools, answers };
}

describe('the sequential-thinking server against the official one', () => {
  it('lists the same tool and gives the same answers, on both eras', SLOW, async () => {
    const official = await run(officialEntry('server-sequential-thinking'), 'legacy');
    for (const era of ['legacy', 'modern'] as const) {
      const ours = await run(ourEntry('sequential-thinking'), era);
      expect(ours.tools).toEqual(official.tools);
      expect(ours.answers).toEqual(official.answers);
    }
  });
});
