/**
 * The multi-round-trip fixtures (`test_input_required_result_*`). Each handler asks the
 * client straight-line; on the modern wire the SDK turns every `ctx.*` ask into an
 * `input_required` result with a sealed `requestState` and replays recorded answers on
 * the retry, so tampering with the state is refused by the SDK, not here.
 * Source: 2026-07-28 basic/patterns/mrtr.
 */
import type { McpServer, RequestContext } from '../../src/server/index.js';
import type { ElicitResult } from '../../src/core/index.js';
import { ask, sampledText } from './client-tools.js';

/** Asks for one string field; resolves with it, or undefined when the user did not accept. */
async function askString(
  ctx: RequestContext,
  { message, field, key }: { message: string; field: string; key?: string },
): Promise<string | undefined> {
  const result = await ctx.elicit(
    {
      message,
      requestedSchema: {
        type: 'object',
        properties: { [field]: { type: 'string', title: field } },
        required: [field],
      },
    },
    key === undefined ? {} : { key },
  );
  return accepted(result, field);
}

function accepted(result: ElicitResult, field: string): string | undefined {
  const value = result.action === 'accept' ? result.content?.[field] : undefined;
  return value === undefined ? undefined : String(value);
}

/** Asks for a yes/no confirmation under the boolean field `ok`. */
function confirm(ctx: RequestContext, message: string): Promise<ElicitResult> {
  return ctx.elicit(
    {
      message,
      requestedSchema: {
        type: 'object',
        properties: { ok: { type: 'boolean', title: 'OK' } },
        required: ['ok'],
      },
    },
    { key: 'confirm' },
  );
}

async function rootUris(ctx: RequestContext): Promise<string> {
  const { roots } = await ctx.listRoots();
  return roots.map((r) => r.uri).join(', ') || '(none)';
}

/** Registers the single-input fixtures. */
function registerSingle(server: McpServer): void {
  server.tool(
    'test_input_required_result_elicitation',
    { title: 'Input required: elicitation', description: "Asks the user's name, then greets them." },
    async (_args, ctx) => {
      const name = await askString(ctx, { message: 'What is your name?', field: 'name', key: 'user_name' });
      return name === undefined ? 'No name was given.' : `Hello, ${name}!`;
    },
  );
  server.tool(
    'test_input_required_result_sampling',
    { title: 'Input required: sampling', description: "Asks the client's model for the capital of France." },
    async (_args, ctx) => `Model answer: ${sampledText(await ask(ctx, 'What is the capital of France?'))}`,
  );
  server.tool(
    'test_input_required_result_list_roots',
    { title: 'Input required: roots', description: "Lists the client's roots." },
    async (_args, ctx) => `Client roots: ${await rootUris(ctx)}`,
  );
  server.tool(
    'test_input_required_result_request_state',
    {
      title: 'Input required: request state',
      description: 'Asks for confirmation, keeping state across rounds.',
    },
    async (_args, ctx) => {
      const result = await confirm(ctx, 'Please confirm to continue');
      return `state-ok: action=${result.action}, ok=${String(result.content?.ok)}`;
    },
  );
  server.tool(
    'test_input_required_result_tampered_state',
    {
      title: 'Input required: sealed state',
      description: 'Asks for confirmation; the state is integrity-protected.',
    },
    async (_args, ctx) => {
      const result = await confirm(ctx, 'Please confirm (sealed state)');
      return `State verified: action=${result.action}`;
    },
  );
}

/** Registers the fixtures asking several inputs, over one or more rounds. */
function registerMultiple(server: McpServer): void {
  server.tool(
    'test_input_required_result_multiple_inputs',
    {
      title: 'Input required: several inputs',
      description: 'Asks an elicitation, a sampling and the roots at once.',
    },
    async (_args, ctx) => {
      const [name, answer, roots] = await Promise.all([
        askString(ctx, { message: 'What is your name?', field: 'name' }),
        ask(ctx, 'What is the capital of France?'),
        rootUris(ctx),
      ]);
      return `All inputs received: name=${name ?? '(none)'}, answer=${sampledText(answer)}, roots=${roots}`;
    },
  );
  server.tool(
    'test_input_required_result_multi_round',
    { title: 'Input required: two rounds', description: 'Asks a name, then a favorite color.' },
    async (_args, ctx) => {
      const name = await askString(ctx, {
        message: 'Step 1: what is your name?',
        field: 'name',
        key: 'step1',
      });
      const color = await askString(ctx, {
        message: 'Step 2: what is your favorite color?',
        field: 'color',
        key: 'step2',
      });
      return `Multi-round complete: name=${name ?? '(none)'}, color=${color ?? '(none)'}`;
    },
  );
  server.tool(
    'test_input_required_result_capabilities',
    {
      title: 'Input required: capabilities',
      description: 'Asks only for input the client declared it can give.',
    },
    async (_args, ctx) => {
      const caps = ctx.clientCapabilities;
      if (caps.elicitation)
        return `Elicited: ${(await askString(ctx, { message: 'Your name?', field: 'name' })) ?? '(none)'}`;
      if (caps.sampling) return `Sampled: ${sampledText(await ask(ctx, 'What is the capital of France?'))}`;
      if (caps.roots) return `Roots: ${await rootUris(ctx)}`;
      return 'The client declared no capability to ask with.';
    },
  );
}

/** Registers the prompt that asks for context before rendering. */
function registerPrompt(server: McpServer): void {
  server.prompt(
    'test_input_required_result_prompt',
    {
      title: 'Input required: prompt',
      description: 'Asks the user for context, then renders a prompt with it.',
    },
    async (_args, ctx) => {
      const context = await askString(ctx, {
        message: 'What context should the prompt use?',
        field: 'context',
      });
      return [
        { role: 'user', content: { type: 'text', text: `Context from the user: ${context ?? '(none)'}` } },
      ];
    },
  );
}

/** Registers every multi-round-trip fixture. */
export function registerInputRequired(server: McpServer): void {
  registerSingle(server);
  registerMultiple(server);
  registerPrompt(server);
}
