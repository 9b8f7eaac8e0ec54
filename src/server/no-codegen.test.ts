/**
 * Tools validated without code generation (as on Cloudflare Workers): forced with
 * `limits.schema.engine: 'interpreted'`, and in a Node process started with
 * `--disallow-code-generation-from-strings`, where `new Function` throws as on Workers and
 * the engine is picked on its own. Invalid arguments come back as `isError` results, formats
 * and patterns are checked (patterns in linear time), a schema stays valid past 300 calls,
 * and the messages are ajv's.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createClient } from '../client/index.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { validateWire } from '../testing/wire-tap.js';
import { compileJsonSchema } from '../validation/index.js';
import { connect, createServer, type SchemaEngine } from './index.js';

const SIGN_UP = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email' },
    code: { type: 'string', pattern: '^[A-Z]{3}-\\d{2}$' },
    age: { type: 'integer', minimum: 0 },
    tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
  },
  required: ['email', 'code'],
  additionalProperties: false,
};

async function client(engine: SchemaEngine) {
  const server = createServer({ name: 'nc', version: '1.0.0', limits: { schema: { engine } } });
  server.tool(
    'sign_up',
    { description: 'Signs up', inputSchema: SIGN_UP },
    (args) => `ok ${String(args.code)}`,
  );
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const c = createClient({ name: 'c', version: '1', era: 'modern' });
  await c.connect(validateWire(a, '2026-07-28'));
  return c;
}

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('tools validated without code generation', () => {
  it('answers invalid arguments with isError, checks format and pattern, and lasts past 300 calls', async () => {
    const c = await client('interpreted');
    const good = { email: 'ada@example.com', code: 'ABC-12' };
    for (let i = 0; i < 320; i++) {
      const result = await c.callTool('sign_up', { ...good, age: i });
      expect(result.isError, `call ${i}`).toBeFalsy();
    }
    const bad = await c.callTool('sign_up', { email: 'not-an-email', code: 'abc', age: -1, extra: 1 });
    expect(bad.isError).toBe(true);
    for (const fragment of [
      `'/email' must match format "email"`,
      `'/code' must match pattern "^[A-Z]{3}-\\d{2}$"`,
      `'/age' must be >= 0`,
      `must NOT have additional properties ('extra')`,
    ])
      expect(text(bad)).toContain(fragment);
    await c.close();
  });

  it('words each refusal as the compiled engine does', async () => {
    const values = [
      { email: 'x', code: 'ABC-1', tags: ['a', 'a'] },
      { code: 5, age: 1.5 },
      { email: 'ada@example.com', code: 'ABC-12', tags: 'a' },
      'not an object',
    ];
    const compiled = compileJsonSchema(SIGN_UP, { engine: 'compiled' });
    const interpreted = compileJsonSchema(SIGN_UP, { engine: 'interpreted' });
    for (const value of values) {
      const [want, got] = [await compiled(value), await interpreted(value)];
      expect(want.ok).toBe(false);
      expect(!got.ok && [...got.issues].sort()).toEqual(!want.ok && [...want.issues].sort());
    }
  });

  it('keeps patterns in linear time and bounds uniqueItems', async () => {
    const evil = compileJsonSchema({ type: 'string', pattern: '^(a+)+$' }, { engine: 'interpreted' });
    const started = performance.now();
    expect((await evil(`${'a'.repeat(40)}!`)).ok).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
    const unique = compileJsonSchema({ type: 'array', uniqueItems: true }, { engine: 'interpreted' });
    const many = await unique(Array.from({ length: 100_000 }, (_, i) => i));
    expect(many).toEqual({ ok: false, issues: [expect.stringContaining('more than 2000 items')] });
    expect((await unique([1, 2, 3])).ok).toBe(true);
  });

  it('refuses what the interpreter cannot do, as the compiled engine refuses what it cannot', async () => {
    // Once the engine is loaded the refusal is thrown at once, as ajv's is once loaded.
    const first = (schema: object) => async () => compileJsonSchema(schema, { engine: 'interpreted' })(1);
    for (const schema of [{ $dynamicRef: '#x' }, { $ref: '#/$defs/missing' }, { type: 'strung' }])
      await expect(first(schema)).rejects.toMatchObject({ code: 'INVALID_DEFINITION' });
  });
});

const dist = (path: string) => pathToFileURL(resolve(import.meta.dirname, '../../dist/src', path)).href;

describe('a runtime that forbids code generation', () => {
  it('validates every call with the interpreter, chosen on its own', () => {
    const script = `
      import { connect, createServer } from ${JSON.stringify(dist('server/index.js'))};
      import { createClient } from ${JSON.stringify(dist('client/index.js'))};
      import { createLinkedPair } from ${JSON.stringify(dist('testing/index.js'))};
      let generates = true;
      try { new Function('return 1'); } catch { generates = false; }
      const server = createServer({ name: 'nc', version: '1.0.0' });
      server.tool('sign_up', { description: 'Signs up', inputSchema: ${JSON.stringify(SIGN_UP)} }, (a) => 'ok ' + a.code);
      const [a, b] = createLinkedPair();
      await connect(server, b);
      const c = createClient({ name: 'c', version: '1', era: 'modern' });
      await c.connect(a);
      let failures = 0;
      for (let i = 0; i < 300; i++) {
        const r = await c.callTool('sign_up', { email: 'ada@example.com', code: 'ABC-12', age: i });
        if (r.isError) failures++;
      }
      const bad = await c.callTool('sign_up', { email: 'nope', code: 'x' });
      console.log(JSON.stringify({ generates, failures, bad }));
      await c.close();
    `;
    const run = spawnSync(
      process.execPath,
      ['--disallow-code-generation-from-strings', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as {
      generates: boolean;
      failures: number;
      bad: { isError?: boolean; content: unknown[] };
    };
    expect(out.generates).toBe(false);
    expect(out.failures).toBe(0);
    expect(out.bad.isError).toBe(true);
    expect(text(out.bad)).toContain(`'/email' must match format "email"`);
    expect(text(out.bad)).toContain(`'/code' must match pattern`);
  });
});
