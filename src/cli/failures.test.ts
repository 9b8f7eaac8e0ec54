import { createServer as createNodeServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHandler } from '../server/http/index.js';
import { createServer } from '../server/index.js';
import { serve, type Served } from '../integrations/node/index.js';
import { CLI, ROOT, runCli, type CliRun } from '../../test/support/cli.js';

/** A "server" that reads stdin and never answers. */
const SILENT = 'process.stdin.resume()';
/** A "server" that greets on stdout instead of speaking JSON-RPC, then never answers. */
const CHATTY = "for (let i = 0; i < 200; i++) console.log('hello, I am not MCP'); process.stdin.resume()";

/** Expects `code` and exactly one `mcpkit: …` line on stderr matching `text`. */
function expectFailure(run: CliRun, code: number, text: string | RegExp): void {
  expect(run.code, run.stderr).toBe(code);
  expect(run.stderr).toMatch(/^mcpkit: [^\n]+\n$/);
  expect(run.stderr).toMatch(text);
}

/** A web server that answers every request with an HTML 404 page, like a wrong path does. */
async function htmlNotFound(): Promise<{ url: string; server: Server }> {
  const server = createNodeServer((_req, res) => {
    res
      .writeHead(404, { 'content-type': 'text/html' })
      .end('<!DOCTYPE html><html><body>Cannot POST /wrong</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/wrong`, server };
}

describe('mcpkit against a server that never answers', () => {
  it('gives up after --connect-timeout, probe included, naming the server', async () => {
    const run = await runCli(['inspect', '--connect-timeout', '1500', '--', 'node', '-e', SILENT]);
    expectFailure(run, 3, /no answer from `node` within 1\.5 s while connecting \(is it an MCP server\?/);
    expect(run.elapsedMs).toBeLessThan(15_000);
  });

  it('bounds the connection by --timeout when that is shorter than the default', async () => {
    const run = await runCli(['inspect', '--timeout', '2000', '--', 'node', '-e', SILENT]);
    expectFailure(run, 3, /within 2 s while connecting/);
  });

  it('says it is waiting when stderr is a terminal', async () => {
    const command = `node ${CLI} inspect --connect-timeout 2500 -- node -e '${SILENT}'`;
    // `script` gives the CLI a pseudo-terminal; its output is the terminal's.
    const { stdout: out, status } = spawnSync('script', ['-qec', command, '/dev/null'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(status).toBe(3);
    expect(out).toMatch(/mcpkit: waiting for server `node`…/);
    expect(out).toMatch(/no answer from `node` within 2\.5 s/);
  });
});

/** A legacy server that connects and lists its tool, then never answers `tools/call`. */
const STALLING = `
const out = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') out(m.id, { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'stall', version: '1' } });
  else if (m.method === 'tools/list') out(m.id, { tools: [{ name: 'wait', inputSchema: { type: 'object' } }] });
  else if (m.method !== 'tools/call' && m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no' } }) + '\\n');
});`;

describe('mcpkit against a server that connects but never answers a call', () => {
  it('reports the request timeout as a protocol failure (exit 4)', async () => {
    const run = await runCli(['call', 'wait', '--timeout', '1500', '--', 'node', '-e', STALLING]);
    expectFailure(run, 4, /tools\/call\) timed out after 1500 ms/);
  });
});

describe('mcpkit against a server that writes junk on stdout', () => {
  it('fails at once, quoting the junk, without waiting for any timeout', async () => {
    const run = await runCli(['inspect', '--connect-timeout', '60000', '--', 'node', '-e', CHATTY]);
    expectFailure(
      run,
      3,
      /wrote 101 lines .*not JSON-RPC in a row, with no message between them; the last: "hello, I am not MCP"/,
    );
    expect(run.elapsedMs).toBeLessThan(30_000);
  });
});

describe('mcpkit against a server started through npx, which prints a notice and a banner first', () => {
  it('skips the lines that are not JSON-RPC and calls the tool', async () => {
    const server = `${ROOT}test/support/fixtures/launched-server.mjs`;
    const run = await runCli(['call', 'log', '--', 'node', server, '--banner']);
    expect(run.stderr).toBe('');
    expect(run).toMatchObject({ code: 0, stdout: 'logged\n' });
  });
});

describe('mcpkit against an HTTP URL that is not an MCP endpoint', () => {
  let site: { url: string; server: Server };
  beforeAll(async () => (site = await htmlNotFound()));
  afterAll(() => site && new Promise<void>((resolve) => site.server.close(() => resolve())));

  it('reports the HTTP status with a path hint, not a JSON-RPC code or an HTML page', async () => {
    const run = await runCli(['inspect', site.url]);
    expectFailure(run, 3, /answered HTTP 404 Not Found; no MCP endpoint at this path — check the URL/);
    expect(run.stderr).not.toMatch(/-32601|DOCTYPE|<html|warning/i);
  });

  it('writes the error as one JSON object on stderr with --json', async () => {
    const run = await runCli(['inspect', site.url, '--json']);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    const { error } = JSON.parse(run.stderr) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ kind: 'connection', exitCode: 3, httpStatus: 404 });
    expect(error.message).toMatch(/HTTP 404/);
  });
});

describe('mcpkit --header', () => {
  let served: Served;
  beforeAll(async () => {
    const server = createServer({ name: 'guarded', version: '1' });
    server.tool('whoami', { description: 'says hello' }, () => 'hello, keyholder');
    const handler = createHttpHandler(server);
    served = await serve(
      (request) =>
        request.headers.get('x-api-key') === 'sesame'
          ? handler(request)
          : Promise.resolve(new Response('missing key', { status: 401, statusText: 'Unauthorized' })),
      { port: 0 },
    );
  });
  afterAll(() => served?.close());

  it('sends the header on every request', async () => {
    const run = await runCli(['call', 'whoami', served.url, '--header', 'X-Api-Key: sesame']);
    expect(run).toMatchObject({ code: 0, stdout: 'hello, keyholder\n' });
  });

  it('without it, reports the 401 as HTTP with a credentials hint', async () => {
    // A bearer token the server does not accept: the 401 reaches the CLI as it is.
    const run = await runCli(['call', 'whoami', served.url, '--token', 'not-the-key']);
    expectFailure(run, 3, /answered HTTP 401 Unauthorized \(missing key\); the server wants credentials/);
  });

  it('is refused for a stdio server', async () => {
    const run = await runCli(['inspect', '--header', 'A: b', '--', 'node', '-e', SILENT]);
    expectFailure(run, 2, /--header is for HTTP servers/);
  });
});

describe('mcpkit exit codes and arguments', () => {
  it.each([
    ['usage', ['call'], 2],
    ['connection', ['inspect', '--', 'mcpkit-no-such-command'], 3],
    ['protocol', ['call', 'no_such_tool'], 4],
    ['tool', ['call', 'test_error_handling'], 1],
  ])('a %s error (%j) exits %i', async (_kind, args, code) => {
    expect((await runCli(args)).code).toBe(code);
  });

  it('takes key=value and key:=json arguments as well as --args', async () => {
    const run = await runCli(['call', 'echo', 'text=hi there']);
    expect(run).toMatchObject({ code: 0, stdout: 'hi there\n' });
    const json = await runCli(['call', 'echo', 'text:="from JSON"']);
    expect(json).toMatchObject({ code: 0, stdout: 'from JSON\n' });
  });

  it('builds before `npm pack` (prepack), so a clone never packs without dist/', () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.prepack).toMatch(/npm run build/);
  });
});

describe('mcpkit against an HTTP URL that answers 200 with a web page', () => {
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createNodeServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!DOCTYPE html><html><body>Welcome</body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => server && new Promise<void>((resolve) => server.close(() => resolve())));

  it('says it is not MCP at once, without dumping the page', async () => {
    const run = await runCli(['inspect', url]);
    expectFailure(run, 3, /is not speaking MCP: .*not JSON-RPC before any message: an HTML or XML document/);
    expect(run.stderr).not.toMatch(/DOCTYPE|Welcome/);
  });
});
