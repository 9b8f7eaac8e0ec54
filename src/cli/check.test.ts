import { fileURLToPath } from 'node:url';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli.js';
import { parseCommandLine } from './args.js';

const BAD_NAME = fileURLToPath(new URL('../../test/check/broken/bad-tool-name.mjs', import.meta.url));
const SLOW = { timeout: 120_000 };

describe('mcpkit check: the command line', () => {
  it('takes the server as the other client commands do, with --call, --strict and --fail-on', () => {
    expect(
      parseCommandLine([
        'check',
        '--strict',
        '--call',
        'echo={"text":"hi"}',
        '--call',
        'ping',
        '--',
        'node',
        's.js',
      ]),
    ).toMatchObject({
      name: 'check',
      target: { kind: 'stdio', command: 'node', args: ['s.js'] },
      calls: [
        { tool: 'echo', args: { text: 'hi' } },
        { tool: 'ping', args: {} },
      ],
      failOn: 'warning',
      era: 'auto',
    });
    expect(
      parseCommandLine(['check', 'http://127.0.0.1:1/mcp', '--era', 'modern', '--fail-on', 'info']),
    ).toMatchObject({
      target: { kind: 'http', url: 'http://127.0.0.1:1/mcp' },
      era: 'modern',
      failOn: 'info',
    });
  });

  it('refuses a bad --fail-on, --call arguments that are no JSON object, and --strict with --fail-on', () => {
    expect(() => parseCommandLine(['check', '--fail-on', 'fatal'])).toThrow(/error, warning or info/);
    expect(() => parseCommandLine(['check', '--call', 'echo=[1]'])).toThrow(/JSON object/);
    expect(() => parseCommandLine(['check', '--call', 'echo={'])).toThrow(/not valid JSON/);
    expect(() => parseCommandLine(['check', '--strict', '--fail-on', 'info'])).toThrow(/not both/);
  });

  it('has a help page naming its flags', async () => {
    const run = await runCli(['check', '--help']);
    expect(run.code).toBe(0);
    for (const flag of ['--call', '--strict', '--fail-on', '--json', '--era'])
      expect(run.stdout).toContain(flag);
  });
});

describe('mcpkit check: output and exit codes', () => {
  it(
    'prints findings grouped by severity with rule, section and offending message; exits 0 below --fail-on, 1 with --strict',
    SLOW,
    async () => {
      const plain = await runCli(['check', '--era', 'legacy', '--', process.execPath, BAD_NAME]);
      expect(plain.code).toBe(0);
      expect(plain.stdout).toContain('Warnings (1)');
      expect(plain.stdout).toContain(
        '▲ tools.name [legacy] tool name "get weather!" breaks the naming rules',
      );
      expect(plain.stdout).toContain('2025-11-25 server/tools "Tool Names": Tool names SHOULD');
      expect(plain.stdout).toContain('offending: {"name":"get weather!"');
      expect(plain.stdout).not.toContain('\x1b['); // no colour when stdout is not a terminal
      const strict = await runCli(['check', '--era', 'legacy', '--strict', '--', process.execPath, BAD_NAME]);
      expect(strict.code).toBe(1);
    },
  );
});

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('mcpkit check: a --call of a tool the server does not list', () => {
  it('exits 2 naming the tool and what the server lists, instead of checking nothing', SLOW, async () => {
    const run = await runCli([
      'check',
      '--era',
      'legacy',
      '--call',
      'no_such_tool',
      '--',
      process.execPath,
      BAD_NAME,
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      '--call no_such_tool: the server lists no tool of that name on the legacy era (it lists echo, get weather!)',
    );
  });
});

describe('mcpkit check: a server that cannot be reached is no finding', () => {
  it('exits 3 naming a command that cannot start, and reports no spec violation', SLOW, async () => {
    const run = await runCli(['check', '--', '/nonexistent/mcp-server']);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('could not reach /nonexistent/mcp-server');
    expect(run.stderr).toContain('ENOENT');
    expect(run.stderr).not.toContain('handshake');
  });

  it('exits 3 naming a URL nothing listens on, with the cause', SLOW, async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const run = await runCli(['check', url]);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`could not reach ${url}`);
    expect(run.stderr).toContain('ECONNREFUSED');
  });
});
