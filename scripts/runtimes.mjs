#!/usr/bin/env node
// The runtimes mcpkit is proved on besides the system Node (20): Node 22, 24 and 26, Bun, Deno
// and wrangler (with workerd), pinned in scripts/runtimes/package.json and its lockfile and
// installed on demand from the npm registry (each package ships its binary).
//
// They go into a prefix of their own, node_modules/.cache/mcpkit-runtimes/<lockfile digest>/,
// never into the project's node_modules: there a `node` package's bin in node_modules/.bin would
// replace the system Node in every npm script. The install is built in a temporary folder and
// renamed into place, so it is either complete or absent, and concurrent callers are safe.
//
// Usage: node scripts/runtimes.mjs            installs (if needed) and prints each runtime's path
//        node scripts/runtimes.mjs NAME       prints one (node22, node24, node26, bun, deno, wrangler)
// From code: `const { runtimes } = await import('./runtimes.mjs'); const r = await runtimes();`
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'scripts', 'runtimes');

/** Where this lockfile's runtimes live (a new lockfile gets a new folder). */
function prefix() {
  const lock = readFileSync(join(manifest, 'package-lock.json'));
  const digest = createHash('sha256').update(lock).digest('hex').slice(0, 12);
  const cache = process.env.MCPKIT_RUNTIMES_CACHE ?? join(root, 'node_modules', '.cache', 'mcpkit-runtimes');
  return join(cache, digest);
}

/** Each runtime's command: the binary, and for wrangler the Node 22 binary that runs it. */
function layout(dir) {
  const modules = join(dir, 'node_modules');
  const node22 = join(modules, 'node22/bin/node');
  return {
    node22: [node22],
    node24: [join(modules, 'node24/bin/node')],
    node26: [join(modules, 'node26/bin/node')],
    bun: [join(modules, 'bun/bin/bun.exe')],
    deno: [join(modules, 'deno/deno')],
    // wrangler needs Node >= 22.12; the system Node is 20.
    wrangler: [node22, join(modules, 'wrangler/bin/wrangler.js')],
  };
}

function complete(dir) {
  return Object.values(layout(dir)).every((command) => command.every((file) => existsSync(file)));
}

/**
 * Installs the pinned runtimes once and returns, for each name, the command (argv prefix) that
 * runs it. @throws Error when npm cannot install them (no registry, unsupported platform).
 */
export function runtimes() {
  const dir = prefix();
  if (complete(dir)) return layout(dir);
  mkdirSync(dirname(dir), { recursive: true });
  const tmp = mkdtempSync(`${dir}.tmp.`);
  cpSync(join(manifest, 'package.json'), join(tmp, 'package.json'));
  cpSync(join(manifest, 'package-lock.json'), join(tmp, 'package-lock.json'));
  console.error(`runtimes: installing node 22/24/26, bun, deno and wrangler into ${dir}`);
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: tmp,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (npm.status !== 0 || !complete(tmp)) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`runtimes: npm ci failed in ${tmp} (exit ${npm.status})`);
  }
  try {
    renameSync(tmp, dir);
  } catch {
    rmSync(tmp, { recursive: true, force: true }); // another caller installed it first
  }
  return layout(dir);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const all = runtimes();
  const name = process.argv[2];
  if (name && !Object.hasOwn(all, name)) {
    console.error(`runtimes: unknown runtime ${name}; known: ${Object.keys(all).join(', ')}`);
    process.exit(2);
  }
  for (const [key, command] of Object.entries(all))
    if (!name || key === name) console.log(name ? command.join(' ') : `${key}\t${command.join(' ')}`);
}
