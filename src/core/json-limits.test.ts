import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestedDeeperThan, valueDeeperThan } from './json-limits.js';

/** Nesting depth of a parsed JSON value (arrays and objects count one level each). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Object.values(value as object);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('nestedDeeperThan', () => {
  it('agrees with the depth of the parsed value, brackets and escapes inside strings included', () => {
    const tricky = fc.stringMatching(/^[\\"[\]{}a]{0,12}$/);
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        tricky,
        fc.integer(),
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(tricky, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 6 }), (v, max) => {
        const text = JSON.stringify(v);
        expect(nestedDeeperThan(text, max)).toBe(depthOf(JSON.parse(text)) > max);
        expect(valueDeeperThan(v, max)).toBe(depthOf(v) > max);
      }),
      { numRuns: 2000 },
    );
  });

  it('finds deep nesting after a long string full of escaped quotes and backslashes', () => {
    const long = 'x\\"'.repeat(50_000) + '\\\\';
    const text = JSON.stringify([long, [[[[1]]]]]);
    expect(nestedDeeperThan(text, 4)).toBe(true);
    expect(nestedDeeperThan(text, 5)).toBe(false);
  });
});

describe('valueDeeperThan', () => {
  it('walks a value 100 000 levels deep without overflowing the stack', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as unknown;
    expect(valueDeeperThan(deep, 256)).toBe(true);
    expect(valueDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
  });
});
