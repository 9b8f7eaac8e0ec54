/**
 * Public API snapshot: every package.json "exports" subpath's emitted declarations, printed
 * name by name (kind and signature), must match the committed api/<subpath>.api.md. A change
 * to the public surface is then visible in review. `npm run api:update` rewrites the files.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiEntries, printApis } from '../support/api-surface.js';

const root = resolve(import.meta.dirname, '../..');
const dir = join(root, 'api');
const update = process.env.UPDATE_API === '1';
const entries = apiEntries(root);
const printed = printApis(entries);

describe('public API snapshot', () => {
  it.each(entries.map((e) => [e.specifier, e.stem] as const))(
    '%s matches api/%s.api.md',
    (specifier, stem) => {
      const actual = printed.get(stem) ?? '';
      const file = join(dir, `${stem}.api.md`);
      if (update) {
        mkdirSync(dir, { recursive: true });
        writeFileSync(file, actual);
        return;
      }
      const hint = `The public API of ${specifier} differs from api/${stem}.api.md. If the change is intended, run \`npm run api:update\` and commit the result.`;
      if (!existsSync(file)) expect.fail(`api/${stem}.api.md is missing. ${hint}`);
      expect(actual, hint).toBe(readFileSync(file, 'utf8'));
    },
  );
});
