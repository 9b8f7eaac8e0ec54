/**
 * `git_show`: a commit (header as `git show --date=iso`, message indented by four spaces,
 * then each file's patch under `--- a` / `+++ b` lines), a blob's text, or a tree's
 * entries (directories with a trailing `/`), as the official mcp-server-git prints them.
 */
import { GitToolError, refuseOption, type Repo } from './operations.js';
import { chomp, MAX_OUTPUT_BYTES, runGit } from './run.js';

async function output(repo: Repo, args: readonly string[]): Promise<{ text: string; truncated: boolean }> {
  const out = await runGit(args, { cwd: repo.root, env: repo.env });
  if (out.status !== 0 && !out.truncated)
    throw new GitToolError(out.stderr.trim() || `git exited with status ${out.status}`);
  return { text: out.stdout, truncated: out.truncated };
}

const notice = (truncated: boolean): string =>
  truncated ? `\n[output truncated at ${MAX_OUTPUT_BYTES} bytes]` : '';

/** Shows `revision` (`HEAD`, a sha, a tag, `HEAD:path/to/file`, `main:dir`). */
export async function show(repo: Repo, revision: string): Promise<string> {
  refuseOption('revision', revision);
  const kind = await runGit(['cat-file', '-t', revision], { cwd: repo.root, env: repo.env });
  if (kind.status !== 0) throw new GitToolError(`Ref '${revision}' did not resolve to an object`);
  const type = chomp(kind.stdout);
  if (type === 'blob') {
    const blob = await output(repo, ['cat-file', 'blob', revision]);
    return blob.text + notice(blob.truncated);
  }
  if (type === 'tree') return treeEntries(repo, revision);
  return showCommit(repo, chomp((await output(repo, ['rev-parse', `${revision}^{commit}`])).text));
}

async function treeEntries(repo: Repo, revision: string): Promise<string> {
  const listing = await output(repo, ['ls-tree', '-z', revision]);
  return listing.text
    .split('\0')
    .filter((entry) => entry.length > 0)
    .map((entry) => {
      const [meta = '', name = ''] = entry.split('\t');
      return meta.split(' ')[1] === 'tree' ? `${name}/` : name;
    })
    .join('\n');
}

async function showCommit(repo: Repo, sha: string): Promise<string> {
  const header = await output(repo, [
    'show',
    '-s',
    '--date=iso',
    '--format=%H%x00%an%x00%ae%x00%ad%x00%B',
    sha,
  ]);
  const [hash, name, email, date, message = ''] = header.text.split('\0');
  const body = message
    .replace(/\n+$/, '')
    .split('\n')
    .map((line) => `    ${line}\n`)
    .join('');
  const head = `commit ${hash}\nAuthor: ${name} <${email}>\nDate:   ${date}\n\n${body}`;
  const patch = await output(repo, [
    '-c',
    'core.quotePath=false',
    'diff-tree',
    '-p',
    '-M',
    '--root',
    '--no-ext-diff',
    '--no-textconv',
    '--no-color',
    sha,
  ]);
  return head + filePatches(patch.text) + notice(patch.truncated);
}

/**
 * Each file's patch of a `git diff-tree -p` output as `\n--- a\n+++ b\n` and its hunks
 * (`/dev/null` for the missing side of an added or deleted file).
 */
function filePatches(text: string): string {
  const sections = text.split(/^diff --git /m).slice(1);
  return sections
    .map((section) => {
      const lines = section.split('\n');
      const names = /^a\/(.*) b\/(.*)$/.exec(lines[0] ?? '');
      const added = lines.some((l) => l.startsWith('new file mode'));
      const deleted = lines.some((l) => l.startsWith('deleted file mode'));
      const from = lines.find((l) => l.startsWith('rename from '))?.slice(12) ?? names?.[1] ?? '';
      const to = lines.find((l) => l.startsWith('rename to '))?.slice(10) ?? names?.[2] ?? '';
      const start = lines.findIndex((l) => l.startsWith('@@') || l.startsWith('Binary files'));
      const hunks = start < 0 ? '' : lines.slice(start).join('\n');
      return `\n--- ${added ? '/dev/null' : from}\n+++ ${deleted ? '/dev/null' : to}\n${hunks}`;
    })
    .join('');
}
