/**
 * `wrangler dev` for tests (workerd from npm, through scripts/runtimes.mjs, which runs it on
 * Node 22): starts a config on 127.0.0.1 with its state (Durable Objects) in a new temporary
 * folder or a given one (a restart keeps what the objects stored), resolves with its origin
 * once it says it is ready, and stops it by its process group.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/** A running `wrangler dev`. */
export interface WranglerDev {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** The folder of its persisted state. */
  state: string;
  /** Stops it; resolves once it exited. */
  stop(): Promise<void>;
}

/**
 * Starts `wrangler dev --config <config>` (relative to the repository); `port` 0 picks one;
 * `vars` become `--var`s; `state` is the folder to persist to (default a new one).
 */
export async function startWranglerDev(
  config: string,
  options: { port?: number; vars?: Record<string, string>; state?: string } = {},
): Promise<WranglerDev> {
  const { runtimes } = (await import(resolve(root, 'scripts/runtimes.mjs'))) as {
    runtimes(): { wrangler: string[] };
  };
  const [node, ...cli] = runtimes().wrangler;
  const state = options.state ?? mkdtempSync(join(tmpdir(), 'mcpkit-wrangler-'));
  const args = [...cli, 'dev', '--config', config, '--ip', '127.0.0.1'];
  args.push('--port', String(options.port ?? 0), '--inspector-port', '0', '--persist-to', state);
  for (const [name, value] of Object.entries(options.vars ?? {})) args.push('--var', `${name}:${value}`);
  const wrangler = spawn(node!, args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
  });
  const exited = new Promise<void>((resolve) => wrangler.once('exit', () => resolve()));
  const stop = async () => {
    if (wrangler.pid && wrangler.exitCode === null) process.kill(-wrangler.pid, 'SIGTERM');
    await exited;
  };
  const origin = await new Promise<string>((ready, fail) => {
    let log = '';
    const hear = (chunk: Buffer) => {
      log += chunk.toString();
      const at = /Ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(log)?.[1];
      if (at) ready(at);
    };
    wrangler.stdout.on('data', hear);
    wrangler.stderr.on('data', hear);
    wrangler.once('exit', (code) => fail(new Error(`wrangler exited (${code}): ${log}`)));
  });
  return { origin, state, stop };
}
