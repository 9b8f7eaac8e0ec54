/**
 * The git reference server: a drop-in for the official Python `mcp-server-git` (same tool
 * names, input schemas, annotations and result texts), served on both eras. Every tool
 * runs the `git` binary with an argument array (no shell), no hook, no pager and no
 * credential prompt (see run.ts); `--repository` confines `repo_path`.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { LocalError } from '../../src/core/index.js';
import { createServer, errorResult, type McpServer, type ToolResult } from '../../src/server/index.js';
import * as op from './operations.js';
import { gitEnvironment, runGit } from './run.js';
import { show } from './show.js';
import { GIT_TOOLS } from './tools.js';

/** The server's name in discover and initialize: the official server's. */
const GIT_SERVER_NAME = 'mcp-git';

const USAGE = 'usage: mcpkit serve git [--repository PATH] [-v]';

type Args = Record<string, unknown>;
type Operation = (repo: op.Repo, args: Args) => Promise<string>;

const lines = (args: Args): number => (args.context_lines as number | undefined) ?? 3;
const orNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Each tool's operation, by name. */
const OPERATIONS: Record<string, Operation> = {
  git_status: (repo) => op.status(repo),
  git_diff_unstaged: (repo, args) => op.diffUnstaged(repo, lines(args)),
  git_diff_staged: (repo, args) => op.diffStaged(repo, lines(args)),
  git_diff: (repo, args) => op.diff(repo, String(args.target), lines(args)),
  git_commit: (repo, args) => op.commit(repo, String(args.message)),
  git_add: (repo, args) => op.add(repo, args.files as string[]),
  git_reset: (repo) => op.reset(repo),
  git_log: (repo, args) =>
    op.log(repo, {
      maxCount: (args.max_count as number | undefined) ?? 10,
      start: orNull(args.start_timestamp),
      end: orNull(args.end_timestamp),
    }),
  git_create_branch: (repo, args) =>
    op.createBranch(repo, String(args.branch_name), orNull(args.base_branch)),
  git_checkout: (repo, args) => op.checkout(repo, String(args.branch_name)),
  git_show: (repo, args) => show(repo, String(args.revision)),
  git_branch: (repo, args) =>
    op.branch(repo, {
      branchType: typeof args.branch_type === 'string' ? args.branch_type : 'local',
      contains: orNull(args.contains),
      notContains: orNull(args.not_contains),
    }),
};

function parseGitArgs(argv: readonly string[]): { repository: string | undefined } {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: {
        repository: { type: 'string', short: 'r' },
        verbose: { type: 'boolean', short: 'v', multiple: true },
      },
      strict: true,
      allowPositionals: false,
    });
    return { repository: values.repository };
  } catch (error) {
    throw new LocalError('INVALID_ARGUMENT', `${(error as Error).message}\n${USAGE}`, { cause: error });
  }
}

/** The top level of the work tree at `dir`, or undefined when `dir` is not one. */
async function topLevel(dir: string, env: Record<string, string>): Promise<string | undefined> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return undefined;
  const out = await runGit(['rev-parse', '--show-toplevel'], { cwd: dir, env });
  return out.status === 0 ? realpathSync(out.stdout.trim()) : undefined;
}

/** Opens `repoPath` for one call: inside `allowed` (when set) and the top level of a work tree. */
async function openRepo(repoPath: string, allowed: string | undefined, env: Record<string, string>) {
  const real = existsSync(repoPath) ? realpathSync(repoPath) : undefined;
  if (allowed !== undefined && (real === undefined || !isWithin(allowed, real)))
    throw new op.GitToolError(`Repository path '${repoPath}' is outside the allowed repository '${allowed}'`);
  const root = real === undefined ? undefined : await topLevel(real, env);
  if (root === undefined || root !== real) throw new op.GitToolError(`Not a git repository: '${repoPath}'`);
  return { root, env };
}

/** The real path of `repository` when it is the top level of a work tree. */
async function confinement(repository: string, env: Record<string, string>): Promise<string | undefined> {
  const root = await topLevel(repository, env);
  return root !== undefined && root === realpathSync(repository) ? root : undefined;
}

function isWithin(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/**
 * Creates the git server. `argv` are the official server's arguments (`--repository`/`-r`
 * PATH, `-v` repeated); `env` is passed to git without the variables that would redirect it.
 * @throws LocalError `INVALID_ARGUMENT` on an unknown argument, or a `--repository` that is
 *   not the top level of a git work tree (with a usage line).
 */
export async function createReferenceServer(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<McpServer> {
  const gitEnv = gitEnvironment(env);
  const { repository } = parseGitArgs(argv);
  const allowed = repository === undefined ? undefined : await confinement(repository, gitEnv);
  if (repository !== undefined && allowed === undefined)
    throw new LocalError('INVALID_ARGUMENT', `${repository} is not a valid Git repository\n${USAGE}`);
  const server = createServer({ name: GIT_SERVER_NAME, version: '0.1.0', title: 'mcpkit git' });
  for (const spec of GIT_TOOLS) {
    const operation = OPERATIONS[spec.name]!;
    server.tool(spec.name, spec, async (args): Promise<ToolResult> => {
      try {
        const repo = await openRepo(String(args.repo_path), allowed, gitEnv);
        return { content: [{ type: 'text', text: await operation(repo, args) }] };
      } catch (error) {
        if (error instanceof op.GitToolError) return errorResult(error.message);
        throw error;
      }
    });
  }
  return server;
}
