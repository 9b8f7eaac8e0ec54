/**
 * What the docs and migrate checks would otherwise redo on every run: packing the tarball,
 * and a clean tsc verdict on inputs already checked. Both are kept in
 * node_modules/.cache/mcpkit-docs under a digest of everything that decides them, so a
 * change to any input (the packed files, a block, the compiler, a dependency) misses the
 * cache and runs the real thing. Only clean verdicts are kept; MCPKIT_DOCS_CACHE=0 turns the
 * verdict cache off.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const LOCK_WAIT_MS = 180_000;
const STALE_LOCK_MS = 300_000;

/** The cache folder of the docs checks, created if missing. */
export function cacheDir(root: string): string {
  const dir = join(root, 'node_modules', '.cache', 'mcpkit-docs');
  mkdirSync(dir, { recursive: true });
  return dir;
}

function filesUnder(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(root, path) : [path];
  });
}

/** The files `npm pack` takes from package.json's `files` (folders, files, `dir/*.ext`). */
export function packedFiles(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
  const found = ['package.json', 'README.md'];
  for (const entry of pkg.files) {
    const star = /^(.+)\/\*([^/*]*)$/.exec(entry);
    if (star) {
      const [, dir = '', suffix = ''] = star;
      found.push(
        ...readdirSync(join(root, dir))
          .filter((n) => n.endsWith(suffix))
          .map((n) => `${dir}/${n}`),
      );
    } else if (entry.includes('*')) {
      throw new Error(`pack-cache: package.json files entry ${entry} is not a folder, a file or dir/*.ext`);
    } else if (existsSync(join(root, entry)) && statSync(join(root, entry)).isDirectory()) {
      found.push(...filesUnder(root, entry));
    } else if (existsSync(join(root, entry))) found.push(entry);
  }
  return found.sort();
}

/** A sha256 over `parts` in order, each one delimited. */
export function digestOf(parts: readonly (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
}

/** The digest of what the tarball holds: every packed file's path and content. */
export function packDigest(root: string): string {
  return digestOf(packedFiles(root).flatMap((file) => [file, readFileSync(join(root, file))]));
}

/** The digest of the toolchain a tsc verdict depends on: the lockfile and TypeScript's version. */
export function toolchainDigest(root: string): string {
  const ts = JSON.parse(readFileSync(join(root, 'node_modules', 'typescript', 'package.json'), 'utf8')) as {
    version: string;
  };
  return digestOf([ts.version, readFileSync(join(root, 'package-lock.json'))]);
}

/** Takes the lock folder `lock`; waits while another run holds it (one left behind is broken). */
async function takeLock(lock: string): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = statSync(lock, { throwIfNoEntry: false });
    if (held && Date.now() - held.mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`pack-cache: ${lock} held for over ${LOCK_WAIT_MS} ms`);
    await sleep(100);
  }
}

/**
 * The packed tarball of the built repository (`npm pack` without its prepack build: the
 * suite's setup built it), packed once per content: a second test file, or a later run on
 * the same dist/, gets the same file. Concurrent callers wait for one pack.
 */
export async function cachedTarball(root: string): Promise<string> {
  const dir = cacheDir(root);
  const tarball = join(dir, `mcpkit-${packDigest(root).slice(0, 20)}.tgz`);
  if (existsSync(tarball)) return tarball;
  const lock = join(dir, 'pack.lock');
  await takeLock(lock);
  try {
    if (existsSync(tarball)) return tarball;
    const scratch = mkdtempSync(join(dir, 'pack-'));
    const out = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', scratch], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, npm_config_loglevel: 'error' },
    });
    for (const old of readdirSync(dir).filter((n) => n.startsWith('mcpkit-') && n.endsWith('.tgz')))
      rmSync(join(dir, old), { force: true });
    renameSync(join(scratch, out.trim().split('\n').pop() ?? ''), tarball);
    rmSync(scratch, { recursive: true, force: true });
    return tarball;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

const verdictCacheOn = (): boolean => process.env.MCPKIT_DOCS_CACHE !== '0';

/**
 * Whether inputs of digest `key` were type-checked clean before; `restore` (a folder) then
 * receives what that check emitted. `kind` names the check (`blocks`, `migrated`).
 */
export function cleanBefore(root: string, kind: string, key: string, restore?: string): boolean {
  const entry = join(cacheDir(root), `${kind}-clean-${key.slice(0, 20)}`);
  if (!verdictCacheOn() || !existsSync(join(entry, 'ok'))) return false;
  if (restore !== undefined) cpSync(join(entry, 'emitted'), restore, { recursive: true });
  return true;
}

/** Records that inputs of digest `key` checked clean, keeping `emitted` (a folder) if given. */
export function recordClean(root: string, kind: string, key: string, emitted?: string): void {
  const dir = cacheDir(root);
  for (const old of readdirSync(dir).filter((n) => n.startsWith(`${kind}-clean-`)))
    rmSync(join(dir, old), { recursive: true, force: true });
  const scratch = mkdtempSync(join(dir, `${kind}-scratch-`));
  if (emitted !== undefined) cpSync(emitted, join(scratch, 'emitted'), { recursive: true });
  writeFileSync(join(scratch, 'ok'), `${key}\n`);
  renameSync(scratch, join(dir, `${kind}-clean-${key.slice(0, 20)}`));
}
