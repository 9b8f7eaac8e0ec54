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
// The gateway leg runs the server suite against `mcpkit proxy` fronting our everything server.
// Usage: node scripts/conformance.mjs [server|express|hono|fastify|client|gateway]...   (default: all)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
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
const allLegs = ['server', 'express', 'hono', 'fastify', 'client', 'gateway'];
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

function report(leg, rev, { output, status }, label = leg) {
  if (!existsSync(join(cache, 'node_modules/@modelcontextprotocol/conformance'))) {
    console.log(output);
    console.log(`conformance ${label} ${rev}: the suite could not be installed (exit ${status})`);
    return false;
  }
  const t = tally(leg, rev, output);
  const details = output.split('\n').filter((l) => /^(FAIL| {5}|warn|note|not scored)/.test(l));
  if (process.env.CONFORMANCE_DETAILS !== '0') for (const l of details) console.log(`  ${l}`);
  const passed = t.claimed.length - t.claimedFailures.length;
  const tasks = tasksLine(leg, rev, output);
  if (tasks) console.log(tasks.replace(`conformance ${leg}`, `conformance ${label}`));
  console.log(`conformance ${label} ${rev}: ${passed} passed, ${t.claimedFailures.length} failed`);
  if (t.claimedFailures.length) console.log(`  failing: ${t.claimedFailures.join(', ')}`);
  return t.claimedFailures.length === 0 && (status === 0 || status === 1);
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

let ok = true;
for (const [leg, app] of Object.entries(serverApps))
  if (legs.includes(leg)) ok = (await serverLeg(app)) && ok;
if (legs.includes('client')) ok = clientLeg() && ok;
if (legs.includes('gateway')) ok = (await gatewayLeg()) && ok;
process.exit(ok ? 0 : 1);
