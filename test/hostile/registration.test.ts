/**
 * A server's own schemas: patterns the linear-time engine cannot run are refused when the
 * tool, prompt or elicitation schema is defined (naming it and the pattern), and zod
 * `.regex()` checks run on RE2, so a crafted argument cannot freeze the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serve, type Served } from '../../src/integrations/node/index.js';
import { createServer } from '../../src/server/index.js';
import { modernBody, modernHeaders } from '../support/http-harness.js';
import { bounded } from '../support/watchdog.js';

const EVIL = `${'a'.repeat(34)}!`;

describe('patterns RE2 cannot express are refused at registration', () => {
  const server = createServer({ name: 'defs', version: '1.0.0' });

  it.each([
    ['lookahead', '^(?=a)a$'],
    ['backreferences', '(a)\\1'],
    ['backreferences', '(?<n>a)\\k<n>'],
  ])('server.tool() with a JSON Schema %s pattern throws naming the tool and the pattern', (why, pattern) => {
    const define = (): unknown =>
      server.tool(
        'find',
        { inputSchema: { type: 'object', properties: { q: { type: 'string', pattern } } } },
        () => '',
      );
    expect(define).toThrow(expect.objectContaining({ code: 'INVALID_DEFINITION' }));
    expect(define).toThrow(
      `tool 'find' inputSchema: Invalid JSON Schema: pattern ${JSON.stringify(pattern)}`,
    );
    expect(define).toThrow(`(${why})`);
  });

  it('a lookahead in an outputSchema patternProperties key or a zod regex is refused the same way', () => {
    expect(() =>
      server.tool(
        'out',
        { outputSchema: { type: 'object', patternProperties: { '^(?!x)': { type: 'string' } } } },
        () => ({ structuredContent: {} }),
      ),
    ).toThrow(/tool 'out' outputSchema: .*pattern "\^\(\?!x\)".*lookahead/);
    expect(() =>
      server.tool('zod', { inputSchema: z.object({ q: z.string().regex(/^(?!admin)/) }) }, () => ''),
    ).toThrow(/tool 'zod' inputSchema: .*pattern "\^\(\?!admin\)".*lookahead/);
  });

  it('a prompt argsSchema with a backreference is refused naming the prompt', () => {
    expect(() =>
      server.prompt(
        'greet',
        { argsSchema: { type: 'object', properties: { name: { type: 'string', pattern: '(x)\\1' } } } },
        () => [],
      ),
    ).toThrow(/prompt 'greet' argsSchema: .*pattern "\(x\)\\\\1".*backreferences/);
  });

  it('the limits.schema pattern options apply to registration', () => {
    const strict = createServer({ name: 's', version: '1', limits: { schema: { maxPatternLength: 4 } } });
    expect(() =>
      strict.tool(
        't',
        { inputSchema: { type: 'object', properties: { q: { pattern: 'abcdef' } } } },
        () => '',
      ),
    ).toThrow(/tool 't' inputSchema: .*longer than 4 characters \(limits.schema.maxPatternLength\)/);
  });
});

describe('a zod .regex() tool cannot be frozen by its argument', () => {
  let served: Served;
  beforeAll(async () => {
    const server = createServer({ name: 'zod-victim', version: '1.0.0' });
    server.tool('search', { inputSchema: z.object({ q: z.string().regex(/^(a+)+$/) }) }, ({ q }) => q);
    server.tool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => text);
    served = await serve(server, { port: 0 });
  });
  afterAll(() => served?.close());

  const call = async (name: string, args: Record<string, unknown>): Promise<unknown> => {
    const body = modernBody('tools/call', { name, arguments: args });
    const response = await fetch(served.url, {
      method: 'POST',
      headers: modernHeaders(body),
      body: JSON.stringify(body),
    });
    return response.json();
  };

  it('34 × a + ! against z.string().regex(/^(a+)+$/) is answered at once with isError', async () => {
    const { value } = await bounded({ withinMs: 5000 }, () => call('search', { q: EVIL }));
    expect(value).toMatchObject({ result: { isError: true } });
    expect(await call('search', { q: 'aaa' })).toMatchObject({ result: { content: [{ text: 'aaa' }] } });
    expect(await call('echo', { text: 'still here' })).toMatchObject({
      result: { content: [{ text: 'still here' }] },
    });
  });
});
