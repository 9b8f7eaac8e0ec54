/**
 * A real `redis-server` for the fleet bench and the Redis tests: started on a random
 * loopback port with persistence off, stopped (and restarted) by PID. It lives in bench/
 * because bench may not import test support, while tests may import anything.
 * Needs /usr/bin/redis-server (`.ci/run` installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A running Redis started by a test or a bench. */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** The PID of the current redis-server process. */
  pid(): number;
  /** Stops it (SIGTERM by PID) and waits for the exit. */
  stop(): Promise<void>;
  /** Stops it and starts a fresh one on the same port (all data lost: persistence is off). */
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

function launch(port: number): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
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
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child = await launch(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pid: () => child.pid!,
    stop: () => stopChild(child),
    async restart() {
      await stopChild(child);
      child = await launch(port);
    },
  };
}
