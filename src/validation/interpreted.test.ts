import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOT_AFTER, hybridValidator, interpretable } from './interpreted.js';
import { compileJsonSchema } from './json-schema.js';
import type { ValidationOutcome } from './types.js';

const ECHO = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
const RICH = {
  type: 'object',
  $defs: { n: { type: 'integer', minimum: 0, maximum: 10 } },
  properties: {
    a: { $ref: '#/$defs/n' },
    b: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 3 },
    c: { oneOf: [{ type: 'null' }, { type: 'boolean' }] },
    d: { enum: ['x', 1, null] },
  },
  additionalProperties: false,
};

/** A validator of `schema` that only ever uses ajv (the reference), and counts its calls. */
function ajvOnly(schema: object): {
  validate: (v: unknown) => Promise<ValidationOutcome>;
  calls: () => number;
} {
  // A `format` key (even undefined) keeps compileJsonSchema on ajv alone: see interpretable().
  const validate = compileJsonSchema({ ...schema, format: undefined } as object);
  let calls = 0;
  return { validate: async (v) => (calls++, validate(v)), calls: () => calls };
}

describe('the hybrid JSON Schema validator', () => {
  it('routes only schemas without patterns, formats, uniqueItems, multipleOf, outside or dynamic references to the interpreter', () => {
    expect(interpretable(ECHO)).toBe(true);
    expect(interpretable(RICH)).toBe(true);
    expect(interpretable({ type: 'string', pattern: '^a' })).toBe(false);
    expect(interpretable({ properties: { e: { type: 'string', format: 'email' } } })).toBe(false);
    expect(interpretable({ $ref: 'https://example.com/s.json' })).toBe(false);
    expect(interpretable({ $dynamicRef: '#node' })).toBe(false);
    expect(interpretable({ properties: { a: { type: 'array', uniqueItems: true } } })).toBe(false);
    expect(interpretable({ properties: { x: { type: 'number', multipleOf: 0.1 } } })).toBe(false);
  });

  it('gives the same multipleOf verdict on the first call and once hot (ajv decides fractional divisors)', async () => {
    const schema = { type: 'object', properties: { x: { type: 'number', multipleOf: 0.1 } } };
    const validate = compileJsonSchema(schema);
    const first = await validate({ x: 0.3 });
    for (let i = 0; i < HOT_AFTER + 1; i++) await validate({ x: 1 });
    expect(await validate({ x: 0.3 })).toEqual(first);
    expect(first).toEqual(await ajvOnly(schema).validate({ x: 0.3 }));
    expect((await validate({ x: 0.5 })).ok).toBe(true);
  });

  it('answers valid values itself and hands rejected ones to ajv for the verdict and message', async () => {
    const reference = ajvOnly(ECHO);
    const validate = hybridValidator(ECHO, reference.validate);
    expect(await validate({ text: 'hi' })).toEqual({ ok: true, value: { text: 'hi' } });
    expect(reference.calls()).toBe(0);
    const bad = await validate({ text: 1 });
    expect(bad).toEqual(await compileJsonSchema(ECHO)({ text: 1 }));
    expect(bad.ok).toBe(false);
  });

  it('switches to ajv once the schema is hot, with the same verdicts', async () => {
    const reference = ajvOnly(ECHO);
    const validate = hybridValidator(ECHO, reference.validate);
    for (let i = 0; i < HOT_AFTER; i++)
      expect(await validate({ text: String(i) })).toMatchObject({ ok: true });
    await expect.poll(async () => (await validate({ text: 'x' }), reference.calls())).toBeGreaterThan(1);
  });

  it('checks the schema against the 2020-12 meta-schema: one that fails goes to ajv, which refuses it', async () => {
    const schema = { type: 'object', properties: { a: { minLength: 'two' } } }; // the interpreter would accept
    const reference = ajvOnly(schema);
    const validate = hybridValidator(schema, reference.validate);
    await expect(Promise.resolve().then(() => validate({ a: 'x' }))).rejects.toMatchObject({
      code: 'INVALID_DEFINITION',
    });
    expect(reference.calls()).toBe(1);
  });

  it('agrees with ajv on random values (verdict and issues)', async () => {
    const hybrid = hybridValidator(RICH, ajvOnly(RICH).validate);
    const reference = ajvOnly(RICH);
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            a: fc.oneof(fc.integer({ min: -3, max: 13 }), fc.double(), fc.string()),
            b: fc.array(fc.oneof(fc.string({ maxLength: 2 }), fc.integer()), { maxLength: 4 }),
            c: fc.oneof(fc.constant(null), fc.boolean(), fc.integer()),
            d: fc.oneof(fc.constantFrom('x', 1, null, 'y'), fc.object()),
            e: fc.string(),
          },
          { requiredKeys: [] },
        ),
        async (value) => {
          expect(await hybrid(value)).toEqual(await reference.validate(value));
        },
      ),
      { numRuns: 300 },
    );
  });
});
