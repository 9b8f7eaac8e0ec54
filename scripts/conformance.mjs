#!/usr/bin/env node
// Runs the official MCP conformance suite (pinned in scripts/conformance/common.sh) against
// mcpkit: the server suite against `mcpkit serve everything --port N` and against the
// everything server on Express, Hono and Fastify (examples/*-server.ts, through
// mcpkit/express|hono|fastify) for 2026-07-28 and 2025-11-25, and the client suite against
// our conformance client for both.
// Prints one line per set, e.g. "conformance server 2026-07-28: 37 passed, 0 failed", and
// exits non-zero if any scored scenario fails. A third client line covers the not-scored
// authorization extension scenarios (client credentials, enterprise-managed authorization,
// DPoP, workload identity) on both wires; any failure among them fails the run too.
// The gateway leg runs the server suite against `mcpkit proxy` fronting our everything server;
// the mount leg against the everything server mounted in process (examples/mounted-everything.ts).
// The runtime legs run the server suite, both revisions, against the everything server on each
// runtime of scripts/runtimes.mjs (node22, node24, node26 through mcpkit/node; bun through
// Bun.serve; deno through Deno.serve; workers through mcpkit/cloudflare under wrangler dev),
// printing e.g. "conformance server (bun) 2026-07-28: 37 passed, 0 failed" and requiring the
// tasks extension to pass on each; `client-runtimes` runs mcpkit's client on each (both eras).
// Usage: node scripts/conformance.mjs [server|express|hono|fastify|mount|client|gateway|node22|node24|
//        node26|bun|deno|workers|client-runtimes]...   (default: all)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const here = join(root, 'scripts', 'conformance');
const version = process.env.CONFORMANCE_VERSION ?? '0.2.0-alpha.12';
const cache = join(
  process.env.CONFORMANCE_CACHE ?? join(root, 'node_modules/.cache/mcp-conformance'),
  version,
);
const revisions = ['2026-07-28', '2025-11-25'];
const runtimeLegs = ['node22', 'node24', 'node26', 'bun', 'deno', 'workers'];
const allLegs = [
  'server',
  'express',
  'hono',
  'fastify',
  'mount',
  'client',
  'gateway',
  ...runtimeLegs,
  'client-runtimes',
];
const legs = process.argv.slice(2).length ? process.argv.slice(2) : allLegs;
/** Not-scored client scenarios we require anyway: the authorization extensions. */
const extensions = [
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
  'auth/enterprise-managed-authorization',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/wif-jwt-bearer',
];

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function runSuite(script, args) {
  const r = spawnSync('bash', [join(here, script), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: process.env,
  });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  return { output, status: r.status ?? 1 };
}

function scoredScenarios(leg, rev) {
  const pkg = join(cache, 'node_modules/@modelcontextprotocol/conformance');
  const YAML = createRequire(join(pkg, 'package.json'))('yaml');
  return YAML.parse(readFileSync(join(pkg, 'requirements', `${rev}.yaml`), 'utf8'))[leg] ?? [];
}

function tally(leg, rev, output) {
  const failed = new Set([...output.matchAll(/^FAIL (\S+)/gm)].map((m) => m[1]));
  const scored = scoredScenarios(leg === 'gateway' ? 'server' : leg, rev);
  return { claimed: scored, claimedFailures: scored.filter((s) => failed.has(s)) };
}

// The Tasks extension scenarios (not scored) on a line of their own, from their checks.json.
function tasksLine(leg, rev, output) {
  const folder = /results and full log: (\S+)/.exec(output)?.[1];
  if (!folder || !existsSync(folder)) return undefined;
  const suite = leg === 'gateway' ? 'server' : leg;
  const dirs = readdirSync(folder).filter((d) => d.startsWith(`${suite}-tasks-`));
  if (dirs.length === 0) return undefined;
  const statuses = dirs.map((d) => {
    const checks = JSON.parse(readFileSync(join(folder, d, 'checks.json'), 'utf8'));
    if (checks.some((c) => c.status === 'FAILURE')) return 'failed';
    return checks.every((c) => c.status === 'SKIPPED') ? 'skipped' : 'passed';
  });
  const n = (s) => statuses.filter((x) => x === s).length;
  const failing = dirs.filter((_, i) => statuses[i] === 'failed').map((d) => d.replace(/-\d{4}-.*$/, ''));
  return (
    `conformance ${leg} ${rev} tasks extension (not scored): ${dirs.length} run, ${n('passed')} passed, ` +
    `${n('failed')} failed, ${n('skipped')} skipped by the suite` +
    (failing.length ? ` (failing: ${failing.join(', ')})` : '')
  );
}

/** Prints a set's lines (through `print`) and returns its verdict; `requireTasks`: the tasks extension must pass too. */
function report(
  leg,
  rev,
  { output, status },
  label = leg,
  { requireTasks = false, print = console.log } = {},
) {
  if (!existsSync(join(cache, 'node_modules/@modelcontextprotocol/conformance'))) {
    print(output);
    print(`conformance ${label} ${rev}: the suite could not be installed (exit ${status})`);
    return false;
  }
  const t = tally(leg, rev, output);
  const details = output.split('\n').filter((l) => /^(FAIL| {5}|warn|note|not scored)/.test(l));
  if (process.env.CONFORMANCE_DETAILS !== '0') for (const l of details) print(`  ${l}`);
  const passed = t.claimed.length - t.claimedFailures.length;
  const tasks = tasksLine(leg, rev, output);
  if (tasks) print(tasks.replace(`conformance ${leg}`, `conformance ${label}`));
  print(`conformance ${label} ${rev}: ${passed} passed, ${t.claimedFailures.length} failed`);
  if (t.claimedFailures.length) print(`  failing: ${t.claimedFailures.join(', ')}`);
  const tasksOk = !requireTasks || (tasks !== undefined && / 0 failed/.test(tasks));
  if (!tasksOk) print(`  the tasks extension must pass on ${label} ${rev}`);
  return t.claimedFailures.length === 0 && (status === 0 || status === 1) && tasksOk;
}

/** The apps the server suite runs against: the CLI's node:http server, then one per framework adapter. */
const serverApps = {
  server: {
    label: 'server',
    args: (port) => ['dist/src/cli/main.js', 'serve', 'everything', '--port', port],
  },
  express: { label: 'server (express)', args: (port) => ['dist/examples/express-server.js', '--port', port] },
  hono: { label: 'server (hono)', args: (port) => ['dist/examples/hono-server.js', '--port', port] },
  fastify: { label: 'server (fastify)', args: (port) => ['dist/examples/fastify-server.js', '--port', port] },
  // The everything server mounted (prefix '') on an empty server definition: McpServer.mount.
  mount: { label: 'server (mount)', args: (port) => ['dist/examples/mounted-everything.js', '--port', port] },
};

async function serverLeg(app) {
  const port = await freePort();
  const args = app.args(String(port));
  const server = spawn(process.execPath, [join(root, args[0]), ...args.slice(1)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let ok = true;
  try {
    for (const rev of revisions)
      ok =
        report('server', rev, runSuite('server.sh', [`http://127.0.0.1:${port}/mcp`, rev]), app.label) && ok;
  } finally {
    server.kill('SIGTERM');
  }
  return ok;
}

// The gateway fronting our everything server (`mcpkit proxy`, names unchanged): modern
// clients through a modern backend connection (requests relayed, input_required passed on
// with the backend's keys), legacy clients through a legacy one (server-initiated requests
// forwarded on the session).
/** Resolves once `mcpkit proxy` says it is serving (its backend is connected), or after 60 s. */
function serving(child) {
  return new Promise((resolve) => {
    let text = '';
    const timer = setTimeout(resolve, 60_000);
    child.stderr.on('data', (chunk) => {
      text += chunk;
      if (/serving .* at http/.test(text)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function gatewayLeg() {
  let ok = true;
  for (const [rev, era] of [
    ['2026-07-28', 'auto'],
    ['2025-11-25', 'legacy'],
  ]) {
    const port = await freePort();
    const everything = join(root, 'dist/servers/everything/main.js');
    const args = ['proxy', '--era', era, '--port', String(port), '--', process.execPath, everything];
    const gateway = spawn(process.execPath, [join(root, 'dist/src/cli/main.js'), ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      await serving(gateway);
      ok = report('gateway', rev, runSuite('server.sh', [`http://127.0.0.1:${port}/mcp`, rev])) && ok;
    } finally {
      gateway.kill('SIGTERM');
    }
  }
  return ok;
}

/** The extension scenarios that failed in one client run, from its "not scored" line. */
function failedExtensions(output) {
  const line = output.split('\n').find((l) => l.startsWith('not scored:')) ?? '';
  const listed = new Set([...line.matchAll(/(auth\/[\w-]+) \[/g)].map((m) => m[1]));
  return extensions.filter((s) => listed.has(s) || !line);
}

function clientLeg() {
  let ok = true;
  const command = `${process.execPath} ${join(root, 'dist/test/conformance/client.js')}`;
  const failures = [];
  for (const rev of revisions) {
    const run = runSuite('client.sh', [command, rev]);
    ok = report('client', rev, run) && ok;
    for (const s of failedExtensions(run.output)) failures.push(`${s} (${rev})`);
  }
  const total = extensions.length * revisions.length;
  console.log(
    `conformance client extensions (${extensions.length} auth scenarios x ${revisions.length} revisions): ` +
      `${total - failures.length} passed, ${failures.length} failed`,
  );
  if (failures.length) console.log(`  failing: ${failures.join(', ')}`);
  return ok && failures.length === 0;
}

// ---- Runtimes: the same suite on each runtime, several at once (each waits on its server). ----

/** The runtimes' commands (installed on first use); undefined when they cannot be installed. */
async function runtimeCommands() {
  const { runtimes } = await import('./runtimes.mjs');
  try {
    return runtimes();
  } catch (error) {
    console.log(`conformance runtimes: ${error.message}`);
    return undefined;
  }
}

/** How each runtime serves the everything server on `port` (argv), and how long it takes to start. */
const runtimeServers = {
  node22: (rt, port) => [...rt.node22, 'dist/src/cli/main.js', 'serve', 'everything', '--port', port],
  node24: (rt, port) => [...rt.node24, 'dist/src/cli/main.js', 'serve', 'everything', '--port', port],
  node26: (rt, port) => [...rt.node26, 'dist/src/cli/main.js', 'serve', 'everything', '--port', port],
  bun: (rt, port) => [...rt.bun, 'dist/examples/bun-server.js', '--port', port],
  deno: (rt, port) => [
    ...rt.deno,
    'run',
    '--allow-net=127.0.0.1',
    '--allow-read',
    '--allow-env',
    'dist/examples/deno-server.js',
    '--port',
    port,
  ],
  workers: (rt, port, extra) => [
    ...rt.wrangler,
    'dev',
    '--config',
    'examples/workers/wrangler.jsonc',
    '--ip',
    '127.0.0.1',
    '--port',
    port,
    '--inspector-port',
    extra.inspector,
    '--persist-to',
    extra.state,
    '--show-interactive-dev-session=false',
  ],
};

/** Runs a script of scripts/conformance without blocking the others; resolves with its output. */
function runSuiteAsync(script, args, env) {
  return new Promise((resolve) => {
    const child = spawn('bash', [join(here, script), ...args], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('close', (status) => resolve({ output, status: status ?? 1 }));
  });
}

/** Starts `argv` in a process group of its own (wrangler starts workerd), so it stops whole. */
function startGroup(argv) {
  const child = spawn(argv[0], argv.slice(1), {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
  });
  let log = '';
  child.stderr.on('data', (chunk) => (log = (log + chunk).slice(-4000)));
  return {
    log: () => log,
    stop: () => {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}

/** One runtime's leg: its server, then the suite for each revision; prints the runtime's lines. */
async function runtimeLeg(rt, name) {
  const port = String(await freePort());
  const state = mkdtempSync(join(tmpdir(), `mcpkit-${name}-`));
  const extra = { inspector: String(await freePort()), state };
  const server = startGroup(runtimeServers[name](rt, port, extra));
  const lines = [];
  let ok = true;
  try {
    for (const rev of revisions) {
      const run = await runSuiteAsync('server.sh', [`http://127.0.0.1:${port}/mcp`, rev], {
        CONFORMANCE_RUN: name,
        CONFORMANCE_WAIT: '90',
      });
      const print = (line) => lines.push(line);
      ok =
        report('server', rev, run, `server (${name})`, { requireTasks: rev === '2026-07-28', print }) && ok;
    }
  } finally {
    server.stop();
    rmSync(state, { recursive: true, force: true });
  }
  if (!ok)
    lines.push(`  ${name} server's last output: ${server.log().trim().split('\n').slice(-5).join(' | ')}`);
  return { ok, lines };
}

/** Runs `jobs` (functions returning promises) at most `limit` at a time, in order of results. */
async function pool(jobs, limit) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}

async function runtimesLegs(names) {
  const rt = await runtimeCommands();
  if (!rt) return false;
  const limit = Number(process.env.CONFORMANCE_PARALLEL ?? 3);
  const results = await pool(
    names.map((name) => () => runtimeLeg(rt, name)),
    limit,
  );
  for (const { lines } of results) for (const line of lines) console.log(line);
  return results.every((r) => r.ok);
}

/** Resolves once `url` answers at all (or after 30 s). */
async function answering(url) {
  for (let i = 0; i < 300; i++) {
    const up = await globalThis.fetch(url).then(
      () => true,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The smoke test inside a Worker on a fresh workerd (bundled as a deploy would, no
 * nodejs_compat; its fetches may reach loopback), both eras, against the server at `url`.
 */
async function workersClientSmoke(url) {
  const { bundleWorker, serveWorker } = await import('./workerd.mjs');
  const work = mkdtempSync(join(tmpdir(), 'mcpkit-workers-client-'));
  let ok = true;
  try {
    const file = bundleWorker(join(root, 'dist/test/runtimes/client-smoke-worker.js'), join(work, 'smoke'));
    const port = await freePort();
    const worker = serveWorker(file, { port, loopback: true });
    try {
      await answering(`http://127.0.0.1:${port}/`);
      for (const [rev, era] of [
        ['2026-07-28', 'modern'],
        ['2025-11-25', 'legacy'],
      ]) {
        const query = new globalThis.URLSearchParams({ url, era });
        const r = await globalThis.fetch(`http://127.0.0.1:${port}/?${query}`).catch((e) => ({
          status: 0,
          text: () => String(e),
        }));
        const output = await r.text();
        console.log(`conformance client smoke (workers) ${rev}: ${r.status === 200 ? 'passed' : 'failed'}`);
        if (r.status !== 200)
          console.log(`  ${output.split('\n').slice(0, 3).join(' | ')} ${worker.stderr().slice(-300)}`);
        ok = r.status === 200 && ok;
      }
    } finally {
      await worker.stop();
    }
  } catch (error) {
    console.log(`conformance client smoke (workers): failed\n  ${String(error).split('\n')[0]}`);
    ok = false;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return ok;
}

/** mcpkit's client on each runtime against the everything server on the system Node, both eras. */
async function clientRuntimesLeg() {
  const rt = await runtimeCommands();
  if (!rt) return false;
  const port = String(await freePort());
  const server = startGroup([
    process.execPath,
    'dist/src/cli/main.js',
    'serve',
    'everything',
    '--port',
    port,
  ]);
  const url = `http://127.0.0.1:${port}/mcp`;
  const smoke = 'dist/test/runtimes/client-smoke.js';
  const clients = {
    node22: [...rt.node22, smoke],
    node24: [...rt.node24, smoke],
    node26: [...rt.node26, smoke],
    bun: [...rt.bun, smoke],
    deno: [...rt.deno, 'run', '--allow-net=127.0.0.1', '--allow-read', '--allow-env', smoke],
  };
  let ok = true;
  try {
    await answering(url);
    ok = (await workersClientSmoke(url)) && ok;
    for (const [name, argv] of Object.entries(clients))
      for (const [rev, era] of [
        ['2026-07-28', 'modern'],
        ['2025-11-25', 'legacy'],
      ]) {
        const r = await new Promise((resolve) => {
          const child = spawn(argv[0], [...argv.slice(1), url, era], { cwd: root });
          let output = '';
          child.stdout.on('data', (c) => (output += c));
          child.stderr.on('data', (c) => (output += c));
          child.once('close', (status) => resolve({ status, output: output.trim() }));
        });
        console.log(`conformance client smoke (${name}) ${rev}: ${r.status === 0 ? 'passed' : 'failed'}`);
        if (r.status !== 0) console.log(`  ${r.output.split('\n').slice(0, 3).join(' | ')}`);
        ok = r.status === 0 && ok;
      }
  } finally {
    server.stop();
  }
  return ok;
}

let ok = true;
for (const [leg, app] of Object.entries(serverApps))
  if (legs.includes(leg)) ok = (await serverLeg(app)) && ok;
if (legs.includes('client')) ok = clientLeg() && ok;
if (legs.includes('gateway')) ok = (await gatewayLeg()) && ok;
const chosenRuntimes = runtimeLegs.filter((leg) => legs.includes(leg));
if (chosenRuntimes.length) ok = (await runtimesLegs(chosenRuntimes)) && ok;
if (legs.includes('client-runtimes')) ok = (await clientRuntimesLeg()) && ok;
process.exit(ok ? 0 : 1);
