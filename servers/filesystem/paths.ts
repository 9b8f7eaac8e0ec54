/**
 * Where the filesystem server may go: the allowed directories, and the check of a requested
 * path against them. The check follows the official server's (same messages, same
 * resolution of relative paths and of files not yet created); the use that follows it
 * (io.ts) checks again on the opened file, so a swap between check and use is caught.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `~` and `~/…` at the start of a path mean the home directory, as in the official server. */
function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

/** Trims surrounding quotes and whitespace, collapses repeated slashes, drops a trailing one. */
export function normalizePath(p: string): string {
  const trimmed = p.trim().replace(/^["']|["']$/g, '');
  if (trimmed.startsWith('/')) return trimmed.replace(/\/+/g, '/').replace(/(?<!^)\/$/, '');
  return path.normalize(trimmed);
}

/** True when `absolute` is one of `dirs` or below one of them (no NUL byte, lexically after `..`). */
export function isWithin(absolute: string, dirs: readonly string[]): boolean {
  if (!absolute || absolute.includes('\0')) return false;
  const target = path.resolve(absolute);
  return dirs.some((dir) => {
    if (!dir || dir.includes('\0')) return false;
    const root = path.resolve(dir);
    return target === root || target.startsWith(root === path.sep ? root : root + path.sep);
  });
}

/**
 * The allowed directories a command line gives: each as written (absolute) and, when it
 * differs, as its real path (a root that is a symlink), like the official server. Directories
 * that do not exist or are not directories are skipped with a warning on stderr.
 * @throws Error when directories were given and none is usable.
 */
export async function directoriesFromArgs(args: readonly string[]): Promise<string[]> {
  const both = await Promise.all(
    args.map(async (arg) => {
      const original = normalizePath(path.resolve(expandHome(arg)));
      const real = await fs.realpath(original).then(normalizePath, () => original);
      return real === original ? [real] : [original, real];
    }),
  );
  const usable: string[] = [];
  for (const dir of both.flat()) {
    const stats = await fs.stat(dir).catch(() => undefined);
    if (stats?.isDirectory()) usable.push(dir);
    else
      console.error(
        `Warning: ${stats ? `${dir} is not a directory` : `Cannot access directory ${dir}`}, skipping`,
      );
  }
  if (usable.length === 0 && both.length > 0)
    throw new Error('None of the specified directories are accessible');
  return usable;
}

/** The directories of a client's roots (file URIs or plain paths), resolved; unusable ones skipped. */
export async function directoriesFromRoots(roots: readonly { uri: string }[]): Promise<string[]> {
  const dirs: string[] = [];
  for (const { uri } of roots) {
    try {
      const raw = uri.startsWith('file://') ? fileURLToPath(uri) : uri;
      const real = normalizePath(await fs.realpath(path.resolve(expandHome(raw))));
      if ((await fs.stat(real)).isDirectory()) dirs.push(real);
      else console.error(`Skipping non-directory root: ${real}`);
    } catch {
      console.error(`Skipping invalid path or inaccessible: ${uri}`);
    }
  }
  return dirs;
}

function denied(what: string, where: string, dirs: readonly string[]): Error {
  return new Error(`Access denied - ${what}: ${where} not in ${dirs.join(', ')}`);
}

/**
 * Checks a requested path and returns the real path to use: relative paths resolve against
 * the allowed directories, `..` is resolved before the check, an existing path is checked
 * again by its real path (symlinks), and a path not yet created by its nearest existing
 * ancestor's real path.
 * @throws Error `Access denied - …` outside `dirs`; `Parent directory does not exist: …`.
 */
export async function validatePath(requested: string, dirs: readonly string[]): Promise<string> {
  const expanded = expandHome(requested);
  if (/^[A-Za-z]:(?:[\\/]|$)/.test(expanded))
    throw new Error(`Access denied - Windows-style path received on a POSIX host: ${requested}`);
  const absolute = path.isAbsolute(expanded) ? path.resolve(expanded) : resolveRelative(expanded, dirs);
  if (!isWithin(normalizePath(absolute), dirs))
    throw denied('path outside allowed directories', absolute, dirs);
  try {
    const real = await fs.realpath(absolute);
    if (!isWithin(normalizePath(real), dirs))
      throw denied('symlink target outside allowed directories', real, dirs);
    return real;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  try {
    return await resolveMissing(absolute, dirs);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`Parent directory does not exist: ${path.dirname(absolute)}`);
    throw error;
  }
}

function resolveRelative(relative: string, dirs: readonly string[]): string {
  if (dirs.length === 0) return path.resolve(process.cwd(), relative);
  for (const dir of dirs) {
    const candidate = path.resolve(dir, relative);
    if (isWithin(normalizePath(candidate), dirs)) return candidate;
  }
  return path.resolve(dirs[0] as string, relative);
}

/**
 * A path that does not exist (yet): walks down from its allowed directory one component at
 * a time (matching a Unicode-equivalent name when there is exactly one), checking each real
 * path, and appends the missing rest to the last existing one.
 */
async function resolveMissing(absolute: string, dirs: readonly string[]): Promise<string> {
  const base = [...dirs]
    .sort((a, b) => b.length - a.length)
    .find((dir) => isWithin(normalizePath(absolute), [dir]));
  if (!base) return absolute;
  let current = await fs.realpath(base);
  const parts = path.relative(base, absolute).split(path.sep).filter(Boolean);
  for (const [index, part] of parts.entries()) {
    const entries = await fs.readdir(current);
    const matches = entries.includes(part)
      ? [part]
      : entries.filter((entry) => entry.normalize('NFC') === part.normalize('NFC'));
    if (matches.length > 1) throw new Error(`Ambiguous Unicode path component: ${part}`);
    if (matches.length === 0) return path.join(current, ...parts.slice(index));
    current = await fs.realpath(path.join(current, matches[0] as string));
    if (!isWithin(normalizePath(current), dirs))
      throw denied('symlink target outside allowed directories', current, dirs);
  }
  return current;
}
