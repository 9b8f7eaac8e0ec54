/**
 * `mcpkit dev` end to end, with the built CLI: a server file in a project of its own (its
 * `mcpkit` dependency is this package), served over real HTTP on port 0, edited while a
 * legacy session and a modern listen stay connected. Prints how long an edit takes to reach
 * a connected client (write → list_changed → the new tools/list).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, streamableHttp, type Client } from '../../client/index.js';
import { until } from '../../../test/support/client-harness.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');

const SERVER = `import { createServer } from 'mcpkit/server';
import { register } from './tools.ts';

export default async function build() {
  const server = createServer({ name: 'dev-demo', version: '1.0.0' });
  register(server);
  return server;
}
`;

const tools = (body: string) => `import type { McpServer } from 'mcpkit/server';

export function register(server: McpServer): void {
${body}
}
`;

let dir: string;
let child: ChildProcess;
let stderr = '';
const clients: Client[] = [];
const closing: (() => void)[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-dev-'));
  await mkdir(join(dir, 'node_modules'));
  await symlink(ROOT, join(dir, 'node_modules', 'mcpkit'), 'dir');
  await writeFile(join(dir, 'server.ts'), SERVER);
  await writeFile(
    join(dir, 'tools.ts'),
    tools(`  server.tool('first', { description: 'v1' }, () => 'first v1');`),
  );
});

afterAll(async () => {
  for (const close of closing) close();
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  if (child?.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await rm(dir, { recursive: true, force: true });
});

async function connected(url: string, era: 'legacy' | 'modern', heard: string[]): Promise<Client> {
  const client = createClient({
    name: 't',
    version: '1',
    era,
    onNotification: (n) => void heard.push(n.method),
  });
  await client.connect(streamableHttp(url));
  clients.push(client);
  return client;
}

describe('mcpkit dev FILE', () => {
  it('serves the file, reloads on an edit of a module it imports, and keeps the last good definition on a syntax error', async () => {
    child = spawn(process.execPath, [CLI, 'dev', 'server.ts'], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await until(() => /serving dev-demo at (http:\S+)/.test(stderr) || child.exitCode !== null, 60_000);
    const url = /serving dev-demo at (http:\S+)/.exec(stderr)?.[1];
    expect(url, stderr).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

    const legacyHeard: string[] = [];
    const legacy = await connected(url!, 'legacy', legacyHeard);
    const modern = await connected(url!, 'modern', []);
    const listen = modern.listen({ toolsListChanged: true });
    const modernHeard: string[] = [];
    void (async () => {
      for await (const n of listen) modernHeard.push(n.method);
    })().catch(() => {}); // ends with the client, at the end of the test
    closing.push(() => listen.close());
    await listen.acknowledged;
    expect((await legacy.listTools()).map((t) => t.name)).toEqual(['first']);

    const edited = performance.now();
    await writeFile(
      join(dir, 'tools.ts'),
      tools(`  server.tool('first', { description: 'v2' }, () => 'first v2');
  server.tool('second', {}, () => 'second v2');`),
    );
    await until(() => legacyHeard.length === 1 && modernHeard.length === 1, 20_000);
    const names = (await modern.listTools()).map((t) => t.name);
    const visibleMs = performance.now() - edited;
    console.log(
      `mcpkit dev: edit → list_changed and the new tools/list seen by a connected client in ${visibleMs.toFixed(0)} ms`,
    );
    expect(names).toEqual(['first', 'second']);
    expect(legacyHeard).toEqual(['notifications/tools/list_changed']);
    expect(modernHeard).toEqual(['notifications/tools/list_changed']);
    expect((await legacy.callTool('first', {})).content).toEqual([{ type: 'text', text: 'first v2' }]);
    expect(stderr).toMatch(/reloaded in \d+ ms: tools \+second ~first/);

    await writeFile(join(dir, 'tools.ts'), tools(`  server.tool('first', {}, () => 'broken' +);`));
    await until(() => /still serving the last good definition/.test(stderr), 20_000);
    expect(stderr).toMatch(/tools\.ts:4:\d+: error: /);
    expect((await legacy.callTool('second', {})).content).toEqual([{ type: 'text', text: 'second v2' }]);
    expect((await modern.listTools()).map((t) => t.name)).toEqual(['first', 'second']);

    await writeFile(join(dir, 'tools.ts'), tools(`  server.tool('first', {}, () => 'fixed');`));
    await until(() => legacyHeard.length === 2 && modernHeard.length === 2, 20_000);
    expect((await legacy.listTools()).map((t) => t.name)).toEqual(['first']);
    expect((await modern.callTool('first', {})).content).toEqual([{ type: 'text', text: 'fixed' }]);
  }, 120_000);
});
