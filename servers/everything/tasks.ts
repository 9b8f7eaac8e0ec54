/**
 * The Tasks extension fixtures the conformance suite calls (`greet`, `slow_compute`,
 * `failing_job`, `protocol_error_job`, `confirm_delete`, `multi_input`,
 * `test_tool_with_task`). Handlers are plain straight-line tools: the SDK decides, from
 * each tool's task policy and the client's capabilities, whether a call runs as a task.
 * Source: SEP-2663; scripts/conformance/README.md ("tasks extension scenarios").
 */
import { z } from 'zod';
import { WireError, type ElicitRequestParams } from '../../src/core/index.js';
import { type McpServer, type RequestContext, errorResult } from '../../src/server/index.js';
import { sleep } from './media.js';

/** Milliseconds `failing_job` works before reporting its tool error. */
const FAILING_JOB_MS = 300;

function question(message: string, field: string, type: 'string' | 'boolean'): ElicitRequestParams {
  const property = type === 'string' ? { type: 'string' as const } : { type: 'boolean' as const };
  return {
    message,
    requestedSchema: { type: 'object', properties: { [field]: property }, required: [field] },
  };
}

async function askName(ctx: RequestContext): Promise<string> {
  const answer = await ctx.elicit(question('What is your name?', 'name', 'string'), { key: 'user_name' });
  return answer.action === 'accept' ? String(answer.content?.name ?? '') : '(declined)';
}

/** Registers the task fixtures. */
export function registerTaskTools(server: McpServer): void {
  server.tool(
    'greet',
    { description: 'Greets by name (never a task)', inputSchema: z.object({ name: z.string() }) },
    ({ name }) => `Hello, ${name}!`,
  );
  server.tool(
    'slow_compute',
    {
      description: 'Works for `seconds` seconds, then answers (a task when the client allows)',
      inputSchema: z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() }),
      task: { support: 'optional', retrySafe: true },
    },
    async ({ seconds, label }, ctx) => {
      await sleep(seconds * 1000, ctx.signal);
      return `Computed ${label ?? 'result'} after ${seconds}s`;
    },
  );
  server.tool(
    'failing_job',
    { description: 'Always ends with a tool execution error (task required)', task: 'required' },
    async (_args, ctx) => {
      await sleep(FAILING_JOB_MS, ctx.signal);
      return errorResult('The job failed: the input could not be processed');
    },
  );
  server.tool(
    'protocol_error_job',
    { description: 'Always ends with a JSON-RPC error (a task when allowed)', task: 'optional' },
    () => {
      throw WireError.of('InternalError', 'The job crashed');
    },
  );
  registerInputTasks(server);
}

function registerInputTasks(server: McpServer): void {
  server.tool(
    'confirm_delete',
    {
      description: 'Asks for confirmation, then deletes (pretend)',
      inputSchema: z.object({ filename: z.string() }),
      task: 'optional',
    },
    async ({ filename }, ctx) => {
      const answer = await ctx.elicit(question(`Delete ${filename}?`, 'confirm', 'boolean'));
      const yes = answer.action === 'accept' && answer.content?.confirm === true;
      return yes ? `Deleted ${filename}` : `Kept ${filename}`;
    },
  );
  server.tool(
    'multi_input',
    { description: 'Asks two questions at once', task: 'optional' },
    async (_args, ctx) => {
      const [first, second] = await Promise.all([
        ctx.elicit(question('First name?', 'name', 'string')),
        ctx.elicit(question('Proceed?', 'confirm', 'boolean')),
      ]);
      return `Answers: ${first.action}, ${second.action}`;
    },
  );
  server.tool(
    'test_tool_with_task',
    {
      description: 'Asks for a name on the request itself, then runs as a task',
      task: { support: 'required', prepare: async (_args, ctx) => void (await askName(ctx)) },
    },
    async (_args, ctx) => `Hello, ${await askName(ctx)}! (from a task)`,
  );
}
