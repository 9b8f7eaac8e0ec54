#!/usr/bin/env node
// Builds dist/ unless it was already built from the same inputs. The inputs are every file
// git would see (tracked, or untracked and not ignored) except tests, which no build step
// compiles; their paths and contents are hashed. Any change to one of them rebuilds.
// Usage: node scripts/build-stamp.mjs full|test [--force] | --print-hash
//   full: tsc, the bundle, the web app (npm run build); test: tsc and the bundle (npm test).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = `${join(dirname(fileURLToPath(import.meta.url)), '..')}/`;
const STAMP = `${ROOT}dist/.build-stamp.json`;

const STEPS = {
  test: [
    ['npx', 'tsc', '-p', 'tsconfig.json'],
    [process.execPath, 'scripts/bundle.mjs'],
  ],
  ui: [
    ['npx', 'tsc', '-p', 'ui/tsconfig.json'],
    ['npx', 'vite', 'build', '--config', 'ui/vite.config.ts'],
  ],
};
// What each target writes last: missing means not built, whatever the stamp says.
const OUTPUTS = {
  test: ['dist/src/cli/main.js', 'dist/servers/everything/main.js'],
  ui: ['dist/ui/index.html'],
};

/** The hash of the build's inputs, or undefined outside a git checkout (then always build). */
function inputsHash() {
  let listed;
  try {
    listed = execFileSync('git', ['ls-files', '-z', '-c', '-o', '--exclude-standard'], { cwd: ROOT });
  } catch {
    return undefined;
  }
  const files = listed
    .toString('utf8')
    .split('\0')
    .filter((f) => f && !f.endsWith('.test.ts'))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    // A listed file deleted from the working tree is a change too.
    hash.update(existsSync(`${ROOT}${file}`) ? readFileSync(`${ROOT}${file}`) : '\0deleted');
    hash.update('\0');
  }
  return hash.digest('hex');
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return {};
  }
}

function fresh(stamp, part, hash) {
  return hash !== undefined && stamp[part] === hash && OUTPUTS[part].every((f) => existsSync(`${ROOT}${f}`));
}

if (process.argv[2] === '--print-hash') {
  process.stdout.write(`${inputsHash() ?? 'none'}\n`);
  process.exit(0);
}
const target = process.argv[2];
if (target !== 'full' && target !== 'test') {
  process.stderr.write('usage: node scripts/build-stamp.mjs full|test [--force]\n');
  process.exit(2);
}
const force = process.argv.includes('--force');
const parts = target === 'full' ? ['test', 'ui'] : ['test'];
const hash = inputsHash();
const stamp = readStamp();
const stale = parts.filter((part) => force || !fresh(stamp, part, hash));
if (stale.length === 0) {
  process.stdout.write(`build: dist/ is up to date with its inputs (${parts.join(' + ')}); skipped\n`);
  process.exit(0);
}
for (const part of stale) {
  delete stamp[part];
  if (existsSync(STAMP)) rmSync(STAMP);
  for (const [command, ...args] of STEPS[part]) execFileSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (hash !== undefined) stamp[part] = hash;
  writeFileSync(STAMP, `${JSON.stringify(stamp)}\n`);
}
