/**
 * Runs the `git` binary for the git reference server: an argument array through `spawn`
 * (never a shell, never a command line built from a string), with no hook, no pager, no
 * file-system monitor, no external diff and no credential prompt, and with its output and
 * time bounded.
 */
import { spawn } from 'node:child_process';

/** Most bytes of a command's standard output kept; the rest is dropped with a notice. */
export const MAX_OUTPUT_BYTES = 1024 * 1024;
/** Longest a command may run, in milliseconds, before it is killed. */
const GIT_TIMEOUT_MS = 30_000;

/**
 * Options every command gets ahead of its own, as `-c` settings (which win over the
 * repository's and the user's configuration): hooks point at an empty place, the pager is
 * `cat`, no fsmonitor command runs, nothing is signed.
 */
const SAFE_CONFIG = [
  '--no-pager',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.pager=cat',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'commit.gpgSign=false',
  '-c',
  'credential.helper=',
  '-c',
  'protocol.allow=never',
];

/** Variables that would point git somewhere other than the repository it is asked about. */
const DROPPED =
  /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|CONFIG_PARAMETERS|CONFIG_COUNT|CONFIG_KEY_\d+|CONFIG_VALUE_\d+|EXTERNAL_DIFF|SSH_COMMAND|ASKPASS|EDITOR|SEQUENCE_EDITOR)$/;

/**
 * The environment git runs with: `env` without the variables that redirect it, plus
 * `GIT_PAGER=cat`, `PAGER=cat`, `GIT_TERMINAL_PROMPT=0` (never ask for credentials),
 * `GIT_OPTIONAL_LOCKS=0`, and the C locale for messages (stable texts).
 */
export function gitEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env))
    if (value !== undefined && !DROPPED.test(key)) out[key] = value;
  return {
    ...out,
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
    LANGUAGE: 'C',
  };
}

/** What one command produced. */
export interface GitOutput {
  /** Exit status (null when killed). */
  status: number | null;
  /** Standard output, at most {@link MAX_OUTPUT_BYTES} bytes, decoded as UTF-8 with replacement. */
  stdout: string;
  /** True when standard output was cut at the bound. */
  truncated: boolean;
  stderr: string;
}

/** How {@link runGit} runs one command. */
export interface RunOptions {
  /** The repository's top level (the working directory of the command). */
  cwd: string;
  env: Record<string, string>;
  /** Bound on standard output, in bytes (default {@link MAX_OUTPUT_BYTES}). */
  maxBytes?: number;
}

/** Runs `git` with `args` (after the safe options); never rejects for a non-zero status. */
export function runGit(args: readonly string[], options: RunOptions): Promise<GitOutput> {
  const maxBytes = options.maxBytes ?? MAX_OUTPUT_BYTES;
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...SAFE_CONFIG, ...args], {
      cwd: options.cwd,
      env: options.env,
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: GIT_TIMEOUT_MS,
    });
    const chunks: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    const errors: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      if (kept >= maxBytes) return void (truncated = true);
      const part = chunk.subarray(0, maxBytes - kept);
      if (part.length < chunk.length) truncated = true;
      chunks.push(part);
      kept += part.length;
      if (truncated) child.kill();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (errors.reduce((n, b) => n + b.length, 0) < 64 * 1024) errors.push(chunk);
    });
    child.on('error', reject);
    child.on('close', (status) =>
      resolve({
        status,
        stdout: Buffer.concat(chunks).toString('utf8'),
        truncated,
        stderr: Buffer.concat(errors).toString('utf8'),
      }),
    );
  });
}

/** Output with one trailing newline removed, as GitPython returns it. */
export function chomp(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}
