/**
 * Seeded fuzzing of what a client hands back or a server author writes: sealed
 * `requestState` (round trip; anything altered is refused with INVALID_ARGUMENT) and URI
 * templates through the public API (compile refuses cleanly or works; match never throws
 * and stays fast; expand then match gives the values back).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileUriTemplate, createStateSealer } from '../../src/server/index.js';
import { fuzzRuns, junk } from '../support/fuzz.js';

beforeAll(() => compileUriTemplate('{x}').ready); // matching loads re2js on first use

describe('requestState', () => {
  const sealer = createStateSealer();
  const binding = fc.record({ principal: fc.string(), method: fc.string(), digest: fc.string() });

  it('opens what it sealed, with the same binding', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), binding, async (payload, b) => {
        const opened = await sealer.open(await sealer.seal(payload, b), b);
        expect(opened).toEqual(JSON.parse(JSON.stringify(payload)));
      }),
      fuzzRuns(1),
    );
  });

  it('refuses arbitrary strings and altered states with INVALID_ARGUMENT, never anything else', async () => {
    const b = { principal: '', method: 'tools/call', digest: 'd' };
    const sealed = await sealer.seal({ answers: [1, 2] }, b);
    const altered = fc
      .tuple(fc.nat({ max: sealed.length - 1 }), fc.string({ minLength: 1, maxLength: 3 }))
      .map(([at, s]) => sealed.slice(0, at) + s + sealed.slice(at + 1))
      .filter((s) => s !== sealed);
    await fc.assert(
      fc.asyncProperty(fc.oneof(junk, altered), async (state) => {
        await expect(sealer.open(state, b)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      }),
      fuzzRuns(2),
    );
  });
});

describe('URI templates (public API)', () => {
  const templateText = fc.string({
    unit: fc.constantFrom(
      '{',
      '}',
      '+',
      '#',
      '.',
      '/',
      ';',
      '?',
      '&',
      ',',
      '*',
      ':',
      '3',
      'a',
      'b',
      'x',
      '%',
      '=',
      '!',
    ),
    maxLength: 30,
  });

  it('compile either refuses with INVALID_DEFINITION or gives a template whose match never throws', () => {
    fc.assert(
      fc.property(
        fc.oneof(templateText, junk),
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 4 }),
        (text, uris) => {
          let template: ReturnType<typeof compileUriTemplate>;
          try {
            template = compileUriTemplate(text);
          } catch (error) {
            expect(error).toMatchObject({ code: 'INVALID_DEFINITION' });
            return;
          }
          for (const uri of uris) template.match(uri);
        },
      ),
      fuzzRuns(5),
    );
  });

  it('expand then match gives the values back for simple and path variables', () => {
    const value = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(value, value, (a, b) => {
        const template = compileUriTemplate('res://{a}/x{/b}');
        expect(template.match(template.expand({ a, b }))).toEqual({ a, b });
      }),
      fuzzRuns(2),
    );
  });

  it('matching a long hostile URI stays linear (no backtracking blow-up)', () => {
    const template = compileUriTemplate('res://{a}{b}{c}{d}/{e}{f}');
    const started = performance.now();
    for (const uri of [
      `res://${'a'.repeat(20_000)}`,
      `res://${'%2'.repeat(10_000)}/`,
      `res://${'a/'.repeat(10_000)}!`,
    ]) {
      template.match(uri);
    }
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
