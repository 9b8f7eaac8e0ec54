/**
 * The inspector's form library would run a server's `pattern`s on V8 in the browser as the
 * person types; the schema it gets has none (the pattern moves to the description).
 */
import { describe, expect, it } from 'vitest';
import { withoutPatterns } from '../../ui/src/safe-schema.js';

describe('the inspector form never gets a server pattern to run', () => {
  it('drops pattern and patternProperties at every depth, keeping the pattern visible and data untouched', () => {
    const hostile = {
      type: 'object',
      properties: {
        q: { type: 'string', pattern: '^(a+)+$', default: `${'a'.repeat(34)}!` },
        pattern: { type: 'string', description: 'a property named pattern', pattern: 'x+' },
        list: { type: 'array', items: { type: 'string', pattern: '(x+x+)+y' } },
        map: { type: 'object', patternProperties: { '^(a+)+$': { type: 'string' } } },
      },
      default: { q: 'kept', pattern: 'data, not a keyword' },
    };
    const safe = withoutPatterns(hostile);
    expect(JSON.stringify(safe)).not.toContain('"pattern":"^');
    expect(JSON.stringify(safe)).not.toContain('patternProperties');
    expect(safe.properties.q).toEqual({
      type: 'string',
      description: 'pattern: ^(a+)+$',
      default: `${'a'.repeat(34)}!`,
    });
    expect(safe.properties.pattern).toEqual({
      type: 'string',
      description: 'a property named pattern (pattern: x+)',
    });
    expect(safe.properties.list.items).toEqual({ type: 'string', description: 'pattern: (x+x+)+y' });
    expect(safe.properties.map).toEqual({ type: 'object' });
    expect(safe.default).toEqual({ q: 'kept', pattern: 'data, not a keyword' });
  });
});
