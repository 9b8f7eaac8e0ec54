// Runs a Worker the way Cloudflare would, without wrangler's dev server: `bundleWorker` has
// `wrangler deploy --dry-run` write the bundle a deploy would upload; `serveWorker` starts a
// fresh `workerd` process (the binary wrangler ships) serving it on 127.0.0.1. Used by the
// cold-start bench (bench/workers-cold-start.ts) and the Workers client smoke test
// (scripts/conformance.mjs, leg client-runtimes).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { runtimes } from './runtimes.mjs';

const COMPATIBILITY_DATE = '2026-11-01';

/**
 * Bundles the module `main` into `dir` (wrangler, no nodejs_compat); returns the bundle's path.
 * @throws Error with wrangler's output when it fails.
 */
export function bundleWorker(main, dir) {
  const [node, cli] = runtimes().wrangler;
  const config = `${dir}.wrangler.json`;
  const name = `bundle-${dir.split('/').pop()}`;
  writeFileSync(config, JSON.stringify({ name, main, compatibility_date: COMPATIBILITY_DATE }));
  const run = spawnSync(node, [cli, 'deploy', '--dry-run', '--outdir', dir, '--config', config], {
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1', CI: '1' },
  });
  if (run.status !== 0) throw new Error(`wrangler could not bundle ${main}: ${run.stdout}${run.stderr}`);
  const file = readdirSync(dir).find((f) => f.endsWith('.js'));
  if (!file) throw new Error(`wrangler wrote no module for ${main} in ${dir}`);
  return join(dir, file);
}

/** The workerd binary wrangler runs (from the `workerd` package it depends on). */
function workerdBinary() {
  const [, cli] = runtimes().wrangler;
  return join(resolve(dirname(cli), '../..'), 'workerd/bin/workerd');
}

/** A workerd configuration: `module` on 127.0.0.1:`port`; its fetches may reach loopback when `loopback`. */
function config(module, port, loopback) {
  const outbound = loopback ? ['(name = "net", network = (allow = ["public", "private", "local"]))'] : [];
  return [
    'using Workerd = import "/workerd/workerd.capnp";',
    'const config :Workerd.Config = (',
    `  services = [ (name = "main", worker = .main) ${outbound.map((s) => `, ${s}`).join('')} ],`,
    `  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],`,
    ');',
    'const main :Workerd.Worker = (',
    `  modules = [ (name = "worker.js", esModule = embed ${JSON.stringify(module)}) ],`,
    `  compatibilityDate = "${COMPATIBILITY_DATE}",`,
    loopback ? '  globalOutbound = "net",' : '',
    ');',
  ].join('\n');
}

/**
 * Starts workerd serving the bundle `file` on `port` (`loopback`: its own fetches may reach
 * 127.0.0.1). Returns the child, its stderr so far, and `stop()` (SIGTERM by PID, awaited).
 */
export function serveWorker(file, { port, loopback = false }) {
  const path = `${file}.${port}.capnp`;
  writeFileSync(path, config(relative(dirname(path), file), port, loopback));
  const child = spawn(workerdBinary(), ['serve', path], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
  const exited = new Promise((done) => child.once('exit', () => done()));
  return {
    child,
    exited,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
      await exited;
    },
  };
}
