/**
 * The git reference server's tools, each one `git` command (or a few) with the official
 * mcp-server-git's checks and result texts. A value that must be a ref, a revision or a
 * timestamp is refused when it starts with `-` (it would be read as an option); paths go
 * after `--`.
 */
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, relative, resolve, isAbsolute, sep } from 'node:path';
import { chomp, runGit, type GitOutput } from './run.js';

/** A failure the model sees as the tool's error text. */
export class GitToolError extends Error {}

/** One repository to run commands in. */
export interface Repo {
  /** Top level of the working tree (real path). */
  root: string;
  env: Record<string, string>;
}

const TRUNCATED = (bytes: number): string => `\n[output truncated at ${bytes} bytes]`;

/** Runs `args`; resolves with stdout (one trailing newline removed, a notice when cut). */
async function git(repo: Repo, args: readonly string[]): Promise<string> {
  const out = await runGit(args, { cwd: repo.root, env: repo.env });
  failIfError(out);
  return chomp(out.stdout) + (out.truncated ? TRUNCATED(out.stdout.length) : '');
}

/** A command we stopped because its output reached the bound is not a failure. */
function failIfError(out: GitOutput): void {
  if (out.status !== 0 && !out.truncated)
    throw new GitToolError(out.stderr.trim() || `git exited with status ${out.status}`);
}

/** Whether `args` exits 0 (for `--verify`, `--quiet` questions). */
async function succeeds(repo: Repo, args: readonly string[]): Promise<boolean> {
  return (await runGit(args, { cwd: repo.root, env: repo.env })).status === 0;
}

/** Refuses `value` when it starts with `-`, in the official server's words for `what`. */
export function refuseOption(what: string, value: string | null | undefined): void {
  if (value?.startsWith('-')) throw new GitToolError(`Invalid ${what}: '${value}' - cannot start with '-'`);
}

/** Checks that `revision` names an object, as GitPython's `rev_parse` does. */
async function verifyRevision(repo: Repo, revision: string): Promise<void> {
  if (
    !(await succeeds(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{object}`]))
  )
    throw new GitToolError(`Ref '${revision}' did not resolve to an object`);
}

/** A number of context lines: a whole number, at least 0. */
function contextOption(lines: number): string {
  if (!Number.isInteger(lines) || lines < 0)
    throw new GitToolError(`Invalid context_lines: ${lines} - must be a whole number, at least 0`);
  return `--unified=${lines}`;
}

export const status = async (repo: Repo): Promise<string> =>
  `Repository status:\n${await git(repo, ['status'])}`;

export const diffUnstaged = async (repo: Repo, lines: number): Promise<string> =>
  `Unstaged changes:\n${await git(repo, ['diff', '--no-ext-diff', '--no-textconv', contextOption(lines)])}`;

export const diffStaged = async (repo: Repo, lines: number): Promise<string> =>
  `Staged changes:\n${await git(repo, ['diff', '--no-ext-diff', '--no-textconv', contextOption(lines), '--cached'])}`;

export async function diff(repo: Repo, target: string, lines: number): Promise<string> {
  refuseOption('target', target);
  await verifyRevision(repo, target);
  const text = await git(repo, [
    'diff',
    '--no-ext-diff',
    '--no-textconv',
    contextOption(lines),
    target,
    '--',
  ]);
  return `Diff with ${target}:\n${text}`;
}

/** Whether `git commit` would record anything: a merge in progress, or a staged change. */
async function hasStagedChanges(repo: Repo): Promise<boolean> {
  if (await succeeds(repo, ['rev-parse', '--verify', '--quiet', 'MERGE_HEAD'])) return true;
  if (!(await succeeds(repo, ['rev-parse', '--verify', '--quiet', 'HEAD'])))
    return (await git(repo, ['ls-files', '--stage'])).length > 0;
  return !(await succeeds(repo, ['diff', '--cached', '--quiet', '--no-ext-diff']));
}

export async function commit(repo: Repo, message: string): Promise<string> {
  if (!(await hasStagedChanges(repo)))
    throw new GitToolError(
      'No changes staged for commit. Use git_add to stage changes first; git_status shows what is currently staged.',
    );
  await git(repo, ['commit', '--no-verify', '--cleanup=verbatim', '--allow-empty-message', '-m', message]);
  return `Changes committed successfully with hash ${await git(repo, ['rev-parse', 'HEAD'])}`;
}

/** `path` with its existing part resolved through symlinks (as Python's `Path.resolve`). */
function realPath(path: string): string {
  if (existsSync(path)) return realpathSync(path);
  const parent = dirname(path);
  return parent === path ? path : resolve(realPath(parent), basename(path));
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

export async function add(repo: Repo, files: readonly string[]): Promise<string> {
  if (files.length === 0)
    throw new GitToolError(
      "No files provided to stage. Pass one or more paths, or ['.'] to stage everything.",
    );
  if (!(files.length === 1 && files[0] === '.'))
    for (const file of files)
      if (!isInside(repo.root, realPath(resolve(repo.root, file))))
        throw new GitToolError(`Path '${file}' is outside the repository '${repo.root}'`);
  const entries = (): Promise<string> => git(repo, ['ls-files', '--stage', '--', ...files]);
  const before = await entries();
  await git(repo, ['add', '--', ...files]);
  if ((await entries()) === before)
    return 'No changes were staged: the given paths had nothing new to stage. git_status shows what is modified or untracked.';
  return 'Files staged successfully';
}

export async function reset(repo: Repo): Promise<string> {
  await git(repo, ['reset', '--quiet', '--mixed']);
  return 'All staged changes reset';
}

/** Most commits `git_log` lists, whatever `max_count` asks. */
const MAX_LOG_COUNT = 1000;

/** Options of {@link log}. */
export interface LogQuery {
  maxCount: number;
  start?: string | null | undefined;
  end?: string | null | undefined;
}

export async function log(repo: Repo, query: LogQuery): Promise<string> {
  refuseOption('start_timestamp', query.start);
  refuseOption('end_timestamp', query.end);
  const count = Math.max(0, Math.min(Math.trunc(query.maxCount), MAX_LOG_COUNT));
  const args = ['log', `--max-count=${count}`, '--date=iso-strict', '--format=%H%x00%an%x00%ad%x00%B%x1e'];
  if (query.start) args.push(`--since=${query.start}`);
  if (query.end) args.push(`--until=${query.end}`);
  const entries = (await git(repo, [...args, '--'])).split('\x1e').filter((e) => e.includes('\0'));
  const lines = entries.map((entry) => {
    const [sha, author, date, message] = entry.replace(/^\n/, '').split('\0');
    return `Commit: ${sha}\nAuthor: ${author}\nDate: ${date?.replace('T', ' ')}\nMessage: ${message}\n`;
  });
  return `Commit history:\n${lines.join('\n')}`;
}

/** The short name of the reference `name` (branch, tag, remote branch), as GitPython's `references[name]`. */
async function referenceNamed(repo: Repo, name: string): Promise<string> {
  for (const prefix of ['refs/heads/', 'refs/tags/', 'refs/remotes/'])
    if (await succeeds(repo, ['show-ref', '--verify', '--quiet', `${prefix}${name}`])) return name;
  throw new GitToolError(`No item found with id '${name}'`);
}

async function activeBranch(repo: Repo): Promise<string> {
  const out = await runGit(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd: repo.root, env: repo.env });
  if (out.status !== 0) throw new GitToolError('HEAD is a detached symbolic reference');
  return chomp(out.stdout);
}

export async function createBranch(repo: Repo, name: string, base?: string | null): Promise<string> {
  refuseOption('branch name', name);
  refuseOption('base branch', base);
  const from = base ? await referenceNamed(repo, base) : await activeBranch(repo);
  if (await succeeds(repo, ['show-ref', '--verify', '--quiet', `refs/heads/${name}`]))
    throw new GitToolError(`Cannot create branch '${name}': refs/heads/${name} already exists`);
  await git(repo, ['branch', '--end-of-options', name, from]);
  return `Created branch '${name}' from '${from}'`;
}

export async function checkout(repo: Repo, name: string): Promise<string> {
  refuseOption('branch name', name);
  await verifyRevision(repo, name);
  await git(repo, ['checkout', '--quiet', name, '--']);
  const out = await runGit(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd: repo.root, env: repo.env });
  if (out.status !== 0)
    return `HEAD is now detached at ${(await git(repo, ['rev-parse', 'HEAD'])).slice(0, 7)}`;
  return `Switched to branch '${chomp(out.stdout)}'`;
}

/** `git_branch`'s `branch_type` values and their options. */
const BRANCH_TYPES: Record<string, string[]> = { local: [], remote: ['-r'], all: ['-a'] };

/** Options of {@link branch}. */
export interface BranchQuery {
  branchType: string;
  contains?: string | null | undefined;
  notContains?: string | null | undefined;
}

export async function branch(repo: Repo, query: BranchQuery): Promise<string> {
  refuseOption('contains value', query.contains);
  refuseOption('not_contains value', query.notContains);
  const type = Object.hasOwn(BRANCH_TYPES, query.branchType) ? BRANCH_TYPES[query.branchType] : undefined;
  if (type === undefined) throw new GitToolError(`Invalid branch type: ${query.branchType}`);
  const args = ['branch', ...type];
  if (query.contains != null) args.push('--contains', query.contains);
  if (query.notContains != null) args.push('--no-contains', query.notContains);
  return git(repo, args);
}
