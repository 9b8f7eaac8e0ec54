/**
 * mcpkit's sequential-thinking server: a drop-in for
 * `@modelcontextprotocol/server-sequential-thinking`, on both eras. One tool,
 * `sequentialthinking`, that records each thought (and its branch) and answers where the
 * thinking stands. Each thought is drawn on stderr unless `DISABLE_THOUGHT_LOGGING=true`.
 * The server keeps only counts and branch names, not the thoughts, per caller (history.ts):
 * its memory stays bounded however long a caller thinks.
 */
import { parseArgs } from 'node:util';
import { LocalError } from '../../src/core/index.js';
import { createServer, type McpServer, type ToolErrorResult } from '../../src/server/index.js';
import { DESCRIPTION } from './description.js';
import { thoughtHistories } from './history.js';
import { THOUGHT_INPUT, type ThoughtInput } from './input.js';

const USAGE = 'usage: [DISABLE_THOUGHT_LOGGING=true] mcpkit serve sequential-thinking';
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/** The answer's schema, as the official server lists it. */
const OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    thoughtNumber: { type: 'number' },
    totalThoughts: { type: 'number' },
    nextThoughtNeeded: { type: 'boolean' },
    branches: { type: 'array', items: { type: 'string' } },
    thoughtHistoryLength: { type: 'number' },
  },
  required: ['thoughtNumber', 'totalThoughts', 'nextThoughtNeeded', 'branches', 'thoughtHistoryLength'],
  $schema: DRAFT_07,
  additionalProperties: false,
};

/**
 * Creates the server. It takes no arguments; `env.DISABLE_THOUGHT_LOGGING` (`true`, any case)
 * stops the drawing of thoughts on stderr.
 * @throws LocalError `INVALID_ARGUMENT` for any argument.
 */
export function createReferenceServer(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<McpServer> {
  try {
    parseArgs({ args: [...argv], options: {}, allowPositionals: false, strict: true });
  } catch (error) {
    return Promise.reject(new LocalError('INVALID_ARGUMENT', `${(error as Error).message}; ${USAGE}`));
  }
  const logging = (env.DISABLE_THOUGHT_LOGGING ?? '').toLowerCase() !== 'true';
  const server = createServer({ name: 'sequential-thinking-server', version: '2026.8.31' });
  const recordThought = thoughtHistories();
  server.tool(
    'sequentialthinking',
    {
      title: 'Sequential Thinking',
      description: DESCRIPTION,
      inputSchema: THOUGHT_INPUT,
      outputSchema: OUTPUT_SCHEMA,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (input, ctx) => {
      const totalThoughts = Math.max(input.totalThoughts, input.thoughtNumber);
      const branch = input.branchFromThought && input.branchId ? input.branchId : undefined;
      const history = await recordThought(ctx, branch).catch(refusal);
      if (!('thoughts' in history)) return history;
      if (logging) console.error(drawThought({ ...input, totalThoughts }));
      const state = {
        thoughtNumber: input.thoughtNumber,
        totalThoughts,
        nextThoughtNeeded: input.nextThoughtNeeded,
        branches: inKeyOrder(history.branches),
        thoughtHistoryLength: history.thoughts,
      };
      return { content: [{ type: 'text', text: JSON.stringify(state, null, 2) }], structuredContent: state };
    },
  );
  return Promise.resolve(server);
}

/** A history bound reached, answered as the official server answers a failed thought. @throws any other error. */
function refusal(error: unknown): ToolErrorResult {
  if (!(error instanceof LocalError && error.code === 'LIMIT_EXCEEDED')) throw error;
  const text = JSON.stringify({ error: error.message, status: 'failed' }, null, 2);
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * Branch ids in the order the official server lists them (the keys of a JS object): array
 * indices (`"0"`, `"7"`…) first, ascending, then the others in order of first use.
 */
function inKeyOrder(branches: readonly string[]): string[] {
  const isIndex = (id: string) => /^(0|[1-9]\d*)$/.test(id) && Number(id) < 2 ** 32 - 1;
  const indices = branches.filter(isIndex).sort((x, y) => Number(x) - Number(y));
  return [...indices, ...branches.filter((id) => !isIndex(id))];
}

/** A thought in a box, as the official server draws it (without colours). */
function drawThought(t: ThoughtInput): string {
  const [kind, context] = t.isRevision
    ? ['🔄 Revision', ` (revising thought ${t.revisesThought})`]
    : t.branchFromThought
      ? ['🌿 Branch', ` (from thought ${t.branchFromThought}, ID: ${t.branchId})`]
      : ['💭 Thought', ''];
  const header = `${kind} ${t.thoughtNumber}/${t.totalThoughts}${context}`;
  const border = '─'.repeat(Math.max(header.length, t.thought.length) + 4);
  return `\n┌${border}┐\n│ ${header} │\n├${border}┤\n│ ${t.thought.padEnd(border.length - 2)} │\n└${border}┘`;
}
