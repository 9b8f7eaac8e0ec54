import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from './json-schema.js';
import { safeRegExp } from './safe-regexp.js';

const EVIL = `${'a'.repeat(34)}!`;

async function outcome(schema: object, value: unknown): Promise<boolean> {
  return (await compileJsonSchema(schema)(value)).ok;
}

describe('schema regular expressions run in linear time', () => {
  it('rejects 34 × a + ! against ^(a+)+$ at once instead of backtracking for hours', async () => {
    const started = performance.now();
    expect(await outcome({ type: 'string', pattern: '^(a+)+$' }, EVIL)).toBe(false);
    expect(await outcome({ type: 'string', pattern: '^(a+)+$' }, 'aaaa')).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('keeps patternProperties and propertyNames on the same engine', async () => {
    const schema = { type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } } };
    expect(await outcome(schema, { [EVIL]: 'x', aaa: 1 })).toBe(true);
    expect(await outcome(schema, { aaa: 'x' })).toBe(false);
    expect(await outcome({ propertyNames: { pattern: '^(x+x+)+y$' } }, { [`${'x'.repeat(40)}`]: 1 })).toBe(
      false,
    );
  });

  it('matches a 4 MiB string against a nested quantifier in well under a second', () => {
    const re = safeRegExp('^(a|aa)+$', 'u');
    const started = performance.now();
    expect(re.test(`${'a'.repeat(4 * 1024 * 1024)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('follows ECMA-262 syntax: \\u escapes, \\p classes, unanchored search, the i flag', () => {
    expect(safeRegExp('\\u0041', 'u').test('xAx')).toBe(true);
    expect(safeRegExp('^\\p{L}+$', 'u').test('été')).toBe(true);
    expect(safeRegExp('^abc$', 'i').test('ABC')).toBe(true);
    expect(safeRegExp('(?<=a)b').test('ab')).toBe(true);
  });

  it('refuses lookahead and backreferences with INVALID_DEFINITION naming the pattern', async () => {
    for (const pattern of ['^(?=a)a$', '(a)\\1', '(?!x)y']) {
      expect(() => safeRegExp(pattern)).toThrow(expect.objectContaining({ code: 'INVALID_DEFINITION' }));
      await expect(
        Promise.resolve().then(() => compileJsonSchema({ type: 'string', pattern })('a')),
      ).rejects.toThrow(/pattern .*not supported by the linear-time engine/);
    }
  });

  it('refuses patterns that are too long or compile to a huge program', () => {
    expect(() => safeRegExp('a'.repeat(5000))).toThrow(/longer than 4096/);
    expect(() => safeRegExp('(?:a{1000}){20}'.repeat(1))).toThrow(/too costly|not supported/);
  });
});

describe('formats run in linear time', () => {
  it.each([
    ['email', 'a@b.co', `${'a.'.repeat(20_000)}@`],
    ['hostname', 'example.com', `${'a-'.repeat(30_000)}!`],
    ['duration', 'P1DT2H', 'PT'],
    ['ipv6', '::1', `${'0:'.repeat(20_000)}x`],
    ['uri-reference', '/a/b?c', `${'/a'.repeat(50_000)}\\`],
    ['url', 'https://example.com/x', `https://${'a'.repeat(3000)}.com`],
    ['uri', 'https://example.com', `a:${'%aa'.repeat(50_000)}%`],
  ])('%s accepts a good value and rejects a crafted one quickly', async (format, good, bad) => {
    const started = performance.now();
    expect(await outcome({ type: 'string', format }, good)).toBe(true);
    expect(await outcome({ type: 'string', format }, bad)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('keeps the hostname length rule and the duration shape rules', async () => {
    expect(await outcome({ format: 'hostname' }, `${'a'.repeat(60)}.`.repeat(5))).toBe(false);
    expect(await outcome({ format: 'duration' }, 'P')).toBe(false);
    expect(await outcome({ format: 'duration' }, 'P3W')).toBe(true);
  });
});
