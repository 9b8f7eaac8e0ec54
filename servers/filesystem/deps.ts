/**
 * The packages only the filesystem server needs, optional peer dependencies of mcpkit (a
 * project that installs mcpkit to write its own server does not get them): minimatch for
 * `search_files` and `directory_tree` exclusions, diff for `edit_file`'s unified diff.
 * {@link loadFilesystemDeps} loads them when the server is created.
 */
import { LocalError } from '../../src/core/index.js';

const INSTALL = 'npm install minimatch diff';

type Minimatch = typeof import('minimatch').minimatch;
type TwoFilesPatch = typeof import('diff').createTwoFilesPatch;

let loaded: { minimatch: Minimatch; createTwoFilesPatch: TwoFilesPatch } | undefined;

/** Loads both packages once. @throws LocalError `MISSING_DEPENDENCY` with the npm install line. */
export async function loadFilesystemDeps(): Promise<void> {
  if (loaded) return;
  const [{ minimatch }, { createTwoFilesPatch }] = await Promise.all([
    optional('minimatch', () => import('minimatch')),
    optional('diff', () => import('diff')),
  ]);
  loaded = { minimatch, createTwoFilesPatch };
}

/** Runs `load` (an `import()` of `name`). @throws LocalError `MISSING_DEPENDENCY` when it is not installed. */
async function optional<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: unknown } | undefined)?.code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new LocalError(
      'MISSING_DEPENDENCY',
      `the filesystem server needs the package ${name}: ${INSTALL}`,
      {
        cause: error,
      },
    );
  }
}

/** The loaded packages. @throws Error before {@link loadFilesystemDeps} resolved. */
export function filesystemDeps(): NonNullable<typeof loaded> {
  if (!loaded) throw new Error('the filesystem server was used before loadFilesystemDeps()');
  return loaded;
}
