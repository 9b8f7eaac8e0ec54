import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));
const OFFICIAL = ['node', 'node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'];

/** A legacy server that answers the handshake and listing, then dies on `tools/call`. */
const CRASHY = `
const out = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') out(m.id, { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'crashy', version: '1' } });
  else if (m.method === 'tools/list') out(m.id, { tools: [{ name: 'boom', inputSchema: { type: 'object' } }] });
  else if (m.method === 'tools/call') { process.stderr.write('crashing now\\n'); process.exit(7); }
  else if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } }) + '\\n');
});`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI with `args` from the repository root. */
function cli(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Expects exit code `code` and exactly one line on stderr containing `text`. */
function expectOneLineError(run: Run, text: string | RegExp, code: number): void {
  expect(run.code, run.stderr).toBe(code);
  expect(run.stderr).toMatch(/^mcpkit: [^\n]+\n$/);
  expect(run.stderr).toMatch(text);
}

describe('mcpkit inspect', () => {
  it('describes the built-in everything server when no command is given', async () => {
    const run = await cli(['inspect']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Server:\s+mcpkit-everything 0\.1\.0/);
    expect(run.stdout).toMatch(/Era:\s+modern \(protocol 2026-07-28\)/);
    expect(run.stdout).toContain('echo — Echo');
    expect(run.stdout).toContain('input: {text: string}');
    expect(run.stdout).toContain('test_simple_text');
    expect(run.stdout).toContain('test://static-text');
    expect(run.stdout).toContain('test://template/{id}/data');
    expect(run.stdout).toContain('arguments: arg1 (First test argument), arg2 (Second test argument)');
  });

  it.each([
    ['legacy', '2025-11-25'],
    ['modern', '2026-07-28'],
  ])('speaks the %s era to a spawned server when pinned', async (era, version) => {
    const run = await cli(['inspect', '--era', era, '--', 'node', 'dist/servers/everything/main.js']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`Era:\\s+${era} \\(protocol ${version}\\)`));
    expect(run.stdout).toContain('test_simple_text');
  });

  it('prints one JSON object with --json', async () => {
    const run = await cli(['inspect', '--json']);
    expect(run.code).toBe(0);
    const inspection = JSON.parse(run.stdout) as { era: string; tools: { name: string }[] };
    expect(inspection.era).toBe('modern');
    expect(inspection.tools.map((t) => t.name)).toContain('echo');
  });

  it('falls back to legacy with the official everything server', async () => {
    const run = await cli(['inspect', '--', ...OFFICIAL]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Era:\s+legacy/);
    expect(run.stdout).toContain('echo');
  });
});

describe('mcpkit call, read and prompt', () => {
  it('prints the text a tool returns', async () => {
    const run = await cli(['call', 'echo', '--args', '{"text":"hi"}']);
    expect(run).toMatchObject({ code: 0, stdout: 'hi\n' });
  });

  it('prints progress to stderr and the result to stdout', async () => {
    const run = await cli(['call', 'test_tool_with_progress']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('progress 50/100');
    expect(run.stdout).not.toContain('progress');
  });

  it('calls a tool of the official server over legacy', async () => {
    const run = await cli(['call', 'echo', '--args', '{"message":"yo"}', '--', ...OFFICIAL]);
    expect(run).toMatchObject({ code: 0, stdout: 'Echo: yo\n' });
  });

  it('reads a text resource', async () => {
    const run = await cli(['read', 'test://static-text']);
    expect(run).toMatchObject({ code: 0, stdout: 'This is the content of the static text resource.\n' });
  });

  it('summarises a binary resource', async () => {
    const run = await cli(['read', 'test://static-binary']);
    expect(run.stdout).toMatch(/^\[image\/png test:\/\/static-binary, \d+ bytes\]\n$/);
  });

  it('prints the messages of a prompt with arguments', async () => {
    const run = await cli(['prompt', 'test_prompt_with_arguments', '--args', '{"arg1":"a","arg2":"b"}']);
    expect(run).toMatchObject({ code: 0, stdout: "user: Prompt with arguments: arg1='a', arg2='b'\n" });
  });

  it('prints the raw result with --json', async () => {
    const run = await cli(['call', 'echo', '--args', '{"text":"hi"}', '--json']);
    expect(JSON.parse(run.stdout)).toMatchObject({ content: [{ type: 'text', text: 'hi' }] });
  });
});

/** A legacy server that writes to stderr when called, and answers anything, discover included. */
const LENIENT = `
const out = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') out(m.id, { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'lenient', version: '1' } });
  else if (m.method === 'tools/list') out(m.id, { tools: [{ name: 'hi', inputSchema: { type: 'object' } }] });
  else if (m.method === 'tools/call') { process.stderr.write('server log: called hi\\n'); out(m.id, { content: [{ type: 'text', text: 'hello' }] }); }
  else out(m.id, {});
});`;

describe('mcpkit flags for stdio servers and elicitation', () => {
  it('answers elicitations with --answer, in order, and says what it answered on stderr', async () => {
    const run = await cli([
      'call',
      'test_elicitation',
      'message=Who are you?',
      '--answer',
      '{"username":"ada","email":"ada@example.com"}',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('action=accept, content={"username":"ada","email":"ada@example.com"}');
    expect(run.stderr).toContain('mcpkit: elicitation "Who are you?": accept {"username":"ada"');
    const declined = await cli([
      'call',
      'test_elicitation',
      'message=Again?',
      '--answer',
      '{"action":"decline"}',
    ]);
    expect(declined.stdout).toContain('action=decline');
  });

  it('refuses an --answer that is not a JSON object', async () => {
    const run = await cli(['call', 'test_elicitation', 'message=x', '--answer', '[1]']);
    expectOneLineError(run, /--answer must be a JSON object/, 2);
  });

  it("shows a stdio server's stderr with --stderr, and hides it without", async () => {
    const shown = await cli(['call', 'hi', '--stderr', '--', 'node', '-e', LENIENT]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toContain('server log: called hi');
    const hidden = await cli(['call', 'hi', '--', 'node', '-e', LENIENT]);
    expect(hidden.stdout).toContain('hello');
    expect(hidden.stderr).not.toContain('server log');
  });
});

describe('mcpkit errors', () => {
  it('shows the parse error of bad --args JSON', async () => {
    expectOneLineError(await cli(['call', 'echo', '--args', '{"text":']), /--args is not valid JSON: /, 2);
  });

  it('reports a command that cannot start', async () => {
    const run = await cli(['inspect', '--', 'mcpkit-no-such-command']);
    expectOneLineError(run, 'could not start `mcpkit-no-such-command`: not found', 3);
  });

  it('reports a server that exits while connecting', async () => {
    const run = await cli(['inspect', '--', 'node', '-e', 'console.error("bad config"); process.exit(3)']);
    expectOneLineError(run, /server `node` exited with code 3 while connecting; stderr: bad config/, 3);
  });

  it('reports a server that exits during a call, with its stderr', async () => {
    const run = await cli(['call', 'boom', '--', 'node', '-e', CRASHY]);
    expectOneLineError(run, /exited with code 7 before answering; stderr: crashing now/, 3);
  });

  it("reports an unknown tool with the server's message", async () => {
    expectOneLineError(await cli(['call', 'no_such_tool']), /Unknown tool: no_such_tool/, 4);
  });

  it('exits 1 when the tool reports an error', async () => {
    expectOneLineError(await cli(['call', 'test_error_handling']), /reported an error: This tool/, 1);
  });

  it.each([
    [['frob'], 'unknown command `frob`'],
    [['inspect', '--frob'], "Unknown option '--frob'"],
    [['inspect', '--era', 'future'], '--era must be auto, modern or legacy'],
    [['call'], '`call` takes 1 to 2 arguments'],
    [['inspect', 'not-a-url'], 'is not an http(s) URL'],
  ])('rejects %j', async (args, message) => {
    expectOneLineError(await cli(args), message, 2);
  });
});

describe('mcpkit help, version and serve', () => {
  it('prints usage for each command', async () => {
    expect((await cli(['--help'])).stdout).toContain('Usage: mcpkit COMMAND');
    expect((await cli(['call', '--help'])).stdout).toContain('Usage: mcpkit call TOOL');
  });

  it('prints the package version', async () => {
    expect((await cli(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('serves the everything server on stdio to another mcpkit', async () => {
    const run = await cli([
      'call',
      'echo',
      '--args',
      '{"text":"served"}',
      '--',
      'node',
      CLI,
      'serve',
      'everything',
    ]);
    expect(run).toMatchObject({ code: 0, stdout: 'served\n' });
  });

  it('serves over HTTP, answers inspect and call at the printed URL, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', 'everything', '--port', '0'], { cwd: ROOT });
    const url = await new Promise<string>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        const found = /http:\/\/\S+\/mcp/.exec(chunk.toString());
        if (found) resolve(found[0]);
      }),
    );
    expect((await cli(['inspect', url])).stdout).toMatch(/Era:\s+modern/);
    expect((await cli(['inspect', url, '--era', 'legacy'])).stdout).toMatch(/Era:\s+legacy/);
    expect((await cli(['call', 'echo', url, '--args', '{"text":"web"}'])).stdout).toBe('web\n');
    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(0);
  });
});
