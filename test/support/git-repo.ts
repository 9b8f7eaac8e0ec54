/**
 * Temporary git repositories for the git reference server's tests.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A repository under a fresh temporary directory. */
export interface TestRepo {
  /** The temporary directory holding the repository (and anything outside it). */
  readonly base: string;
  /** The repository's top level. */
  readonly root: string;
  git(...args: string[]): string;
  write(path: string, text: string): void;
  /** Writes an executable shell script at `path` that creates `marker` when run. */
  trap(path: string, marker: string): void;
  remove(): void;
}

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Alice',
  GIT_AUTHOR_EMAIL: 'alice@example.com',
  GIT_COMMITTER_NAME: 'Alice',
  GIT_COMMITTER_EMAIL: 'alice@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

/** Creates a repository on branch `main` with one commit (`README.md`, `src/a.txt`). */
export function createTestRepo(): TestRepo {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'mcpkit-git-')));
  const root = join(base, 'repo');
  mkdirSync(root);
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: root, env: ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const write = (path: string, text: string): void => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  };
  git('init', '--quiet', '--initial-branch=main');
  git('config', 'user.name', 'Alice');
  git('config', 'user.email', 'alice@example.com');
  write('README.md', 'hello\n');
  write('src/a.txt', 'one\n');
  git('add', '.');
  git('commit', '--quiet', '-m', 'first commit');
  return {
    base,
    root,
    git,
    write,
    trap: (path, marker) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `#!/bin/sh\ntouch '${marker}'\ncat\n`);
      chmodSync(path, 0o755);
    },
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}
