/**
 * The git server's safety, each on a temporary repository: no hook, pager, fsmonitor or
 * external diff runs (even when the repository's configuration asks for one), no shell,
 * no option smuggled in where a ref or a path is expected, nothing outside `--repository`,
 * bounded output.
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEra, textOf, type EraClient } from '../../test/support/era-client.js';
import { createTestRepo, type TestRepo } from '../../test/support/git-repo.js';
import { gitEnvironment, MAX_OUTPUT_BYTES } from './run.js';
import { createReferenceServer } from './server.js';

let repo: TestRepo;
let client: EraClient;

beforeEach(async () => {
  repo = createTestRepo();
  client = await openEra(await createReferenceServer(['--repository', repo.root], process.env), 'modern');
});
afterEach(async () => {
  await client.close();
  repo.remove();
});

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = await client.call(name, { repo_path: repo.root, ...args });
  return { text: textOf(result), isError: result.isError === true };
}

describe('git server: nothing runs but git', () => {
  it('runs no hook, from .git/hooks or from a core.hooksPath the repository sets', async () => {
    const marker = join(repo.base, 'hook-ran');
    for (const hook of [
      'pre-commit',
      'commit-msg',
      'post-commit',
      'post-checkout',
      'reference-transaction',
    ]) {
      repo.trap(join(repo.root, '.git/hooks', hook), marker);
      repo.trap(join(repo.base, 'hooks', hook), marker);
    }
    repo.git('config', 'core.hooksPath', join(repo.base, 'hooks'));
    repo.write('b.txt', 'b\n');
    await call('git_add', { files: ['b.txt'] });
    expect((await call('git_commit', { message: 'b' })).isError).toBe(false);
    await call('git_create_branch', { branch_name: 'other' });
    expect((await call('git_checkout', { branch_name: 'other' })).isError).toBe(false);
    expect(existsSync(marker)).toBe(false);
  });

  it('runs no pager, fsmonitor or external diff the repository configures', async () => {
    const marker = join(repo.base, 'command-ran');
    const script = join(repo.base, 'trap.sh');
    repo.trap(script, marker);
    for (const [key, value] of [
      ['core.pager', script],
      ['pager.log', script],
      ['pager.status', 'true'],
      ['core.fsmonitor', script],
      ['diff.external', script],
    ])
      repo.git('config', key!, value!);
    repo.write('README.md', 'changed\n');
    for (const name of ['git_status', 'git_diff_unstaged', 'git_log', 'git_branch'])
      expect((await call(name, { branch_type: 'local' })).isError, name).toBe(false);
    await call('git_show', { revision: 'HEAD' });
    expect(existsSync(marker)).toBe(false);
  });

  it('runs git with no pager, no credential prompt and nothing that redirects it', () => {
    const env = gitEnvironment({ PATH: '/usr/bin', GIT_DIR: '/elsewhere', GIT_CONFIG_PARAMETERS: "'x=y'" });
    expect(env).toMatchObject({ PATH: '/usr/bin', GIT_PAGER: 'cat', PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' });
    expect(env.GIT_DIR).toBeUndefined();
    expect(env.GIT_CONFIG_PARAMETERS).toBeUndefined();
  });

  it('passes shell syntax to git as data, never to a shell', async () => {
    const marker = join(repo.base, 'shell-ran');
    const result = await call('git_create_branch', { branch_name: `x$(touch ${marker});touch ${marker}` });
    expect(result.isError).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('git server: option injection', () => {
  it.each([
    ['git_diff', { target: `--output=PLACE` }, "Invalid target: '--output=PLACE' - cannot start with '-'"],
    [
      'git_show',
      { revision: '--output=PLACE' },
      "Invalid revision: '--output=PLACE' - cannot start with '-'",
    ],
    ['git_checkout', { branch_name: '-f' }, "Invalid branch name: '-f' - cannot start with '-'"],
    ['git_create_branch', { branch_name: '-D' }, "Invalid branch name: '-D' - cannot start with '-'"],
    [
      'git_create_branch',
      { branch_name: 'ok', base_branch: '--force' },
      "Invalid base branch: '--force' - cannot start with '-'",
    ],
    ['git_log', { start_timestamp: '--all' }, "Invalid start_timestamp: '--all' - cannot start with '-'"],
    ['git_log', { end_timestamp: '-p' }, "Invalid end_timestamp: '-p' - cannot start with '-'"],
    [
      'git_branch',
      { branch_type: 'local', contains: '--delete' },
      "Invalid contains value: '--delete' - cannot start with '-'",
    ],
    [
      'git_branch',
      { branch_type: 'local', not_contains: '-D' },
      "Invalid not_contains value: '-D' - cannot start with '-'",
    ],
  ])('%s refuses %j as an option', async (name, args, text) => {
    const place = join(repo.base, 'written');
    const filled = JSON.parse(JSON.stringify(args).replaceAll('PLACE', place)) as Record<string, unknown>;
    const result = await call(name, filled);
    expect(result).toEqual({ text: text.replace('PLACE', place), isError: true });
    expect(existsSync(place)).toBe(false);
  });

  it('stages a file named like an option as a path, after --', async () => {
    repo.write('other.txt', 'untracked\n');
    const result = await call('git_add', { files: ['--all'] });
    expect(result.isError).toBe(true);
    expect(repo.git('diff', '--cached', '--name-only')).toBe('');
  });
});

describe('git server: confined to --repository', () => {
  it('refuses a repo_path outside, through .. or through a symlink', async () => {
    const outside = join(repo.base, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(repo.root, 'link'));
    for (const path of [outside, join(repo.root, '..', 'outside'), join(repo.root, 'link'), '/'])
      expect(await client.call('git_status', { repo_path: path })).toMatchObject({
        content: [
          {
            type: 'text',
            text: `Repository path '${path}' is outside the allowed repository '${repo.root}'`,
          },
        ],
        isError: true,
      });
  });

  it('refuses to stage a path outside the work tree, through .. , absolutely or through a symlink', async () => {
    writeFileSync(join(repo.base, 'secret'), 'secret\n');
    symlinkSync(repo.base, join(repo.root, 'up'));
    for (const file of ['../secret', join(repo.base, 'secret'), 'up/secret'])
      expect(await call('git_add', { files: [file] })).toEqual({
        text: `Path '${file}' is outside the repository '${repo.root}'`,
        isError: true,
      });
  });

  it('refuses to start on a --repository that is not a work tree, with a usage line', async () => {
    await expect(createReferenceServer(['--repository', repo.base], process.env)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('usage: mcpkit serve git'),
    });
    await expect(createReferenceServer(['--repo', repo.root], process.env)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('git server: bounded output', () => {
  it(`cuts a diff at ${MAX_OUTPUT_BYTES} bytes and says so`, async () => {
    repo.write('big.txt', 'x'.repeat(99) + '\n');
    repo.git('add', 'big.txt');
    repo.git('commit', '--quiet', '-m', 'big');
    repo.write('big.txt', `${'y'.repeat(99)}\n`.repeat(15_000));
    const { text } = await call('git_diff_unstaged');
    expect(text.length).toBeLessThan(MAX_OUTPUT_BYTES + 200);
    expect(text).toMatch(/\n\[output truncated at \d+ bytes\]$/);
  });
});
