/**
 * A Python virtual environment with `fastmcp` and `mcp` from pip, for tests that drive
 * Python MCP servers: created once in node_modules/.cache/py-venv and reused. Test files
 * running in parallel take turns through a lock folder (mkdir is atomic), so only one
 * creates it and the others wait for it.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './cli.js';

const run = promisify(execFile);
const DIR = join(ROOT, 'node_modules', '.cache', 'py-venv');
const LOCK = `${DIR}.lock`;
const READY = join(DIR, '.mcpkit-ready');
/** A lock older than this belongs to a run that died; it is taken over. */
const STALE_LOCK_MS = 15 * 60_000;

/**
 * The venv's python, or why it cannot be had (one line naming what is missing);
 * `noPython` when python3 itself or its venv module is absent (a test may skip then),
 * not when pip failed (a test must fail then).
 */
export type PythonEnv = { python: string } | { missing: string; noPython?: true };

/** Creates the venv (python3 -m venv, pip install fastmcp mcp) unless it is ready. */
export async function pythonEnv(): Promise<PythonEnv> {
  const python = join(DIR, 'bin', 'python');
  if (existsSync(READY)) return { python };
  await lock();
  try {
    if (existsSync(READY)) return { python };
    rmSync(DIR, { recursive: true, force: true });
    try {
      await run('python3', ['-c', 'import venv, ensurepip']);
    } catch {
      return { missing: 'python3 with its venv and ensurepip modules is not installed', noPython: true };
    }
    await run('python3', ['-m', 'venv', DIR]);
    // No retries: an index that cannot be reached is skipped at once for the others configured.
    await run(join(DIR, 'bin', 'pip'), ['install', '-q', '--retries', '0', 'fastmcp', 'mcp'], {
      timeout: 15 * 60_000,
    });
    writeFileSync(READY, '');
    return { python };
  } catch (error) {
    const detail = String((error as { stderr?: string }).stderr ?? (error as Error).message)
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('WARNING'))
      .pop();
    return { missing: `python3 -m venv + pip install fastmcp mcp failed: ${detail}` };
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

async function lock(): Promise<void> {
  mkdirSync(join(ROOT, 'node_modules', '.cache'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch {
      const since = statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - since > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
      // Another test file is creating the venv: wait for its lock to go.
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
