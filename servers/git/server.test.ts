/**
 * The git server against the official mcp-server-git: its tools/list snapshot
 * (test/support/fixtures/reference-servers/git-list_tools.json, source cited beside it) and
 * the result texts of src/git/src/mcp_server_git/server.py at the same commit, on both eras.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectServerConforms } from '../../src/testing/index.js';
import { ERAS, openEra, textOf, type EraClient } from '../../test/support/era-client.js';
import { createTestRepo, type TestRepo } from '../../test/support/git-repo.js';
import { createReferenceServer } from './server.js';

const SNAPSHOT = JSON.parse(
  readFileSync(
    join(import.meta.dirname, '../../test/support/fixtures/reference-servers/git-list_tools.json'),
    'utf8',
  ),
) as { tools: unknown[] };

let repo: TestRepo;
let client: EraClient;

describe.each(ERAS)('git server on the %s era', (era) => {
  beforeEach(async () => {
    repo = createTestRepo();
    client = await openEra(await createReferenceServer(['--repository', repo.root], process.env), era);
  });
  afterEach(async () => {
    await client.close();
    expect(client.harness.violations).toEqual([]);
    repo.remove();
  });

  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.call(name, { repo_path: repo.root, ...args });
    return { text: textOf(result), isError: result.isError === true };
  };

  it('lists exactly the official snapshot', async () => {
    expect(await client.listTools()).toEqual(SNAPSHOT.tools);
  });

  it('stages, diffs, commits and logs with the official texts', async () => {
    repo.write('README.md', 'hello\nworld\n');
    expect((await call('git_status')).text).toMatch(/^Repository status:\nOn branch main\n/);
    expect((await call('git_diff_unstaged')).text).toMatch(/^Unstaged changes:\ndiff --git a\/README.md/);
    expect(await call('git_add', { files: ['README.md'] })).toEqual({
      text: 'Files staged successfully',
      isError: false,
    });
    expect((await call('git_diff_staged', { context_lines: 0 })).text).toMatch(
      /^Staged changes:\n[\s\S]*@@ -1,0 \+2 @@ hello\n\+world$/,
    );
    const committed = await call('git_commit', { message: 'second\n\nwith a body' });
    const sha = repo.git('rev-parse', 'HEAD').trim();
    expect(committed.text).toBe(`Changes committed successfully with hash ${sha}`);
    const log = (await call('git_log', { max_count: 1 })).text;
    expect(log).toMatch(
      new RegExp(
        `^Commit history:\\nCommit: ${sha}\\nAuthor: Alice\\nDate: \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d[+-]\\d\\d:\\d\\d\\nMessage: second\\n\\nwith a body\\n\\n$`,
      ),
    );
    expect((await call('git_diff', { target: 'HEAD~1' })).text).toMatch(/^Diff with HEAD~1:\ndiff --git/);
  });

  it('refuses to commit nothing and says when git_add staged nothing', async () => {
    expect(await call('git_commit', { message: 'empty' })).toEqual({
      text: 'No changes staged for commit. Use git_add to stage changes first; git_status shows what is currently staged.',
      isError: true,
    });
    expect((await call('git_add', { files: ['.'] })).text).toBe(
      'No changes were staged: the given paths had nothing new to stage. git_status shows what is modified or untracked.',
    );
    repo.write('new.txt', 'x\n');
    await call('git_add', { files: ['new.txt'] });
    expect((await call('git_reset')).text).toBe('All staged changes reset');
    expect(repo.git('diff', '--cached', '--name-only')).toBe('');
  });

  it('creates, lists and checks out branches with the official texts', async () => {
    expect((await call('git_create_branch', { branch_name: 'feature' })).text).toBe(
      "Created branch 'feature' from 'main'",
    );
    expect((await call('git_create_branch', { branch_name: 'feature' })).text).toBe(
      "Cannot create branch 'feature': refs/heads/feature already exists",
    );
    expect((await call('git_branch', { branch_type: 'local' })).text).toBe('  feature\n* main');
    expect((await call('git_branch', { branch_type: 'mine' })).text).toBe('Invalid branch type: mine');
    expect((await call('git_checkout', { branch_name: 'feature' })).text).toBe(
      "Switched to branch 'feature'",
    );
    const sha = repo.git('rev-parse', 'HEAD').trim();
    expect((await call('git_checkout', { branch_name: sha })).text).toBe(
      `HEAD is now detached at ${sha.slice(0, 7)}`,
    );
  });

  it('shows a commit as git show --date=iso, a file and a directory', async () => {
    const sha = repo.git('rev-parse', 'HEAD').trim();
    const date = repo.git('show', '-s', '--date=iso', '--format=%ad', 'HEAD').trim();
    expect((await call('git_show', { revision: 'HEAD' })).text).toBe(
      `commit ${sha}\nAuthor: Alice <alice@example.com>\nDate:   ${date}\n\n    first commit\n` +
        '\n--- /dev/null\n+++ README.md\n@@ -0,0 +1 @@\n+hello\n' +
        '\n--- /dev/null\n+++ src/a.txt\n@@ -0,0 +1 @@\n+one\n',
    );
    expect((await call('git_show', { revision: 'HEAD:src/a.txt' })).text).toBe('one\n');
    expect((await call('git_show', { revision: 'HEAD:' })).text).toBe('README.md\nsrc/');
    expect(await call('git_show', { revision: 'nope' })).toEqual({
      text: "Ref 'nope' did not resolve to an object",
      isError: true,
    });
  });
});

describe('git server and mcpkit check', () => {
  it('is clean on both eras', async () => {
    const repo = createTestRepo();
    try {
      await expectServerConforms(await createReferenceServer(['-r', repo.root], process.env), {
        failOn: 'warning',
        calls: [{ tool: 'git_status', args: { repo_path: repo.root } }],
      });
    } finally {
      repo.remove();
    }
  });
});
