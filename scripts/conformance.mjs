#!/usr/bin/env node
// Runs the official MCP conformance suite (pinned in scripts/conformance/common.sh) against
// mcpkit: the server suite against `mcpkit serve everything --port N` for 2026-07-28 and
// 2025-11-25, and the client suite against our conformance client for both.
// Prints one line per set, e.g. "conformance server 2026-07-28: 37 passed, 0 failed", and
// exits non-zero if any scored scenario fails. A third client line covers the not-scored
// authorization extension scenarios (client credentials, enterprise-managed authorization,
// DPoP, workload identity) on both wires; any failure among them fails the run too.
// Usage: node scripts/conformance.mjs [server|client]...   (default: both)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const here = join(root, 'scripts', 'conformance');
const version = process.env.CONFORMANCE_VERSION ?? '0.2.0-alpha.12';
const cache = join(
  process.env.CONFORMANCE_CACHE ?? join(root, 'node_modules/.cache/mcp-conformance'),
  version,
);
const revisions = ['2026-07-28', '2025-11-25'];
const legs = process.argv.slice(2).length ? process.argv.slice(2) : ['server', 'client'];
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
  const scored = scoredScenarios(leg, rev);
  return { claimed: scored, claimedFailures: scored.filter((s) => failed.has(s)) };
}

function report(leg, rev, { output, status }) {
  if (!existsSync(join(cache, 'node_modules/@modelcontextprotocol/conformance'))) {
    console.log(output);
    console.log(`conformance ${leg} ${rev}: the suite could not be installed (exit ${status})`);
    return false;
  }
  const t = tally(leg, rev, output);
  const details = output.split('\n').filter((l) => /^(FAIL| {5}|warn|note|not scored)/.test(l));
  if (process.env.CONFORMANCE_DETAILS !== '0') for (const l of details) console.log(`  ${l}`);
  const passed = t.claimed.length - t.claimedFailures.length;
  console.log(`conformance ${leg} ${rev}: ${passed} passed, ${t.claimedFailures.length} failed`);
  if (t.claimedFailures.length) console.log(`  failing: ${t.claimedFailures.join(', ')}`);
  return t.claimedFailures.length === 0 && (status === 0 || status === 1);
}

async function serverLeg() {
  const port = await freePort();
  const server = spawn(
    process.execPath,
    [join(root, 'dist/src/cli/main.js'), 'serve', 'everything', '--port', String(port)],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  let ok = true;
  try {
    for (const rev of revisions)
      ok = report('server', rev, runSuite('server.sh', [`http://127.0.0.1:${port}/mcp`, rev])) && ok;
  } finally {
    server.kill('SIGTERM');
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
if (legs.includes('server')) ok = (await serverLeg()) && ok;
if (legs.includes('client')) ok = clientLeg() && ok;
process.exit(ok ? 0 : 1);
