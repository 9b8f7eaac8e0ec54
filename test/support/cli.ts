/**
 * Running the built `mcpkit` CLI in tests: spawned with node from the repository root,
 * with its exit code, stdout, stderr and how long it took.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root (where `dist/` is). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The built CLI entry point. */
export const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

/** How one run of the CLI ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall-clock milliseconds from spawn to exit. */
  elapsedMs: number;
}

/** Runs the built CLI with `args` from the repository root. */
export function runCli(args: readonly string[]): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr, elapsedMs: Date.now() - started }));
  });
}
