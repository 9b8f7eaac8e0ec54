/**
 * Instances of examples/fleet-server.ts (built, in dist/) as child processes on loopback,
 * all on one Redis, stopped by PID: for the fleet tests and the chaos run. An instance keeps
 * its port across restarts, so a balancer's address list stays valid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort } from './redis.js';

/** The built example: dist/ is two levels up when this runs from dist/, else under the root. */
const UP = new URL('../../', import.meta.url);
const SCRIPT = fileURLToPath(
  new URL(UP.pathname.endsWith('/dist/') ? 'examples/fleet-server.js' : 'dist/examples/fleet-server.js', UP),
);

/** Lease and poll interval of the instances' task store, in milliseconds. */
export interface FleetTiming {
  leaseMs: number;
  pollMs: number;
}

/** One running instance. */
export interface FleetInstance {
  readonly name: string;
  readonly url: string;
  /** PID of the current process (it changes on restart). */
  readonly pid: number;
  /** Kills it with `signal` (default SIGTERM) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port (after `kill`). */
  restart(): Promise<void>;
}

/** A fresh requestState key (32 random bytes, base64) to share among instances. */
export function fleetKey(): string {
  return randomBytes(32).toString('base64');
}

/** Starts instances `names` on the Redis at `redisUrl`, sharing one requestState key. */
export function startFleet(
  redisUrl: string,
  names: readonly string[],
  timing: FleetTiming,
): Promise<FleetInstance[]> {
  const key = fleetKey();
  return Promise.all(names.map((name) => startInstance({ name, redisUrl, key, timing })));
}

/** What one instance is started with. */
export interface InstanceSpec {
  name: string;
  redisUrl: string;
  /** The shared requestState key (see {@link fleetKey}). */
  key: string;
  timing: FleetTiming;
}

/** Starts one instance on a free loopback port; resolves once it serves. */
export async function startInstance(spec: InstanceSpec): Promise<FleetInstance> {
  const port = await freePort();
  const [first, url] = await launch(spec, port);
  let child = first;
  return {
    name: spec.name,
    url,
    get pid() {
      return child.pid!;
    },
    kill: (signal = 'SIGTERM') => stopChild(child, signal),
    async restart() {
      await stopChild(child, 'SIGKILL');
      [child] = await launch(spec, port);
    },
  };
}

function launch(spec: InstanceSpec, port: number): Promise<[ChildProcess, string]> {
  const args = [SCRIPT, '--port', String(port), '--name', spec.name, '--redis', spec.redisUrl];
  args.push('--lease-ms', String(spec.timing.leaseMs), '--poll-ms', String(spec.timing.pollMs));
  const child = spawn(process.execPath, args, {
    env: { ...process.env, MCPKIT_STATE_KEY: spec.key },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()).length > 4096 && (err = err.slice(-2048)));
    const onData = (c: Buffer): void => {
      out += c.toString();
      const url = / at (http:\S+)/.exec(out)?.[1];
      if (!url) return;
      child.stdout?.off('data', onData);
      child.stdout?.resume();
      child.once('exit', (code, signal) => {
        // Only our own SIGKILL/SIGTERM is expected: anything else is a crash worth seeing.
        if (signal !== 'SIGKILL' && signal !== 'SIGTERM')
          process.stderr.write(
            `fleet instance ${spec.name} exited (${code ?? signal}): ${err.slice(-1500)}\n`,
          );
      });
      resolve([child, url]);
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`fleet instance ${spec.name} exited (${code}): ${err}`)));
  });
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    process.kill(child.pid!, signal);
  });
}
