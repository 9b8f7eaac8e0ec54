#!/usr/bin/env node
/**
 * `npm run bench:referee`: runs the project's benchmark referee (mcpbench, outside this
 * repository) against this checkout's dist/, the way the referee's README says: a writable
 * copy, its one dependency installed there, the official SDK anchors installed once under
 * $HOME/.cache/bench-anchors, harness pinned to CPU 0 and servers to CPU 1, rounds
 * alternating between servers. Prints the ratio table (also kept as OUT/ratios.md).
 *
 *   npm run bench:referee                          # everything, 3 rounds (~18 min)
 *   ONLY='^stdio\.modern' ROUNDS=2 npm run bench:referee
 *   REFEREE=/path/to/referee OUT=/tmp/out npm run bench:referee
 *
 * Without REFEREE the script looks for the referee next to the checkout: ../shared/referee,
 * ../../shared/referee (where the project keeps it: /work/shared/referee for /work/main or a
 * worktree under /work/wt) and /work/shared/referee; it stops with a clear message when none is there.
 * From a clean clone: `npm ci && REFEREE=/path/to/referee npm run bench:referee` (the script builds dist/).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findReferee, writableReferee } from './referee.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = findReferee(root, 'bench:referee');
const run = (command, args, options = {}) => execFileSync(command, args, { stdio: 'inherit', ...options });

const work = mkdtempSync(join(tmpdir(), 'mcpkit-referee-'));
const copy = writableReferee(source, work);
const anchors = process.env.ANCHORS ?? join(homedir(), '.cache', 'bench-anchors');
if (!existsSync(join(anchors, 'node_modules', '@modelcontextprotocol', 'sdk'))) {
  run('bash', ['anchors/setup.sh', anchors], { cwd: copy });
}
run('npm', ['run', 'build', '--silent'], { cwd: root });
const out = resolve(process.env.OUT ?? join(work, 'out'));
run('./referee.sh', [out], { cwd: copy, env: { ...process.env, MCPKIT: root, ANCHORS: anchors } });
// referee.sh prints the ratio table itself; the raw runs stay for `node ratio-table.mjs`.
console.error(`bench:referee: per-run figures and ratios.md in ${out}`);
