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

  it('never fetches a network $ref: validation fails with INVALID_DEFINITION instead', async () => {
    const validate = compileJsonSchema({ $ref: 'https://example.com/schema.json' });
    await expect(Promise.resolve().then(() => validate({}))).rejects.toMatchObject({
      code: 'INVALID_DEFINITION',
    });
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
