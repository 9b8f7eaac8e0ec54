import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileJsonSchema } from './json-schema.js';
import { checkSchemaPatterns, schemaPatterns, unsupportedConstruct } from './patterns.js';
import { compileSchema } from './schema.js';
import { safeRegExp } from './safe-regexp.js';

const EVIL = `${'a'.repeat(34)}!`;

describe('the syntax scan finds what RE2 cannot express', () => {
  it.each([
    ['^(?=a)a$', 'lookahead'],
    ['(?!x)y', 'lookahead'],
    ['(a)\\1', 'backreferences'],
    ['(?<n>a)\\k<n>', 'backreferences'],
    ['(?<=(a))b', 'a capture inside lookbehind'],
    ['(?<=a(?<n>b))c', 'a capture inside lookbehind'],
  ])('%s → %s', (pattern, why) => {
    expect(unsupportedConstruct(pattern)).toBe(why);
  });

  it.each(['[(?=]a', '\\(?=x', '(?<=a)b', '(?<=(?:a))b', '(?<n>a)b', '^[a-z]+$', '\\\\1'])(
    'accepts %s',
    (pattern) => {
      expect(unsupportedConstruct(pattern)).toBeUndefined();
      expect(() => safeRegExp(pattern, 'u')).not.toThrow();
    },
  );

  it('refuses nothing re2js would compile (outside the named backreference re2js misreads)', () => {
    const token = fc.constantFrom(
      'a',
      'b',
      '(',
      ')',
      '(?=',
      '(?!',
      '(?<=',
      '(?<!',
      '(?:',
      '(?<n>',
      '\\1',
      '[',
      ']',
      '\\(',
      '\\[',
      '|',
      '*',
      '\\\\',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 12 }), (tokens) => {
        const pattern = tokens.join('');
        try {
          new RegExp(pattern, 'u');
        } catch {
          return; // not an ECMA-262 pattern at all
        }
        if (unsupportedConstruct(pattern) === undefined) return;
        expect(() => RE2JS.compile(RE2JS.translateRegExp(pattern), RE2JS.LOOKBEHINDS)).toThrow();
      }),
      { numRuns: 2000, seed: 15 },
    );
  });

  it('reads a named backreference as one, where re2js alone would match the literal k<n>', () => {
    expect(RE2JS.compile(RE2JS.translateRegExp('^(?<n>x)\\k<n>$')).test('xk<n>')).toBe(true);
    expect(() => safeRegExp('^(?<n>x)\\k<n>$')).toThrow(/backreferences/);
  });

  it('finds patterns in subschemas and patternProperties keys, not in data keywords', () => {
    const schema = {
      properties: { pattern: { type: 'string', pattern: 'p1' }, const: { pattern: 'p2' } },
      patternProperties: { k1: { items: { pattern: 'p3' } } },
      const: { pattern: '(?=data)' },
      examples: [{ pattern: '(?=data)' }],
    };
    expect(schemaPatterns(schema).sort()).toEqual(['k1', 'p1', 'p2', 'p3']);
    expect(() => checkSchemaPatterns(schema)).not.toThrow();
  });
});

describe('pattern limits are options', () => {
  it('maxPatternLength: refused at compile time beyond it, accepted when raised', async () => {
    const schema = { type: 'string', pattern: 'a'.repeat(5000) };
    expect(() => compileJsonSchema(schema)).toThrow(
      /longer than 4096 characters \(limits.schema.maxPatternLength\)/,
    );
    expect(() => compileJsonSchema({ type: 'string', pattern: 'abcdef' }, { maxPatternLength: 3 })).toThrow(
      /longer than 3 characters/,
    );
    expect((await compileJsonSchema(schema, { maxPatternLength: 6000 })('a'.repeat(5000))).ok).toBe(true);
  });

  it('maxPatternProgram: the same pattern is refused under a small program bound and runs under the default', async () => {
    const schema = { type: 'string', pattern: '^[a-z]{50}$' };
    expect((await compileJsonSchema(schema)('a'.repeat(50))).ok).toBe(true);
    await expect(
      Promise.resolve().then(() => compileJsonSchema(schema, { maxPatternProgram: 20 })('a')),
    ).rejects.toThrow(/RE2 program over 20 instructions, limits.schema.maxPatternProgram/);
    const costly = '(?:[a-z]{30}){30}'.repeat(25); // about 22 500 RE2 instructions
    expect(() => safeRegExp(costly)).toThrow(/too costly \(RE2 program over 20000 instructions/);
    expect(() => safeRegExp(costly, '', { maxPatternProgram: 30_000 })).not.toThrow();
  });

  it('maxUrlLength: the url format accepts up to the bound, per schema', async () => {
    const schema = { type: 'string', format: 'url' };
    const url = `http://example.com/${'a'.repeat(3000)}`;
    expect((await compileJsonSchema(schema)(url)).ok).toBe(false);
    expect((await compileJsonSchema(schema, { maxUrlLength: 4000 })(url)).ok).toBe(true);
    expect((await compileJsonSchema(schema, { maxUrlLength: 10 })('http://example.com/')).ok).toBe(false);
    expect((await compileJsonSchema(schema)('http://example.com/')).ok).toBe(true);
  });
});

describe('zod .regex() checks run on RE2', () => {
  it('rejects 34 × a + ! against z.string().regex(/^(a+)+$/) at once', async () => {
    const schema = z.object({ q: z.string().regex(/^(a+)+$/) });
    const compiled = compileSchema(schema);
    const started = performance.now();
    expect((await compiled.validate({ q: EVIL })).ok).toBe(false);
    expect((await compiled.validate({ q: 'aaaa' })).ok).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(compiled.jsonSchema).toMatchObject({ properties: { q: { pattern: '^(a+)+$' } } });
  });

  it('reaches regexes inside arrays, unions, optionals, records and lazy schemas', async () => {
    const leaf = z.string().regex(/^(x+x+)+y$/);
    const schema = z.object({
      list: z.array(leaf).optional(),
      either: z.union([z.number(), leaf]).optional(),
      map: z.record(z.string(), leaf).optional(),
      later: z.lazy(() => leaf).optional(),
    });
    const compiled = compileSchema(schema);
    const bad = `${'x'.repeat(40)}`;
    const started = performance.now();
    for (const value of [{ list: [bad] }, { either: bad }, { map: { k: bad } }, { later: bad }])
      expect((await compiled.validate(value)).ok).toBe(false);
    expect((await compiled.validate({ list: ['xxy'], later: 'xxy' })).ok).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses a lookahead in a zod regex at compile time, naming the owner and the pattern', () => {
    expect(() =>
      compileSchema(z.object({ q: z.string().regex(/^(?!admin).*$/) }), undefined, "tool 'find' inputSchema"),
    ).toThrow(
      /tool 'find' inputSchema: Invalid JSON Schema: pattern "\^\(\?!admin\)\.\*\$" not supported by the linear-time engine \(lookahead\)/,
    );
  });

  it('honours the i, m and s flags', async () => {
    const compiled = compileSchema(
      z.object({ a: z.string().regex(/^abc$/i), b: z.string().regex(/^x.y$/s) }),
    );
    expect((await compiled.validate({ a: 'ABC', b: 'x\ny' })).ok).toBe(true);
    expect((await compiled.validate({ a: 'ABD', b: 'x\ny' })).ok).toBe(false);
  });
});
