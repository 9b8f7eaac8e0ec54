import { describe, expect, it } from 'vitest';
import { HOT_AFTER } from './interpreted.js';
import { compileJsonSchema } from './json-schema.js';
import { firstDuplicate } from './duplicates.js';

const UNIQUE = { type: 'object', properties: { xs: { type: 'array', uniqueItems: true } } };
const DIALECTS = [
  undefined,
  'https://json-schema.org/draft/2019-09/schema',
  'http://json-schema.org/draft-07/schema#',
];

async function verdict(schema: object, xs: unknown[]): Promise<boolean> {
  return (await compileJsonSchema(schema)({ xs })).ok;
}

describe('uniqueItems (linear, JSON Schema equality)', () => {
  it('finds duplicates of every kind, in every dialect', async () => {
    const duplicates: unknown[][] = [
      [1, 2, 1],
      ['a', 'b', 'a'],
      [
        { a: 1, b: [2, { c: 3 }] },
        { b: [2, { c: 3 }], a: 1 },
      ],
      [
        [1, [2, 3]],
        [1, [2, 3]],
      ],
      [1, 1.0],
      [null, null],
      [false, true, false],
    ];
    for (const $schema of DIALECTS) {
      const schema = $schema ? { $schema, ...UNIQUE } : UNIQUE;
      for (const xs of duplicates) expect(await verdict(schema, xs), JSON.stringify(xs)).toBe(false);
    }
  });

  it('accepts distinct items, including look-alikes of other kinds', async () => {
    const distinct: unknown[][] = [
      [1, '1', [1], { 1: 1 }, true, 'true', null, 'null'],
      [{}, []],
      [{ a: 1 }, { a: 1, b: 2 }, { a: '1' }],
      [[1, 2], [2, 1], [[1, 2]]],
      [0.1, 0.2, 0.30000000000000004, 0.3],
    ];
    for (const xs of distinct) expect(await verdict(UNIQUE, xs), JSON.stringify(xs)).toBe(true);
  });

  it('accepts anything with uniqueItems: false', async () => {
    expect(await verdict({ properties: { xs: { uniqueItems: false } } }, [1, 1, { a: 1 }, { a: 1 }])).toBe(
      true,
    );
  });

  it('reports the duplicate like ajv does', async () => {
    const outcome = await compileJsonSchema(UNIQUE)({ xs: ['a', 'b', 'a'] });
    expect(outcome).toEqual({
      ok: false,
      issues: ["'/xs' must NOT have duplicate items (items ## 0 and 2 are identical)"],
    });
    expect(firstDuplicate([{ a: 1, b: 2 }, 3, { b: 2, a: 1 }])).toEqual([0, 2]);
    expect(firstDuplicate([1, 2, 3])).toBeUndefined();
  });

  // Sizes a pairwise (quadratic) check could not finish within the test timeout.
  it('checks 200 000 objects and 200 000 integers on the first call and once hot', async () => {
    const objects = Array.from({ length: 200_000 }, (_, i) => ({ a: i }));
    const integers = Array.from({ length: 200_000 }, (_, i) => i);
    const cases: [object, unknown[]][] = [
      [UNIQUE, objects],
      [{ properties: { xs: { items: { type: 'integer' }, uniqueItems: true } } }, integers],
    ];
    for (const [schema, xs] of cases) {
      const validate = compileJsonSchema(schema);
      expect((await validate({ xs })).ok).toBe(true);
      for (let i = 0; i < HOT_AFTER + 1; i++) await validate({ xs: [i] });
      expect((await validate({ xs })).ok).toBe(true);
      expect((await validate({ xs: [...xs, xs[7]] })).ok).toBe(false);
    }
  });
});
