/**
 * `mcpkit call` of a tool that asks the user for input: without `--answer` the failure
 * says how to answer (it was a bare -32021 "Missing required client capability"); with
 * `--answer` the call completes. Both eras, over HTTP, with the built CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../server/index.js';
import { serve, type Served } from '../integrations/node/index.js';
import { runCli } from '../../test/support/cli.js';

let served: Served;

beforeAll(async () => {
  const server = createServer({ name: 'asker', version: '1' });
  server.tool('greet', async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'What is your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    return answer.action === 'accept' ? `Hello, ${String(answer.content?.name)}` : answer.action;
  });
  served = await serve(server, { port: 0 });
});

afterAll(() => served.close());

describe.each(['modern', 'legacy'] as const)('mcpkit call of a tool that asks for input (%s)', (era) => {
  it('fails with a hint of --answer when none is given', async () => {
    const run = await runCli(['call', 'greet', '--era', era, served.url]);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/--answer JSON/);
  });

  it('completes with --answer', async () => {
    const run = await runCli(['call', 'greet', '--era', era, '--answer', '{"name":"Ada"}', served.url]);
    expect(run.stderr).toContain('elicitation');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Hello, Ada');
  });
});
