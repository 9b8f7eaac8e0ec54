// docs/reference.md against the API snapshots (api/<subpath>.api.md): every value export
// (function, class, const) of every subpath has a row in that subpath's table, and every name
// a table lists is exported there. Used by `npm run docs:check` and test/docs/reference.test.ts;
// `node scripts/reference-gaps.mjs` prints the gaps and exits 1 when there are any.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The snapshot of `mcpkit/x` is api/x.api.md; the root's is api/mcpkit.api.md. */
const subpathOf = (stem) => (stem === 'mcpkit' ? 'mcpkit' : `mcpkit/${stem}`);

/** Each subpath's exports from its snapshot: value names (function, class, const) and all names. */
export function snapshotExports(root = ROOT) {
  const out = new Map();
  for (const file of readdirSync(join(root, 'api')).filter((name) => name.endsWith('.api.md'))) {
    const text = readFileSync(join(root, 'api', file), 'utf8');
    const values = new Set();
    const all = new Set();
    for (const [, kind, name] of text.matchAll(/^(const|function|class|interface|type) ([\w$]+)/gm)) {
      all.add(name);
      if (kind === 'const' || kind === 'function' || kind === 'class') values.add(name);
    }
    out.set(subpathOf(file.replace(/\.api\.md$/, '')), { values, all });
  }
  return out;
}

/**
 * The names each reference table lists, by subpath: a table under a bold line naming one or
 * more subpaths (`**\`mcpkit/node\`**, **\`mcpkit/express\`**`) lists the backquoted names of
 * its first column, and belongs to all of them.
 */
export function referenceRows(text) {
  const out = new Map();
  let current = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('**`')) {
      current = [...line.matchAll(/\*\*`(mcpkit[\w/-]*)`\*\*/g)].map((m) => m[1]);
      for (const subpath of current) if (!out.has(subpath)) out.set(subpath, new Set());
      continue;
    }
    const cell = /^\|\s*([^|]*?)\s*\|/.exec(line)?.[1];
    if (cell === undefined || current.length === 0 || /^-+$/.test(cell) || cell === 'export') continue;
    for (const [, name] of cell.matchAll(/`([\w$]+)`/g))
      for (const subpath of current) out.get(subpath).add(name);
  }
  return out;
}

/** Every disagreement between docs/reference.md and the snapshots, one line each. */
export function referenceGaps(root = ROOT) {
  const exports = snapshotExports(root);
  const rows = referenceRows(readFileSync(join(root, 'docs', 'reference.md'), 'utf8'));
  const gaps = [];
  for (const [subpath, { values, all }] of exports) {
    const listed = rows.get(subpath) ?? new Set();
    for (const name of values)
      if (!listed.has(name)) gaps.push(`${subpath}: \`${name}\` is exported but has no row`);
    for (const name of listed)
      if (!all.has(name)) gaps.push(`${subpath}: \`${name}\` has a row but is not exported`);
  }
  for (const subpath of rows.keys())
    if (!exports.has(subpath)) gaps.push(`${subpath}: a table for a subpath with no snapshot`);
  return gaps;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const gaps = referenceGaps();
  for (const gap of gaps) console.error(`reference: ${gap}`);
  process.exit(gaps.length === 0 ? 0 : 1);
}
