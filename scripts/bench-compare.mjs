#!/usr/bin/env node
/**
 * `npm run bench:compare -- <commit>`: the working tree against another commit on the
 * benchmark referee (mcpbench, outside this repository), by the referee's method: harness
 * pinned to CPU 0 (`taskset -c 0`), servers to CPU 1 (`--server-cpus 1`), the referee's own
 * mcpkit servers (`mcpkit/stdio.mjs`, `mcpkit/http.mjs`, zod echo) with MCPKIT set to each
 * checkout, rounds alternating between the two. Prints each figure as base, new and new ÷ base.
 *
 *   npm run bench:compare -- de1a39d                     # 4 modes, 3 rounds of 3 s (~8 min)
 *   ONLY='^stdio\.modern' ROUNDS=1 DURATION=1 npm run bench:compare -- HEAD~3
 *   npm run bench:compare -- --base-dir /path/to/built/checkout   # a base already built
 *   npm run bench:compare -- de1a39d --keep --out /tmp/cmp         # keep the base worktree
 *
 * The base: `git worktree add --detach` of <commit> in a temporary folder outside the
 * repository; its node_modules is a hard-link copy (`cp -al`) of this checkout's when the two
 * package-lock.json are identical, else `npm ci`; then `npm run build`. The worktree is removed
 * at the end unless --keep. `--base-dir` uses a checkout whose dist/ is built instead.
 * The working tree is built with `npm run build` (skipped when dist/ is current).
 *
 * Environment, as the referee's: ROUNDS (3), DURATION (seconds per phase, 3), ONLY (a regex on
 * the run name `<transport>.<era>.<base|mcpkit>`), REFEREE (the referee folder, see
 * referee.mjs), OUT (the output folder; default a new folder under the system temp dir).
 *
 * Modes and phases are the referee's (referee.sh): stdio modern and legacy c1,c16,p1m; HTTP
 * modern c1,c16; HTTP legacy mem,c16. Runs are saved as OUT/<mode>.base.rN.json (the base) and
 * OUT/<mode>.mcpkit.rN.json (the working tree), so the referee's own ratio-table.mjs reads
 * them too (OUT/referee-ratios.md, "mcpkit ÷ base"). The table is OUT/compare.md.
 *
 * new ÷ base: within a round the two runs of a mode are adjacent in time (their order
 * alternates from round to round), so each round gives one ratio, new ÷ base, that machine
 * drift mostly cancels out of. A cell shows the median of those ratios and, in brackets, the
 * smallest and largest: a bracket that contains 1 means no difference shown by this run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { compareTable } from './bench-compare-table.mjs';
import { findReferee, writableReferee } from './referee.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NAME = 'bench:compare';

/** The referee's configurations (referee.sh), mcpkit only. */
const MODES = [
  { mode: 'stdio.modern', transport: 'stdio', protocol: 'modern', phases: 'c1,c16,p1m' },
  { mode: 'stdio.legacy', transport: 'stdio', protocol: 'legacy', phases: 'c1,c16,p1m' },
  { mode: 'http.modern', transport: 'http', protocol: 'modern', phases: 'c1,c16' },
  { mode: 'http.legacy', transport: 'http', protocol: 'legacy', phases: 'mem,c16' },
];

const run = (command, args, options = {}) => execFileSync(command, args, { stdio: 'inherit', ...options });
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

/** A stop with a one-line reason (exit status 2), after the base worktree is removed. */
class Stop extends Error {}

function fail(message) {
  throw new Stop(message);
}

function options() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'base-dir': { type: 'string' },
      out: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  });
  if (!values['base-dir'] && positionals.length !== 1)
    fail('usage: npm run bench:compare -- <commit> | --base-dir <built checkout> [--out DIR] [--keep]');
  const only = new RegExp(process.env.ONLY ?? '.');
  const rounds = Number(process.env.ROUNDS ?? 3);
  const duration = Number(process.env.DURATION ?? 3);
  if (!(rounds >= 1 && duration > 0)) fail(`ROUNDS must be ≥ 1 and DURATION > 0`);
  return {
    commit: positionals[0],
    baseDir: values['base-dir'],
    out: values.out,
    keep: values.keep,
    only,
    rounds,
    duration,
  };
}

/** True when `dir` has the built entry points the referee's servers import. */
const built = (dir) =>
  [
    'dist/src/server/index.js',
    'dist/src/integrations/node/index.js',
    'dist/src/integrations/stdio/index.js',
  ].every((file) => existsSync(join(dir, file)));

/** A temporary worktree of `commit`, installed and built; `remove()` deletes it. */
function baseWorktree(commit, work) {
  const sha = git('rev-parse', '--verify', `${commit}^{commit}`);
  const dir = join(work, `base-${sha.slice(0, 10)}`);
  run('git', ['worktree', 'add', '--quiet', '--detach', dir, sha], { cwd: root });
  const remove = () => run('git', ['worktree', 'remove', '--force', dir], { cwd: root });
  try {
    const lock = (at) => readFileSync(join(at, 'package-lock.json'));
    if (existsSync(join(root, 'node_modules')) && lock(dir).equals(lock(root))) {
      console.error(`${NAME}: same package-lock.json: node_modules hard-linked from ${root}`);
      run('cp', ['-al', join(root, 'node_modules'), join(dir, 'node_modules')]);
      // Tool caches are rewritten in place; unlinked here, the base's build cannot write through to ours.
      for (const cache of ['.cache', '.vite', '.vitest'])
        rmSync(join(dir, 'node_modules', cache), { recursive: true, force: true });
    } else {
      run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir });
    }
    run('npm', ['run', 'build', '--silent'], { cwd: dir });
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, sha, remove };
}

/** A port free on 127.0.0.1 a moment ago (the referee's way: the server binds it next). */
function freePort() {
  return new Promise((done, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

/** One mcpbench run of `checkout` in `config`, pinned as the referee pins; false when it failed. */
async function benchOnce({ config, checkout, name, file, referee, duration }) {
  const common = ['--protocol', config.protocol, '--phases', config.phases, '--runs', '1'];
  common.push('--duration', String(duration), '--warmup', '1', '--server-cpus', '1', '--quiet');
  common.push('--label', name, '--json', file);
  const server = join(referee, 'mcpkit', `${config.transport}.mjs`);
  let args;
  if (config.transport === 'stdio') args = ['stdio', ...common, '--', 'node', server];
  else {
    const port = await freePort();
    args = [
      'http',
      '--url',
      `http://127.0.0.1:${port}/mcp`,
      ...common,
      '--',
      'node',
      server,
      '--port',
      String(port),
    ];
  }
  try {
    execFileSync('taskset', ['-c', '0', 'node', join(referee, 'mcpbench.mjs'), ...args], {
      cwd: referee,
      env: { ...process.env, MCPKIT: checkout },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return true;
  } catch {
    console.error(`!!! ${name} failed`);
    return false;
  }
}

/** Every round: each selected mode, base and working tree back to back, first one alternating. */
async function rounds(o, { referee, base, out }) {
  const sides = [
    { side: 'base', checkout: base },
    { side: 'mcpkit', checkout: root },
  ];
  for (let r = 1; r <= o.rounds; r++) {
    const order = r % 2 === 1 ? sides : [...sides].reverse();
    for (const config of MODES) {
      for (const { side, checkout } of order) {
        const name = `${config.mode}.${side}`;
        if (!o.only.test(name)) continue;
        console.error(`### round ${r}: ${name}`);
        const file = join(out, `${name}.r${r}.json`);
        await benchOnce({ config, checkout, name, file, referee, duration: o.duration });
      }
    }
  }
}

function preflight() {
  if (process.platform !== 'linux' || availableParallelism() < 2)
    fail('needs Linux with 2 CPUs or more (harness on CPU 0, servers on CPU 1)');
  try {
    execFileSync('taskset', ['-c', '0', 'true']);
  } catch {
    fail('needs taskset (util-linux) to pin the harness and the servers');
  }
}

async function main() {
  const o = options();
  preflight();
  const source = findReferee(root, NAME);
  const work = mkdtempSync(join(tmpdir(), 'mcpkit-compare-'));
  const worktree = o.baseDir ? undefined : baseWorktree(o.commit, work);
  const base = o.baseDir ? resolve(o.baseDir) : worktree.dir;
  try {
    const referee = writableReferee(source, work);
    if (!built(base)) fail(`${base} has no built dist/ (run npm run build there)`);
    run('npm', ['run', 'build', '--silent'], { cwd: root });
    const out = resolve(o.out ?? process.env.OUT ?? mkdtempSync(join(tmpdir(), 'mcpkit-compare-out-')));
    mkdirSync(out, { recursive: true });
    const meta = describe(o, base, worktree);
    writeFileSync(join(out, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
    await rounds(o, { referee, base, out });
    const table = compareTable(out, meta);
    writeFileSync(join(out, 'compare.md'), table);
    const ratios = execFileSync('node', [join(referee, 'ratio-table.mjs'), out], { encoding: 'utf8' });
    writeFileSync(join(out, 'referee-ratios.md'), ratios);
    console.log(table);
    console.error(`${NAME}: runs, compare.md and referee-ratios.md in ${out}`);
  } finally {
    if (worktree && o.keep) {
      rmSync(join(work, 'referee'), { recursive: true, force: true });
      console.error(`${NAME}: base kept in ${worktree.dir} (reuse: --base-dir ${worktree.dir})`);
    } else {
      worktree?.remove();
      rmSync(work, { recursive: true, force: true });
    }
  }
}

/** What was compared with what, for the table's heading and OUT/meta.json. */
function describe(o, base, worktree) {
  const dirty = git('status', '--porcelain').length > 0;
  let baseHead = worktree?.sha;
  try {
    baseHead ??= execFileSync('git', ['rev-parse', 'HEAD'], { cwd: base, encoding: 'utf8' }).trim();
  } catch {
    baseHead = 'unknown (not a git checkout)';
  }
  return {
    date: new Date().toISOString(),
    base: { dir: base, commit: baseHead },
    new: { dir: root, commit: git('rev-parse', 'HEAD'), dirty },
    rounds: o.rounds,
    duration: o.duration,
    only: o.only.source,
  };
}

main().catch((error) => {
  if (!(error instanceof Stop)) throw error;
  console.error(`${NAME}: ${error.message}`);
  process.exit(2);
});
