/**
 * A FastMCP server asks for input only with server-initiated requests (legacy sessions):
 * on a modern connection its eliciting tool fails, and mcpkit says to pin the legacy era
 * — once per tool, through the client's `onWarning` and the host's `warning`
 * event. Pinned to legacy, the same tool is answered through the client's handlers.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type Client, type EraPreference } from '../../src/client/index.js';
import { createHost, type Host } from '../../src/host/index.js';
import { spawnStdio } from '../../src/integrations/stdio/index.js';
import { ROOT } from '../support/cli.js';
import { pythonEnv } from '../support/py-venv.js';

const GREETER = join(ROOT, 'test', 'support', 'fixtures', 'greeter_fastmcp.py');

async function python(): Promise<string> {
  const env = await pythonEnv();
  if ('missing' in env) throw new Error(env.missing);
  return env.python;
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function client(era: EraPreference, warnings: string[]): Promise<Client> {
  const c = createClient({
    name: 'legacy-only',
    version: '0.0.0',
    era,
    onWarning: (m) => warnings.push(m),
    handlers: { elicitation: async () => ({ action: 'accept', content: { value: 'Ada' } }) },
  });
  open.push(c);
  await c.connect(spawnStdio({ command: await python(), args: [GREETER] }));
  return c;
}

const textOf = (result: { content?: unknown }) =>
  ((result.content as { text?: string }[] | undefined) ?? []).map((c) => c.text).join('');

describe('a FastMCP server whose tool elicits', () => {
  it('on a modern connection: the call fails and onWarning says to pin legacy, once per tool', async () => {
    const warnings: string[] = [];
    const c = await client('modern', warnings);
    const first = await c.callTool('greet', { caller: 'A' });
    expect(first.isError).toBe(true);
    await c.callTool('greet', { caller: 'B' });
    await c.callTool('chatty', { caller: 'C' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("tool 'greet'");
    expect(warnings[0]).toContain("era 'legacy'");
  }, 60_000);

  it('pinned to legacy: the question reaches the handler, no warning', async () => {
    const warnings: string[] = [];
    const c = await client('legacy', warnings);
    const result = await c.callTool('greet', { caller: 'A' });
    expect(textOf(result)).toBe('Hello, Ada!');
    expect(warnings).toEqual([]);
  }, 60_000);

  it('through a host, the warning names the backend and its config key', async () => {
    const py = await python();
    const host: Host = createHost({
      servers: { greeter: { command: py, args: [GREETER], era: 'modern' } },
    });
    open.push(host);
    const warnings: { server: string; message: string }[] = [];
    host.on('warning', (w) => warnings.push(w));
    await host.start();
    const result = await host.callTool('greeter__greet', { caller: 'A' });
    expect(result.isError).toBe(true);
    expect(warnings).toEqual([
      {
        server: 'greeter',
        message: expect.stringContaining('"era": "legacy" in the server\'s mcpServers entry'),
      },
    ]);
  }, 60_000);
});
