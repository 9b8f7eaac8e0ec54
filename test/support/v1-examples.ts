/**
 * The official SDK v1's example servers and clients (from its npm package) as the codemod
 * tests run them: copied, an HTTP server started on a free loopback port, a client run to its
 * end with its output kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The v1 examples folder (`server/`, `client/`) inside `root`'s node_modules. */
export function examplesDir(root: string): string {
  return join(root, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', 'examples');
}

/**
 * Copies a v1 example server that hard-codes `const PORT = 3000` and `app.listen(PORT, cb)`:
 * the copy reads the port from `PORT` and binds 127.0.0.1, and its relative imports name the
 * SDK package so it runs outside it. Throws when the example no longer reads that way.
 */
export function copyHttpServer(from: string, to: string): void {
  const text = readFileSync(from, 'utf8');
  const patched = text
    .replace('const PORT = 3000;', 'const PORT = Number(process.env.PORT);')
    .replace('app.listen(PORT, error', "app.listen(PORT, '127.0.0.1', error")
    .replaceAll("from '../../", "from '@modelcontextprotocol/sdk/");
  if (!patched.includes('process.env.PORT') || !patched.includes("'127.0.0.1', error"))
    throw new Error(`${from}: no 'const PORT = 3000' and app.listen(PORT, cb) to point at a free port`);
  writeFileSync(to, patched);
}

/** A loopback port nothing listens on (asked of the OS, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A started HTTP example server: its MCP URL, and `stop()` (by PID) that waits for its exit. */
export interface RunningServer {
  url: string;
  stop: () => Promise<void>;
}

/** Starts `file` with `PORT` set; resolves once it prints that it listens (or fails on exit). */
export async function startHttpServer(file: string, cwd: string): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [file], { cwd, env: { ...process.env, PORT: String(port) } });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on port/i.test(output)) resolve();
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`${file} exited (${code}) before listening: ${output}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return exited;
}

/** Runs a client example to its end with `args`; resolves with its exit code and stdout. */
export function runClient(
  file: string,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [file, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout: code === 0 ? stdout : `${stdout}\n${stderr}` })),
  );
}
