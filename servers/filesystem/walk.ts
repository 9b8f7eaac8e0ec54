/**
 * The recursive tools: `directory_tree` (a JSON tree) and `search_files` (glob matches).
 * Both report progress, one step per directory read, when the call carries a progress token.
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

/** Counts directories read and reports each as progress. */
function stepper(ctx: RequestContext, what: string): (dir: string) => void {
  let done = 0;
  return (dir) => {
    done += 1;
    ctx.progress(done, { message: `${what}: ${dir}` });
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
  const step = stepper(options.ctx, 'directory_tree');
  const build = async (current: string): Promise<TreeEntry[]> => {
    const real = await validatePath(current, options.dirs());
    const entries = await fs.readdir(real, { withFileTypes: true });
    step(current);
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
  return build(requested);
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
  const step = stepper(options.ctx, 'search_files');
  const found: string[] = [];
  const search = async (current: string): Promise<void> => {
    const entries = await fs.readdir(current, { withFileTypes: true });
    step(current);
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
  return found;
}
