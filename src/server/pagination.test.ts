import { describe, expect, it } from 'vitest';
import { paginate } from './pagination.js';

describe('paginate', () => {
  const items = Array.from({ length: 5 }, (_, i) => i);

  it('walks every item in order, page by page, and stops without a cursor', () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = paginate('tools', items, cursor, 2);
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(items);
  });

  it.each(['garbage', btoa('["prompts",2]'), btoa('["tools",-1]'), btoa('["tools",99]'), 7])(
    'refuses the cursor %s with -32602',
    (cursor) => {
      expect(() => paginate('tools', items, cursor, 2)).toThrow(expect.objectContaining({ code: -32602 }));
    },
  );
});
