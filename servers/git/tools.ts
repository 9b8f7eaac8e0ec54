/**
 * The git server's tool list: names, descriptions, input schemas (as pydantic writes the
 * official server's models, titles included) and annotations of the official mcp-server-git.
 */
import type { ToolAnnotations } from '../../src/core/index.js';

type Schema = Record<string, unknown>;

const annotations = (readOnly: boolean, destructive: boolean, idempotent: boolean): ToolAnnotations => ({
  readOnlyHint: readOnly,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: false,
});
const READ_ONLY = annotations(true, false, true);

const REPO_PATH = { title: 'Repo Path', type: 'string' };
const CONTEXT_LINES = { default: 3, title: 'Context Lines', type: 'integer' };
const text = (title: string): Schema => ({ title, type: 'string' });
const optionalText = (title: string, description?: string): Schema => ({
  anyOf: [{ type: 'string' }, { type: 'null' }],
  default: null,
  ...(description === undefined ? {} : { description }),
  title,
});
const object = (title: string, properties: Schema, required: string[]): Schema => ({
  properties,
  required,
  title,
  type: 'object',
});

const ACCEPTS =
  "Accepts: ISO 8601 format (e.g., '2024-01-15T14:30:25'), relative dates (e.g., '2 weeks ago', 'yesterday'), or absolute dates (e.g., '2024-01-15', 'Jan 15 2024')";
const SHA_HINT = 'Do not pass anything to this param if no commit sha is specified';

/** One tool of the list. */
export interface GitToolSpec {
  name: string;
  description: string;
  inputSchema: Schema;
  annotations: ToolAnnotations;
}

/** The official tool list, in its order. */
export const GIT_TOOLS: readonly GitToolSpec[] = [
  {
    name: 'git_status',
    description: 'Shows the working tree status',
    inputSchema: object('GitStatus', { repo_path: REPO_PATH }, ['repo_path']),
    annotations: READ_ONLY,
  },
  {
    name: 'git_diff_unstaged',
    description: 'Shows changes in the working directory that are not yet staged',
    inputSchema: object('GitDiffUnstaged', { repo_path: REPO_PATH, context_lines: CONTEXT_LINES }, [
      'repo_path',
    ]),
    annotations: READ_ONLY,
  },
  {
    name: 'git_diff_staged',
    description: 'Shows changes that are staged for commit',
    inputSchema: object('GitDiffStaged', { repo_path: REPO_PATH, context_lines: CONTEXT_LINES }, [
      'repo_path',
    ]),
    annotations: READ_ONLY,
  },
  {
    name: 'git_diff',
    description: 'Shows differences between branches or commits',
    inputSchema: object(
      'GitDiff',
      { repo_path: REPO_PATH, target: text('Target'), context_lines: CONTEXT_LINES },
      ['repo_path', 'target'],
    ),
    annotations: READ_ONLY,
  },
  {
    name: 'git_commit',
    description: 'Records changes to the repository',
    inputSchema: object('GitCommit', { repo_path: REPO_PATH, message: text('Message') }, [
      'repo_path',
      'message',
    ]),
    annotations: annotations(false, false, false),
  },
  {
    name: 'git_add',
    description: 'Adds file contents to the staging area',
    inputSchema: object(
      'GitAdd',
      {
        repo_path: REPO_PATH,
        files: { items: { type: 'string' }, minItems: 1, title: 'Files', type: 'array' },
      },
      ['repo_path', 'files'],
    ),
    annotations: annotations(false, false, true),
  },
  {
    name: 'git_reset',
    description: 'Unstages all staged changes',
    inputSchema: object('GitReset', { repo_path: REPO_PATH }, ['repo_path']),
    annotations: annotations(false, true, true),
  },
  {
    name: 'git_log',
    description: 'Shows the commit logs',
    inputSchema: object(
      'GitLog',
      {
        repo_path: REPO_PATH,
        max_count: { default: 10, title: 'Max Count', type: 'integer' },
        start_timestamp: optionalText('Start Timestamp', `Start timestamp for filtering commits. ${ACCEPTS}`),
        end_timestamp: optionalText('End Timestamp', `End timestamp for filtering commits. ${ACCEPTS}`),
      },
      ['repo_path'],
    ),
    annotations: READ_ONLY,
  },
  {
    name: 'git_create_branch',
    description: 'Creates a new branch from an optional base branch',
    inputSchema: object(
      'GitCreateBranch',
      { repo_path: REPO_PATH, branch_name: text('Branch Name'), base_branch: optionalText('Base Branch') },
      ['repo_path', 'branch_name'],
    ),
    annotations: annotations(false, false, false),
  },
  {
    name: 'git_checkout',
    description: 'Switches branches',
    inputSchema: object('GitCheckout', { repo_path: REPO_PATH, branch_name: text('Branch Name') }, [
      'repo_path',
      'branch_name',
    ]),
    annotations: annotations(false, false, false),
  },
  {
    name: 'git_show',
    description: 'Shows the contents of a commit, or of a file or directory given as <revision>:<path>',
    inputSchema: object('GitShow', { repo_path: REPO_PATH, revision: text('Revision') }, [
      'repo_path',
      'revision',
    ]),
    annotations: READ_ONLY,
  },
  {
    name: 'git_branch',
    description: 'List Git branches',
    inputSchema: object(
      'GitBranch',
      {
        repo_path: { description: 'The path to the Git repository.', ...REPO_PATH },
        branch_type: {
          description:
            "Whether to list local branches ('local'), remote branches ('remote') or all branches('all').",
          ...text('Branch Type'),
        },
        contains: optionalText('Contains', `The commit sha that branch should contain. ${SHA_HINT}`),
        not_contains: optionalText(
          'Not Contains',
          `The commit sha that branch should NOT contain. ${SHA_HINT}`,
        ),
      },
      ['repo_path', 'branch_type'],
    ),
    annotations: READ_ONLY,
  },
];
