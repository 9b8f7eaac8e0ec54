import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../client/index.js';
import type { LocalError } from '../../core/errors.js';
import { spawnStdio, type SpawnStdioOptions, type StdioClientTransport } from './client-transport.js';
import { splitPrefixedMessage } from './stdout-noise.js';

const fixture = (name: string): string =>
  fileURLToPath(new URL(`../../../test/support/fixtures/${name}`, import.meta.url));
const SERVER = fixture('launched-server.mjs');
const LAUNCHER = fixture('signal-deaf-launcher.mjs');
const node = process.execPath;
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function connect(options: SpawnStdioOptions): Promise<[Client, StdioClientTransport]> {
  const transport = spawnStdio(options);
  const client = createClient({ name: 't', version: '1', timeoutMs: 20_000 });
  clients.push(client);
  await client.connect(transport);
  return [client, transport];
}

async function serverPid(client: Client): Promise<number> {
  const result = await client.callTool('pid', {});
  return Number((result.content[0] as { text: string }).text);
}

/** Gone, or a zombie nobody reaps (PID 1 of a container often does not): it runs no more. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('a stdio server that prints lines that are not JSON-RPC on stdout', () => {
  it('connects past npm warnings and a banner, skips later ones, and keeps them for tools', async () => {
    const seen: string[] = [];
    const [client, transport] = await connect({
      command: node,
      args: [SERVER, '--banner'],
      onNonProtocolLine: (line) => seen.push(line),
    });
    expect(seen[0]).toMatch(/^npm warn exec The following package was not found/);
    expect(transport.nonProtocolLines()).toContain('Weather MCP Server running on stdio');
    expect(await client.callTool('log', {})).toMatchObject({ content: [{ text: 'logged' }] });
    await vi.waitFor(() => expect(transport.nonProtocolLines().at(-1)).toBe('still here, not JSON'));
    expect(await client.callTool('log', {})).toMatchObject({ content: [{ text: 'logged' }] });
  });

  it('keeps a first reply written with no newline after other output, and skips the output', async () => {
    const seen: string[] = [];
    const transport = spawnStdio({
      command: node,
      args: [SERVER, '--prefix'],
      onNonProtocolLine: (l) => seen.push(l),
    });
    // A probe timeout far beyond the test's: the era is learnt from the prefixed reply, not a timeout.
    const client = createClient({ name: 't', version: '1', timeoutMs: 20_000, probeTimeoutMs: 600_000 });
    clients.push(client);
    await client.connect(transport);
    expect(client.era).toBe('legacy');
    expect(seen).toEqual(['Loading...']);
    expect(transport.nonProtocolLines()).toEqual(['Loading...']);
    expect(await client.callTool('log', {})).toMatchObject({ content: [{ text: 'logged' }] });
  });

  it('fails quickly, naming what it saw, when the server writes only junk', async () => {
    const started = Date.now();
    const error = (await connect({
      command: node,
      args: [SERVER, '--junk-only'],
      shutdownTimeoutMs: 500,
    }).catch((e: unknown) => e)) as LocalError;
    expect(error.code).toBe('CONNECTION_CLOSED');
    expect(error.message).toMatch(/wrote 101 lines .* not JSON-RPC .*"Weather MCP Server running on stdio"/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('close() of a server started through a launcher', () => {
  it.skipIf(process.platform === 'win32')(
    'ends the real server behind `sh -c` (a shell that does not forward signals)',
    async () => {
      const command = `"${node}" "${SERVER}" --linger; :`;
      const [client, transport] = await connect({
        command: 'sh',
        args: ['-c', command],
        shutdownTimeoutMs: 300,
      });
      const pid = await serverPid(client);
      expect(pid).not.toBe(transport.pid);
      await client.close();
      expect(isRunning(pid)).toBe(false);
    },
  );

  it.skipIf(process.platform === 'win32')(
    'ends the real server behind a launcher that ignores SIGTERM',
    async () => {
      const [client, transport] = await connect({
        command: node,
        args: [LAUNCHER, node, SERVER, '--linger'],
        shutdownTimeoutMs: 300,
      });
      const pid = await serverPid(client);
      expect(pid).not.toBe(transport.pid);
      await client.close();
      expect(isRunning(pid)).toBe(false);
      expect(isRunning(transport.pid ?? -1)).toBe(false);
    },
  );
});

describe('splitPrefixedMessage', () => {
  const message = '{"jsonrpc":"2.0","id":1,"result":{"a":{"b":1}}}';
  it.each([
    [`Loading...${message}`, { prefix: 'Loading...', message }],
    [`Loading {config} {"x":1} ...${message}  `, { prefix: 'Loading {config} {"x":1} ...', message }],
    ['Weather MCP Server running on stdio', undefined],
    [`${message}`, undefined],
    ['log {"jsonrpc": "1.0"}', undefined],
    [`${'{"'.repeat(50)}${message}`, undefined],
  ])('splits %j into %j', (line, expected) => {
    expect(splitPrefixedMessage(line)).toEqual(expected);
  });
});
