import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalError } from '../../core/errors.js';
import { Peer } from '../../core/runtime.js';
import type { TransportSink } from '../../core/transport.js';
import { spawnStdio, type SpawnStdioOptions, type StdioClientTransport } from './client-transport.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const open: StdioClientTransport[] = [];

function launch(name: string, options: Partial<SpawnStdioOptions> = {}): StdioClientTransport {
  const transport = spawnStdio({ command: process.execPath, args: [fixture(name)], ...options });
  open.push(transport);
  return transport;
}

async function connect(
  name: string,
  options: Partial<SpawnStdioOptions> = {},
): Promise<[Peer, StdioClientTransport]> {
  const transport = launch(name, options);
  const peer = new Peer(transport, { request: async () => ({}) }, { timeoutMs: 20_000 });
  await peer.start();
  return [peer, transport];
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

describe('spawnStdio', () => {
  it('round-trips requests with a child that echoes them', async () => {
    const [peer] = await connect('echo.mjs');
    await expect(peer.request('tools/call', { n: 1 })).resolves.toEqual({ echo: { n: 1 } });
    await expect(peer.request('tools/call', { s: 'héllo 😀' })).resolves.toEqual({ echo: { s: 'héllo 😀' } });
  });

  it('round-trips a 4 MiB message', async () => {
    const [peer] = await connect('echo.mjs');
    const big = 'é'.repeat(2 * 1024 * 1024);
    const result = (await peer.request('tools/call', { big })) as { echo: { big: string } };
    expect(result.echo.big).toBe(big);
  });

  it('does not deadlock when the child writes 5 MiB of stderr before answering', async () => {
    const [peer, transport] = await connect('noisy.mjs');
    await expect(peer.request('ping', undefined)).resolves.toEqual({});
    // stderr is a separate pipe, so its last bytes may arrive just after the answer.
    await vi.waitFor(() => expect(transport.stderrText().endsWith('last words\n')).toBe(true));
    expect(new TextEncoder().encode(transport.stderrText()).length).toBeLessThanOrEqual(64 * 1024);
  });

  it('fails a pending request with CONNECTION_CLOSED naming the exit code and stderr when the child exits', async () => {
    const [peer] = await connect('echo.mjs');
    const error = await peer.request('exit', { code: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect((error as LocalError).code).toBe('CONNECTION_CLOSED');
    expect((error as LocalError).message).toMatch(/exited with code 3/);
    expect((error as LocalError).message).toMatch(/fatal: asked to exit with 3/);
  });

  it('rejects start with SPAWN_FAILED naming a command that does not exist', async () => {
    const transport = spawnStdio({ command: 'mcpkit-no-such-command-xyz' });
    const sink: TransportSink = { frame: () => {}, closed: () => {} };
    const error = await Promise.resolve(transport.start(sink)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect((error as LocalError).code).toBe('SPAWN_FAILED');
    expect((error as LocalError).message).toContain('mcpkit-no-such-command-xyz');
    await expect(transport.close()).resolves.toBeUndefined();
  });

  it('lets a child exit by itself when close() ends its stdin, and closes the sink without error', async () => {
    const transport = launch('echo.mjs');
    const closes: (Error | undefined)[] = [];
    await transport.start({ frame: () => {}, closed: (e) => closes.push(e) });
    const pid = transport.pid ?? -1;
    const started = Date.now();
    await transport.close();
    expect(Date.now() - started).toBeLessThan(1500);
    expect(isAlive(pid)).toBe(false);
    expect(closes).toEqual([undefined]);
  });

  it('kills a child that ignores stdin closing and SIGTERM with SIGKILL', async () => {
    const transport = launch('stubborn.mjs', { shutdownTimeoutMs: 200 });
    const ready = new Promise<void>((resolve) => {
      void transport.start({ frame: () => resolve(), closed: () => {} });
    });
    await ready;
    const pid = transport.pid ?? -1;
    expect(isAlive(pid)).toBe(true);
    const started = Date.now();
    await transport.close();
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(isAlive(pid)).toBe(false);
  });

  it('passes only the safe environment subset plus the given variables', async () => {
    process.env.MCPKIT_TEST_SECRET = 'hunter2';
    try {
      const script =
        'process.stdout.write(JSON.stringify({jsonrpc:"2.0",method:"env",params:process.env})+"\\n")';
      const transport = spawnStdio({
        command: process.execPath,
        args: ['-e', script],
        env: { EXTRA: 'yes' },
      });
      open.push(transport);
      const frame = await new Promise<string>((resolve) => {
        void transport.start({ frame: resolve, closed: () => {} });
      });
      const env = (JSON.parse(frame) as { params: Record<string, string> }).params;
      expect(env.EXTRA).toBe('yes');
      expect(env.PATH).toBe(process.env.PATH);
      expect(env.MCPKIT_TEST_SECRET).toBeUndefined();
    } finally {
      delete process.env.MCPKIT_TEST_SECRET;
    }
  });

  it('talks to a server built on stdioServerTransport, which exits when its stdin ends', async () => {
    const [peer, transport] = await connect('peer-server.mjs', { shutdownTimeoutMs: 5000 });
    await expect(peer.request('tools/list', undefined)).resolves.toEqual({ method: 'tools/list' });
    const started = Date.now();
    await transport.close();
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
