/**
 * A real `redis-server` for the fleet bench and the Redis tests: started on a random
 * loopback port with persistence off, stopped (and restarted) by PID. It lives in bench/
 * because bench may not import test support, while tests may import anything.
 * Needs /usr/bin/redis-server (`.ci/run` installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running Redis started by a test or a bench. */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** The PID of the current redis-server process. */
  pid(): number;
  /** Stops it (SIGTERM by PID) and waits for the exit. */
  stop(): Promise<void>;
  /** Stops it and starts it again on the same port (data lost unless `persistent`). */
  restart(): Promise<void>;
}

/** A free loopback port (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** How a test Redis keeps its data. */
export interface RedisOptions {
  /**
   * Keep every write in an append-only file (fsync on each write) in a fresh temporary
   * directory, so a restart loses nothing, as a production Redis would be set up. Default off.
   */
  persistent?: boolean;
}

function launch(port: number, dir: string | undefined): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', ''];
  args.push(
    ...(dir ? ['--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
  );
  const child = spawn('/usr/bin/redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out.slice(-500)}`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    process.kill(child.pid!, 'SIGTERM');
  });
}

/** Starts a redis-server (one per test file or bench run). */
export async function startRedis(options: RedisOptions = {}): Promise<TestRedis> {
  const port = await freePort();
  const dir = options.persistent ? mkdtempSync(join(tmpdir(), 'mcpkit-redis-')) : undefined;
  let child = await launch(port, dir);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: () => child.pid!,
    async stop() {
      await stopChild(child);
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
    async restart() {
      await stopChild(child);
      child = await launch(port, dir);
    },
  };
}
