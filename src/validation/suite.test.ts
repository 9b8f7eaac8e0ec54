/**
 * The interpreting engine (no code generation) gives ajv's verdict on the official
 * JSON-Schema-Test-Suite: every case of Debian's `json-schema-test-suite` (draft-07, with
 * the optional format, regex and bignum files), run as draft-07 and again under the
 * 2020-12 dialect, through `compileJsonSchema` with `engine: 'compiled'` and with
 * `engine: 'interpreted'`. A refused schema counts as a verdict of its own. The
 * differences are listed below, each with its reason; a listed difference that no
 * longer occurs fails too, so the list stays true.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from './json-schema.js';

const SUITE = process.env.JSON_SCHEMA_TEST_SUITE ?? '/usr/share/json-schema-test-suite/tests';
const DIALECTS = {
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
};

interface SuiteCase {
  description: string;
  schema: unknown;
  tests: { description: string; data: unknown; valid: boolean }[];
}

/**
 * Where the engines differ, by dialect and `file|case description`, and why. In each the
 * interpreter's verdict is the one the suite expects.
 */
const DIFFERENCES: { dialects: string[]; where: string; reason: string }[] = [
  {
    dialects: ['draft-07'],
    where: 'ref.json|ref overrides any sibling keywords',
    reason:
      'draft-07 ignores the siblings of $ref; ajv (since v7, no option to restore it) applies them, the interpreter ignores them',
  },
  {
    dialects: ['draft-07', '2020-12'],
    where: 'ref.json|Recursive references between schemas',
    reason:
      "the compiled engine compiles a copy without the root $id (two tools may declare the same $id, which ajv refuses), so the nested schemas' relative references cannot resolve; the interpreter keeps one lookup per schema",
  },
];

function suiteFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? suiteFiles(path) : name.endsWith('.json') ? [path] : [];
  });
}

type Verdict = 'valid' | 'invalid' | 'refused';

async function verdict(schema: object, data: unknown, engine: 'compiled' | 'interpreted'): Promise<Verdict> {
  let validate;
  try {
    validate = compileJsonSchema(schema, { engine });
    return (await validate(data)).ok ? 'valid' : 'invalid';
  } catch {
    return 'refused';
  }
}

/** The case's schema as an object of `dialect` (a boolean schema inside `allOf`). */
function inDialect(schema: unknown, dialect: string): object {
  const root = typeof schema === 'boolean' ? { allOf: [schema] } : (schema as Record<string, unknown>);
  return { ...root, $schema: dialect };
}

const draft7 = join(SUITE, 'draft7');
const files = suiteFiles(draft7).sort();

describe.each(Object.entries(DIALECTS))('the official test suite (draft7 cases) as %s', (label, dialect) => {
  it('gets the same verdict from the interpreter as from ajv, except the listed differences', async () => {
    const differing: string[] = [];
    let compared = 0;
    for (const file of files) {
      const name = file.slice(draft7.length + 1);
      for (const group of JSON.parse(readFileSync(file, 'utf8')) as SuiteCase[]) {
        const schema = inDialect(group.schema, dialect);
        for (const test of group.tests) {
          compared++;
          const [compiled, interpreted] = [
            await verdict(schema, test.data, 'compiled'),
            await verdict(schema, test.data, 'interpreted'),
          ];
          if (compiled !== interpreted) differing.push(`${name}|${group.description}`);
        }
      }
    }
    const listed = DIFFERENCES.filter((d) => d.dialects.includes(label)).map((d) => d.where);
    expect(compared).toBeGreaterThan(500);
    expect(differing.filter((where) => !listed.includes(where))).toEqual([]);
    expect(listed.filter((where) => !differing.includes(where))).toEqual([]);
  });
});

/** Keywords new in 2019-09/2020-12, which the draft-07 cases cannot reach: [schema, [value, valid]…]. */
const MODERN_KEYWORDS: [object, [unknown, boolean][]][] = [
  [
    { prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
    [
      [['a', 1], true],
      [['a', 1, 2], false],
      [[1], false],
    ],
  ],
  [
    { properties: { a: true }, allOf: [{ properties: { b: true } }], unevaluatedProperties: false },
    [
      [{ a: 1, b: 2 }, true],
      [{ a: 1, c: 3 }, false],
    ],
  ],
  [
    { prefixItems: [true], contains: { type: 'string' }, unevaluatedItems: false },
    [
      [[1, 'x'], true],
      [[1, 2], false],
    ],
  ],
  [
    { dependentSchemas: { a: { required: ['b'] } } },
    [
      [{ a: 1, b: 1 }, true],
      [{ a: 1 }, false],
      [{}, true],
    ],
  ],
  [
    { dependentRequired: { a: ['b', 'c'] } },
    [
      [{ a: 1, b: 1, c: 1 }, true],
      [{ a: 1, b: 1 }, false],
    ],
  ],
  [
    { $defs: { n: { $anchor: 'num', type: 'number' } }, items: { $ref: '#num' } },
    [
      [[1, 2], true],
      [[1, 'x'], false],
    ],
  ],
  [
    { contains: { const: 1 }, minContains: 2, maxContains: 3 },
    [
      [[1, 1], true],
      [[1], false],
      [[1, 1, 1, 1], false],
    ],
  ],
  [
    { if: { minimum: 10 }, then: { multipleOf: 5 }, else: { maximum: 3 } },
    [
      [15, true],
      [12, false],
      [2, true],
      [5, false],
    ],
  ],
  [
    { type: 'object', properties: { when: { type: 'string', format: 'date-time' } } },
    [
      [{ when: '2026-12-01T22:00:00Z' }, true],
      [{ when: 'yesterday' }, false],
    ],
  ],
  [
    { propertyNames: { pattern: '^[a-z]+$' }, patternProperties: { '^x': { type: 'integer' } } },
    [
      [{ xa: 1 }, true],
      [{ xa: 'no' }, false],
      [{ Ab: 1 }, false],
    ],
  ],
];

describe('2020-12 keywords beyond the draft-07 cases', () => {
  it.each(MODERN_KEYWORDS.map(([schema, values]) => [JSON.stringify(schema), schema, values] as const))(
    '%s: both engines give the expected verdicts',
    async (_name, schema, values) => {
      for (const [value, valid] of values) {
        const expected = valid ? 'valid' : 'invalid';
        expect([
          await verdict(schema, value, 'compiled'),
          await verdict(schema, value, 'interpreted'),
        ]).toEqual([expected, expected]);
      }
    },
  );
});
