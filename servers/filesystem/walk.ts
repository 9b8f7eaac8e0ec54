/**
 * The recursive tools: `directory_tree` (a JSON tree) and `search_files` (glob matches).
 * Both report progress (directories read, rate-limited) when the call carries a progress token.
 * Entries are visited in directory order, as in the official server; a symlink is never
 * descended into, and one leading out of the roots is left out of search results.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { filesystemDeps } from './deps.js';
import type { RequestContext } from '../../src/server/index.js';
import { validatePath } from './paths.js';

/** A node of `directory_tree`'s answer. */
interface TreeEntry {
  name: string;
  type: 'file' | 'directory';
  children?: TreeEntry[];
}

/**
 * The least time between two progress notifications of one walk, in milliseconds: a tree of
 * many small directories would otherwise send one per directory (2026-07-28
 * basic/patterns/progress "Implementation Notes": rate-limit to prevent flooding).
 */
export const PROGRESS_INTERVAL_MS = 100;

/**
 * Counts the directories a walk reads and reports the count as progress: for the first one,
 * then at most once per {@link PROGRESS_INTERVAL_MS}, and once more when the walk ends (the
 * full count) if that one was not sent. Notifications stop with the walk.
 */
function stepper(ctx: RequestContext, what: string): { step(dir: string): void; done(): void } {
  let read = 0;
  let reported = 0;
  let reportedAt = -Infinity;
  const report = (message: string): void => {
    reported = read;
    reportedAt = performance.now();
    ctx.progress(read, { message });
  };
  return {
    step: (dir) => {
      read += 1;
      if (performance.now() - reportedAt >= PROGRESS_INTERVAL_MS) report(`${what}: ${dir}`);
    },
    done: () => {
      if (reported < read) report(`${what}: ${read} directories read`);
    },
  };
}

/** Whether an exclude pattern without `*` matches a name anywhere, or a pattern with one matches the path. */
function excluded(relative: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) =>
    pattern.includes('*')
      ? filesystemDeps().minimatch(relative, pattern, { dot: true })
      : filesystemDeps().minimatch(relative, pattern, { dot: true }) ||
        filesystemDeps().minimatch(relative, `**/${pattern}`, { dot: true }) ||
        filesystemDeps().minimatch(relative, `**/${pattern}/**`, { dot: true }),
  );
}

/**
 * The tree below `requested` (as the client wrote it), each directory checked before it is read.
 * @throws Error when a directory is outside the roots or cannot be read.
 */
export async function directoryTree(
  requested: string,
  options: { excludePatterns: readonly string[]; dirs: () => readonly string[]; ctx: RequestContext },
): Promise<TreeEntry[]> {
  const progress = stepper(options.ctx, 'directory_tree');
  const build = async (current: string): Promise<TreeEntry[]> => {
    const real = await validatePath(current, options.dirs());
    const entries = await fs.readdir(real, { withFileTypes: true });
    progress.step(current);
    const tree: TreeEntry[] = [];
    for (const entry of entries) {
      options.ctx.signal.throwIfAborted();
      const child = path.join(current, entry.name);
      if (excluded(path.relative(requested, child), options.excludePatterns)) continue;
      if (!entry.isDirectory()) tree.push({ name: entry.name, type: 'file' });
      else tree.push({ name: entry.name, type: 'directory', children: await build(child) });
    }
    return tree;
  };
  const tree = await build(requested);
  progress.done();
  return tree;
}

/**
 * The full paths below `root` (a checked real path) whose path relative to it matches the
 * glob `pattern`, minus those matching an exclude pattern.
 */
export async function searchFiles(
  root: string,
  options: {
    pattern: string;
    excludePatterns: readonly string[];
    dirs: () => readonly string[];
    ctx: RequestContext;
  },
): Promise<string[]> {
  const progress = stepper(options.ctx, 'search_files');
  const found: string[] = [];
  const search = async (current: string): Promise<void> => {
    const entries = await fs.readdir(current, { withFileTypes: true });
    progress.step(current);
    for (const entry of entries) {
      options.ctx.signal.throwIfAborted();
      const full = path.join(current, entry.name);
      // A plain entry of a checked real directory is inside it; only a symlink needs the full check.
      if (
        entry.isSymbolicLink() &&
        !(await validatePath(full, options.dirs()).then(
          () => true,
          () => false,
        ))
      )
        continue;
      const relative = path.relative(root, full);
      if (options.excludePatterns.some((p) => filesystemDeps().minimatch(relative, p, { dot: true })))
        continue;
      if (filesystemDeps().minimatch(relative, options.pattern, { dot: true })) found.push(full);
      if (entry.isDirectory()) await search(full).catch(() => undefined);
    }
  };
  await search(root);
  progress.done();
  return found;
}
