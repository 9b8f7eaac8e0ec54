/**
 * Where the benchmark referee (mcpbench, kept outside this repository) is, and a writable copy
 * of it with its one dependency installed: shared by bench-referee.mjs and bench-compare.mjs.
 *
 * Without REFEREE the referee is looked for next to the checkout: ../shared/referee,
 * ../../shared/referee (where the project keeps it: /work/shared/referee for /work/main or a
 * worktree under /work/wt) and /work/shared/referee.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The referee folder for the checkout at `root`, or exits (status 2) with a message naming
 * the places looked at. `script` names the caller in that message.
 */
export function findReferee(root, script) {
  const candidates = process.env.REFEREE
    ? [resolve(process.env.REFEREE)]
    : [
        join(root, '..', 'shared', 'referee'),
        join(root, '..', '..', 'shared', 'referee'),
        '/work/shared/referee',
      ];
  const source = candidates.find((dir) => existsSync(join(dir, 'referee.sh')));
  if (source) return source;
  console.error(
    `${script}: no referee at ${candidates.join(' or ')} (set REFEREE=<path to the referee folder>)`,
  );
  process.exit(2);
}

/** Copies the referee at `source` to `<work>/referee` and installs its dependency there; returns the copy. */
export function writableReferee(source, work) {
  const copy = join(work, 'referee');
  cpSync(source, copy, { recursive: true });
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--silent'], { cwd: copy, stdio: 'inherit' });
  return copy;
}
