/**
 * docs/reference.md says "anything not listed here is internal": every value export (function,
 * class, const) of every subpath's API snapshot (api/*.api.md) has a row in its subpath's
 * table, and every name a table lists is exported there (scripts/reference-gaps.mjs, which
 * `npm run docs:check` runs too).
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = resolve(import.meta.dirname, '../../scripts/reference-gaps.mjs');
const { referenceGaps, referenceRows } = (await import(script)) as {
  referenceGaps(): string[];
  referenceRows(text: string): Map<string, Set<string>>;
};

describe('the API reference', () => {
  it('lists every value export of every subpath, and nothing that is not exported', () => {
    expect(referenceGaps()).toEqual([]);
  });

  it('reads a table under a heading that names several subpaths as belonging to each', () => {
    const rows = referenceRows(
      ['**`mcpkit/a`**, **`mcpkit/b`**', '', '| export | what |', '| --- | --- |', '| `x`, `y` | two |'].join(
        '\n',
      ),
    );
    expect([...rows.get('mcpkit/a')!]).toEqual(['x', 'y']);
    expect([...rows.get('mcpkit/b')!]).toEqual(['x', 'y']);
  });
});
