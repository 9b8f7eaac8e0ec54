/**
 * `mcpkit card` (the built CLI) against real loopback servers: the everything server's own
 * card checks clean (exit 0); a deliberately drifting card gets one line per drift and exit
 * 1; an invalid card exit 4; an unreachable one exit 3; usage errors exit 2.
 */
import { createServer as createNodeServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli.js';
import { parseCardCommand } from './card-args.js';
import { CliError } from './errors.js';
import { createEverythingServer } from '../../servers/everything/server.js';
import { createServer } from '../server/index.js';
import { serve, toNodeListener, type Served } from '../integrations/node/index.js';
import { SERVER_CARD_SCHEMA_URL, type ServerCard } from '../core/server-card.js';

let everything: Served;
let drifting: Server;
let base: string;

/** A modern-only server on /mcp whose hand-written card at /mcp/server-card drifts on purpose. */
async function driftingServer(): Promise<Server> {
  const server = createServer({ name: 'drift', version: '2.0.0', title: 'Drift', eras: ['modern'] });
  server.tool('live-tool', () => 'ok');
  const mcp = toNodeListener(server, {});
  const node = createNodeServer((req, res) => {
    const address = node.address() as AddressInfo;
    const origin = `http://127.0.0.1:${address.port}`;
    if (req.url === '/mcp/server-card') return void res.end(JSON.stringify(cardOf(origin)));
    if (req.url === '/bad/server-card') return void res.end(JSON.stringify({ name: 'x', version: '1' }));
    if (req.url === '/loop/server-card')
      return void res.writeHead(302, { location: '/loop/server-card' }).end();
    if (req.url === '/big/server-card') return void res.end(JSON.stringify({ pad: 'x'.repeat(70_000) }));
    if (req.url === '/mcp') return mcp(req, res);
    if (req.url === '/locked') return void res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  return node;
}

function cardOf(origin: string): ServerCard {
  return {
    $schema: SERVER_CARD_SCHEMA_URL,
    name: 'com.example/drift',
    version: '1.0.0',
    title: 'Drift',
    description: 'Claims more than it serves.',
    remotes: [
      {
        type: 'streamable-http',
        url: `${origin}/mcp`,
        headers: [{ name: 'Authorization', isRequired: true, isSecret: true }],
        supportedProtocolVersions: ['2026-07-28', '2025-11-25'],
      },
      { type: 'streamable-http', url: `${origin}/gone` },
      { type: 'streamable-http', url: 'https://{tenant}.example.com/mcp' },
      { type: 'streamable-http', url: `${origin}/locked` },
    ],
  };
}

beforeAll(async () => {
  everything = await serve(createEverythingServer(), {
    port: 0,
    http: { serverCard: { name: 'io.github.mcpkit/mcpkit-everything' } },
  });
  drifting = await driftingServer();
  base = `http://127.0.0.1:${(drifting.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await everything.close();
  drifting.closeAllConnections();
  await new Promise((resolve) => drifting.close(resolve));
});

describe('mcpkit card', () => {
  it('prints and validates the everything server card, and --check finds no drift', async () => {
    const shown = await runCli(['card', everything.url]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ name: 'io.github.mcpkit/mcpkit-everything' });
    const checked = await runCli(['card', everything.url, '--check']);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/remote streamable-http .*: modern, serves 2026-07-28 2025-11-25/);
    expect(checked.stdout).toMatch(/\d+ tools, \d+ resources, \d+ prompts/);
    expect(checked.stdout.trim().endsWith('no drift')).toBe(true);
  });

  it('reports each drift of a drifting card and exits 1', async () => {
    const run = await runCli(['card', `${base}/mcp`, '--check', '--json']);
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as { drift: Array<{ field: string; message: string }> };
    const fields = report.drift.map((d) => d.field).sort();
    expect(fields).toEqual(['auth', 'auth', 'supportedProtocolVersions', 'transport', 'version']);
    const byField = Object.fromEntries(report.drift.map((d) => [d.field, d.message]));
    expect(report.drift.map((d) => d.message)).toContain(
      `${base}/locked answers 401, but the card declares no required Authorization header`,
    );
    expect(byField.supportedProtocolVersions).toMatch(/claims 2025-11-25, which the server does not serve/);
    expect(byField.version).toMatch(/"1.0.0".*"2.0.0"/);
    expect(byField.transport).toContain(`${base}/gone`);
    const remotes = (report as unknown as { remotes: Array<{ url: string; skipped?: string }> }).remotes;
    expect(remotes[2]?.skipped).toBe('server card URL variable {tenant} needs a value');
  });

  it('exits 4 for a card that does not validate and 3 for none; refuses bad usage', async () => {
    const invalid = await runCli(['card', `${base}/bad/server-card`]);
    expect(invalid.code).toBe(4);
    expect(invalid.stderr).toMatch(/not valid/);
    const none = await runCli(['card', `${base}/nothing`]);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain(`${base}/nothing`);
    expect(() => parseCardCommand([])).toThrow(CliError);
    expect(() => parseCardCommand(['ftp://x'])).toThrow(/not an http/);
    expect(() => parseCardCommand(['http://x', '--var', 'bad name'])).toThrow(/--var/);
    expect(parseCardCommand(['--help'])).toEqual({ name: 'card', help: true });
  });

  it('names the URL and the cause for a redirect loop, and the URL for a card over the size bound', async () => {
    const loop = await runCli(['card', '--check', `${base}/loop/server-card`]);
    expect(loop.code).toBe(3);
    expect(loop.stderr).toContain(`could not reach ${base}/loop/server-card`);
    expect(loop.stderr).toMatch(/redirect/);
    expect(loop.stderr).not.toMatch(/: fetch failed\s*$/);
    const big = await runCli(['card', '--check', `${base}/big/server-card`]);
    expect(big.code).not.toBe(0);
    expect(big.stderr).toContain(`server card ${base}/big/server-card is larger than 65536 bytes`);
  });
});
