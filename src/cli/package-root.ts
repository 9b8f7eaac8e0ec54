/**
 * Files of this package (its package.json, dist/servers, dist/ui), found from wherever this
 * code runs: a bundled entry in dist/src/cli/, a shared chunk in dist/src/chunks/, or the
 * TypeScript sources under a test runner. Bundling moves code between files, so a path
 * relative to `import.meta.url` would point somewhere else depending on where it landed.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The package root: the nearest folder above this module that holds a package.json. */
function packageRoot(): string {
  if (root !== undefined) return root;
  const here = fileURLToPath(import.meta.url);
  let dir = dirname(here);
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`mcpkit: no package.json above ${here}`);
    dir = parent;
  }
  return (root = dir);
}

/**
 * The absolute path of `segments` under the package root, e.g.
 * `packagePath('dist', 'servers', 'everything', 'main.js')`.
 * @throws Error when no folder above this module holds a package.json.
 */
export function packagePath(...segments: string[]): string {
  return join(packageRoot(), ...segments);
}
