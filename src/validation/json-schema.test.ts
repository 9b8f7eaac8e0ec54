import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileJsonSchema } from './json-schema.js';
import { compileSchema } from './schema.js';

describe('compileJsonSchema', () => {
  it('validates 2020-12 by default and reports where a value fails', async () => {
    const validate = compileJsonSchema({
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: ['n'],
    });
    expect(await validate({ n: 1 })).toEqual({ ok: true, value: { n: 1 } });
    const bad = await validate({ n: 'x' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues.join()).toContain('/n');
  });

  it('accepts the draft-07 and 2019-09 dialects', async () => {
    for (const $schema of [
      'http://json-schema.org/draft-07/schema#',
      'https://json-schema.org/draft/2019-09/schema',
    ]) {
      const validate = compileJsonSchema({ $schema, type: 'string', minLength: 2 });
      expect((await validate('ab')).ok).toBe(true);
      expect((await validate('a')).ok).toBe(false);
    }
  });

  it('refuses an unsupported dialect at once, naming the supported ones', () => {
    expect(() => compileJsonSchema({ $schema: 'http://json-schema.org/draft-04/schema#' })).toThrow(
      /unsupported JSON Schema dialect.*2020-12/,
    );
  });

  it('refuses schemas deeper or larger than the bounds', () => {
    let deep: object = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { items: deep };
    expect(() => compileJsonSchema(deep)).toThrow(/deeper/);
    const wide = { anyOf: Array.from({ length: 50 }, () => ({ type: 'string' })) };
    expect(() => compileJsonSchema(wide, { maxSubschemas: 10 })).toThrow(/subschemas/);
  });

  it("refuses a 2020-12 schema that fails the meta-schema on its first validation, with ajv's message", async () => {
    // Registration accepts it (only dialect, bounds and patterns are checked then), as before;
    // the first validation rejects, interpreted or not, with what ajv says of the schema.
    const schema = { type: 'object', properties: { a: { minLength: 'two' } } };
    const interpreted = compileJsonSchema(schema);
    const viaAjv = compileJsonSchema({ ...schema, format: undefined } as object); // format: never interpreted
    const refusal = (validate: typeof interpreted) => Promise.resolve().then(() => validate({ a: 'x' }));
    const fromAjv = await refusal(viaAjv).catch((error: unknown) => error);
    expect(fromAjv).toMatchObject({ code: 'INVALID_DEFINITION' });
    expect(String((fromAjv as Error).message)).toContain('minLength must be integer');
    await expect(refusal(interpreted)).rejects.toMatchObject({
      code: 'INVALID_DEFINITION',
      message: (fromAjv as Error).message,
    });
  });

  it('refuses a network $ref at once, naming it and where it sits (it is never fetched)', () => {
    const schema = { type: 'object', properties: { a: { $ref: 'https://example.com/x.json' } } };
    expect(() => compileJsonSchema(schema)).toThrow(
      expect.objectContaining({
        code: 'INVALID_DEFINITION',
        message: expect.stringContaining(
          '$ref "https://example.com/x.json" at /properties/a names a document outside the schema',
        ),
      }),
    );
  });

  it.each([
    ['a relative document', { $ref: 'other.json' }, /"other.json" at \/ names a document outside/],
    ['a missing $defs entry', { $ref: '#/$defs/none' }, /"#\/\$defs\/none" at \/ points at nothing/],
    [
      'a missing anchor',
      { $defs: { a: { $anchor: 'a' } }, $ref: '#b' },
      /names an anchor the schema does not have/,
    ],
    ['a malformed fragment', { $ref: '#/%E0%A4%A' }, /not valid percent-encoding/],
  ])('refuses a $ref to %s at once', (_what, schema, message) => {
    expect(() => compileJsonSchema(schema)).toThrow(message);
  });

  it.each([
    ['the root', { type: 'object', properties: { child: { $ref: '#' } } }],
    [
      'an embedded resource by its $id',
      { $defs: { n: { $id: 'https://x.test/n.json', type: 'string' } }, $ref: 'https://x.test/n.json' },
    ],
    [
      'a pointer inside an embedded resource',
      { $id: 'https://x.test/root.json', $defs: { n: { type: 'string' } }, $ref: 'root.json#/$defs/n' },
    ],
    ['a pointer with escapes', { $defs: { 'a/b': { type: 'string' } }, $ref: '#/$defs/a~1b' }],
    ['the meta-schema', { $ref: 'https://json-schema.org/draft/2020-12/schema' }],
    [
      'a draft-07 anchor',
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        definitions: { n: { $id: '#n', type: 'string' } },
        $ref: '#n',
      },
    ],
  ])('accepts a $ref to %s', (_what, schema) => {
    expect(() => compileJsonSchema(schema)).not.toThrow();
  });

  it('reads a "$ref" inside const or enum as data, not as a reference', async () => {
    const validate = compileJsonSchema({ const: { $ref: 'https://example.com/x.json' } });
    expect((await validate({ $ref: 'https://example.com/x.json' })).ok).toBe(true);
  });

  it('resolves local $defs and $anchor references', async () => {
    const validate = compileJsonSchema({
      $defs: { name: { $anchor: 'name', type: 'string' } },
      type: 'object',
      properties: { a: { $ref: '#/$defs/name' }, b: { $ref: '#name' } },
    });
    expect((await validate({ a: 'x', b: 'y' })).ok).toBe(true);
    expect((await validate({ a: 1 })).ok).toBe(false);
  });
});

describe('compileSchema with a Standard Schema', () => {
  it('publishes the JSON Schema of a zod schema and validates with zod', async () => {
    const compiled = compileSchema(z.object({ text: z.string() }));
    expect(compiled.jsonSchema).toMatchObject({ type: 'object', required: ['text'] });
    expect(await compiled.validate({ text: 'hi' })).toEqual({ ok: true, value: { text: 'hi' } });
    const bad = await compiled.validate({ text: 1 });
    expect(bad.ok).toBe(false);
  });
});
