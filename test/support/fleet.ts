/**
 * A fleet for tests: instances of examples/fleet-server.ts (built, in dist/) as child
 * processes on random loopback ports, all on one test Redis, stopped by PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../dist/examples/fleet-server.js', import.meta.url));

/** One running instance. */
export interface FleetInstance {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  /** Kills it with `signal` (default SIGTERM) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts instances `names` on the Redis at `redisUrl`, sharing one requestState key. */
export async function startFleet(
  redisUrl: string,
  names: readonly string[],
  options: { leaseMs: number; pollMs: number },
): Promise<FleetInstance[]> {
  const key = randomBytes(32).toString('base64');
  return Promise.all(names.map((name) => startInstance(name, redisUrl, key, options)));
}

function startInstance(
  name: string,
  redisUrl: string,
  key: string,
  options: { leaseMs: number; pollMs: number },
): Promise<FleetInstance> {
  const args = [SCRIPT, '--port', '0', '--name', name, '--redis', redisUrl];
  args.push('--lease-ms', String(options.leaseMs), '--poll-ms', String(options.pollMs));
  const child = spawn(process.execPath, args, {
    env: { ...process.env, MCPKIT_STATE_KEY: key },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const url = / at (http:\S+)/.exec(out)?.[1];
      if (url) resolve(instance(name, url, child));
    });
    child.once('exit', (code) => reject(new Error(`fleet instance ${name} exited (${code}): ${err}`)));
  });
}

function instance(name: string, url: string, child: ChildProcess): FleetInstance {
  return {
    name,
    url,
    pid: child.pid!,
    kill(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        child.once('exit', () => resolve());
        process.kill(child.pid!, signal);
      });
    },
  };
}

/** A fetch that sends each request to the next of `urls` in turn (a round-robin balancer). */
export function roundRobin(urls: readonly string[]): { fetch: typeof fetch; sent: string[] } {
  let next = 0;
  const sent: string[] = [];
  const balanced: typeof fetch = (_input, init) => {
    const url = urls[next++ % urls.length]!;
    sent.push(url);
    return fetch(url, init);
  };
  return { fetch: balanced, sent };
}

/** One request a {@link sessionRouter} passed on: HTTP method, JSON-RPC method or id, instance. */
export interface Routed {
  http: string;
  /** The JSON-RPC method of a request or notification, `response` for an answer, '' for GET/DELETE. */
  rpc: string;
  url: string;
}

/**
 * A balancer for legacy sessions with no stickiness: each POST and DELETE goes to the next
 * of `urls()` (the live instances) in turn; a GET goes to `getTarget()` (so a test knows
 * where the GET stream is).
 */
export function sessionRouter(
  urls: () => readonly string[],
  getTarget: () => string,
): { fetch: typeof fetch; routed: Routed[] } {
  let next = 0;
  const routed: Routed[] = [];
  const balanced: typeof fetch = (_input, init) => {
    const http = init?.method ?? 'GET';
    const live = urls();
    const url = http === 'GET' ? getTarget() : live[next++ % live.length]!;
    routed.push({ http, rpc: rpcOf(init?.body), url });
    return fetch(url, init);
  };
  return { fetch: balanced, routed };
}

function rpcOf(body: unknown): string {
  if (typeof body !== 'string') return '';
  try {
    const value = JSON.parse(body) as { method?: unknown };
    return typeof value.method === 'string' ? value.method : 'response';
  } catch {
    return '';
  }
}
