/**
 * The servers under test and how to start one as a child process. Each implementation
 * is a compiled entry in dist/bench/servers, run as `node <entry>.js stdio|http`.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Era } from './protocol.js';

/** The implementations compared. `bare` is the hand-written ceiling. */
export type Impl = 'mcpkit' | 'v2' | 'v1' | 'bare';

/** Display names, as the table prints them. */
export const IMPL_LABEL: Record<Impl, string> = {
  mcpkit: 'mcpkit',
  v2: 'official v2',
  v1: 'official v1',
  bare: 'bare node',
};

const ENTRY: Record<Impl, string> = {
  mcpkit: 'mcpkit.js',
  v2: 'official-v2.js',
  v1: 'official-v1.js',
  bare: 'bare.js',
};

/** Which implementations serve an era (v1 speaks only the legacy era). */
export function implsFor(era: Era): Impl[] {
  return era === 'modern' ? ['mcpkit', 'v2', 'bare'] : ['mcpkit', 'v2', 'v1', 'bare'];
}

/** The repository root: the nearest folder above this file holding package.json. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('bench: package.json not found above ' + import.meta.url);
    dir = parent;
  }
  return dir;
}

/** Where `--cpu-prof` profiles go. */
export function profileDir(): string {
  return join(repoRoot(), 'bench', 'profiles');
}

/** How servers are started in this invocation. */
export interface SpawnOptions {
  /** Start mcpkit's servers under `node --cpu-prof`. */
  cpuProf?: boolean;
}

/** A started server process (stdin, stdout piped; stderr inherited). */
export type ServerProcess = ChildProcessByStdio<Writable, Readable, null>;

/** Starts `impl` on `wire`. The caller owns the process and ends it by closing its stdin. */
export function spawnServer(impl: Impl, wire: 'stdio' | 'http', options: SpawnOptions = {}): ServerProcess {
  const entry = join(repoRoot(), 'dist', 'bench', 'servers', ENTRY[impl]);
  const flags: string[] = [];
  if (options.cpuProf && impl === 'mcpkit') {
    mkdirSync(profileDir(), { recursive: true });
    flags.push('--cpu-prof', `--cpu-prof-dir=${profileDir()}`);
  }
  return spawn(process.execPath, [...flags, entry, wire], { stdio: ['pipe', 'pipe', 'inherit'] });
}

/** Resolves with the URL an HTTP server announces (`READY <url>`). @throws when it exits first. */
export function readyUrl(child: ServerProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const match = /READY (\S+)\n/.exec(text);
      if (!match?.[1]) return;
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      resolve(match[1]);
    };
    const onExit = (code: number | null): void => reject(new Error(`server exited (${code}) before READY`));
    child.stdout.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Closes the server's stdin and waits for it to exit (kills it after `graceMs`). */
export function stopServer(child: ServerProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.stdin.end();
  });
}
