/**
 * `mcpkit call` of a tool that asks for input, at a terminal: the built CLI runs under a
 * pseudo-terminal (`script`, from bsdutils) and the test types each answer once its prompt
 * shows. The CLI asks for each field of the form with its type, description, bounds,
 * default and choices, asks again for an answer the requested schema refuses, and sends
 * the answers; ^C or ^D declines. Both eras, over HTTP. (Without a terminal, the call fails
 * with the --answer hint: call-input.test.ts.)
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../server/index.js';
import { serve, type Served } from '../integrations/node/index.js';
import { CLI, ROOT } from '../../test/support/cli.js';

let served: Served;

beforeAll(async () => {
  const server = createServer({ name: 'signup', version: '1' });
  server.tool('signup', async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'Sign up for the \u001b[31mnewsletter\u001b[0m?',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'Your name', minLength: 2 },
          age: { type: 'integer', minimum: 0, maximum: 150, default: 30 },
          color: {
            type: 'string',
            title: 'Favourite colour',
            oneOf: [
              { const: '#FF0000', title: 'Red' },
              { const: '#00FF00', title: 'Green' },
            ],
          },
          subscribe: { type: 'boolean', description: 'Weekly mail' },
        },
        required: ['name', 'color', 'subscribe'],
      },
    });
    return `${answer.action} ${JSON.stringify(answer.content ?? {})}`;
  });
  served = await serve(server, { port: 0 });
});

afterAll(() => served.close());

/** A step of a terminal session: once `prompt` shows (after the previous step), type `keys`. */
type Step = [prompt: string, keys: string];

/**
 * Runs the built CLI with `args` on a pseudo-terminal, typing each step's keys once its
 * prompt shows; resolves with the exit code and everything the terminal showed.
 */
function onTerminal(
  args: readonly string[],
  steps: readonly Step[],
): Promise<{ code: number | null; shown: string }> {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qec', quoted, '/dev/null'], { cwd: ROOT });
  let shown = '';
  let from = 0;
  let next = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    shown += chunk.toString();
    const step = steps[next];
    if (!step) return;
    const at = shown.indexOf(step[0], from);
    if (at === -1) return;
    from = shown.length;
    next++;
    child.stdin.write(step[1]);
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, shown }));
  });
}

const ENTER = '\r';

describe.each(['modern', 'legacy'] as const)('mcpkit call at a terminal (%s)', (era) => {
  it('asks for each field, asks again for what the schema refuses, and completes the call', async () => {
    const run = await onTerminal(
      ['call', 'signup', '--era', era, served.url],
      [
        ['name> ', ENTER], // required: asked again
        ['name> ', `A${ENTER}`], // too short
        ['name> ', `Ada${ENTER}`],
        ['age> ', `old${ENTER}`],
        ['age> ', `200${ENTER}`],
        ['age> ', ENTER], // the default
        ['color> ', `2${ENTER}`],
        ['subscribe> ', `maybe${ENTER}`],
        ['subscribe> ', `y${ENTER}`],
      ],
    );
    expect(run.shown).toContain(`asks: Sign up for the �[31mnewsletter�[0m?`);
    expect(run.shown).not.toContain('\u001b[31m');
    expect(run.shown).toMatch(/- name \(string, length ≥ 2, required\): Your name/);
    expect(run.shown).toMatch(/- age \(integer, ≥ 0, ≤ 150, optional\)/);
    expect(run.shown).toContain('empty for the default: 30');
    expect(run.shown).toMatch(/- color "Favourite colour" \(choose one, required\)/);
    expect(run.shown).toMatch(/1\) Red \[#FF0000\][\s\S]*2\) Green \[#00FF00\]/);
    expect(run.shown).toMatch(/- subscribe \(y\/n, required\): Weekly mail/);
    expect(run.shown).toContain('an answer is required');
    expect(run.shown).toMatch(/must NOT have fewer than 2 characters/);
    expect(run.shown).toContain('"old" is not a number');
    expect(run.shown).toMatch(/must be <= 150/);
    expect(run.shown).toContain('answer y or n');
    expect(run.shown).toContain('accept {"name":"Ada","age":30,"color":"#00FF00","subscribe":true}');
    expect(run.code, run.shown).toBe(0);
  });

  it.each([
    ['^C', '\u0003'],
    ['^D', '\u0004'],
  ])('%s declines, and the call goes on with the decline', async (_key, keys) => {
    const run = await onTerminal(['call', 'signup', '--era', era, served.url], [['name> ', keys]]);
    expect(run.shown).toContain('mcpkit: declined');
    expect(run.shown).toContain('decline {}');
    expect(run.code, run.shown).toBe(0);
  });
});
