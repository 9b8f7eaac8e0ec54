import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../client/index.js';
import { spawnStdio } from '../integrations/stdio/index.js';
import { connect, type McpServer } from '../server/index.js';
import { createLinkedPair } from '../testing/index.js';
import { createEverythingServer } from '../../servers/everything/server.js';
import { ROOT, runCli } from '../../test/support/cli.js';
import { forecastServer } from '../../test/support/forecast-server.js';
import { generateTools } from './codegen.js';

const FILESYSTEM = join(
  ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-filesystem',
  'dist',
  'index.js',
);
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
let dir: string;

/** The tools of a connected client's server, generated twice; the two texts must agree. */
async function generateFor(client: Client, file: string): Promise<string> {
  const tools = await client.listTools();
  const info = client.serverInfo;
  const source = info ? `${info.name} ${info.version}` : 'an MCP server';
  const [a, b] = await Promise.all([
    generateTools(tools, source),
    generateTools([...tools].reverse(), source),
  ]);
  expect(b).toBe(a);
  await writeFile(join(dir, file), a);
  return a;
}

async function inProcess<T>(server: McpServer, use: (client: Client) => Promise<T>): Promise<T> {
  const [clientEnd, serverEnd] = createLinkedPair();
  const connection = await connect(server, serverEnd);
  const client = createClient({ name: 'typed', version: '1' });
  await client.connect(clientEnd);
  try {
    return await use(client);
  } finally {
    await client.close();
    await connection.close();
  }
}

async function overStdio<T>(args: string[], use: (client: Client) => Promise<T>): Promise<T> {
  const client = createClient({ name: 'typed', version: '1' });
  await client.connect(spawnStdio({ command: process.execPath, args }));
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

const USE = `import { createClient } from 'mcpkit/client';
import { createTools, type ForecastResult } from './forecast.js';
import type { ReadTextFileArguments } from './filesystem.js';

const tools = createTools(createClient({ name: 'typed', version: '1' }));
export async function use(): Promise<number> {
  const result: ForecastResult = await tools.forecast({ city: 'Paris', units: 'metric' });
  // @ts-expect-error city is required
  await tools.forecast({ units: 'metric' });
  // @ts-expect-error not one of the enum's values
  await tools.forecast({ city: 'Paris', units: 'kelvins' });
  const read: ReadTextFileArguments = { path: '/tmp/x', head: 3 };
  return result.temperature + (read.head ?? 0);
}
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-codegen-'));
  await mkdir(join(dir, 'node_modules'));
  await symlink(ROOT, join(dir, 'node_modules', 'mcpkit'), 'dir');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('mcpkit codegen', () => {
  it('writes the same module for the same server (the CLI and in process, any tool order), and it passes tsc --strict', async () => {
    const [everything, filesystem, forecast, cli] = await Promise.all([
      inProcess(createEverythingServer(), (client) => generateFor(client, 'everything.ts')),
      overStdio([FILESYSTEM, dir], (client) => generateFor(client, 'filesystem.ts')),
      inProcess(forecastServer(1), (client) => generateFor(client, 'forecast.ts')),
      runCli(['codegen', '-o', join(dir, 'cli.ts')]),
    ]);
    expect([cli.code, cli.stderr]).toEqual([0, '']);
    expect(await readFile(join(dir, 'cli.ts'), 'utf8')).toBe(everything);
    expect(everything).toMatch(/export interface EchoArguments \{\n(.*\n)*? {2}text: string;/);
    expect(everything).toContain('export interface JsonSchema202012ToolAddress');
    expect(filesystem).toMatch(/export interface ReadTextFileResult \{/);
    expect(forecast).toMatch(
      /forecast\(args: ForecastArguments, options\?: ToolCallOptions\): Promise<ForecastResult>;/,
    );
    await writeFile(join(dir, 'use.ts'), USE);
    const config = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        types: [],
        skipLibCheck: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
      },
      files: ['everything.ts', 'filesystem.ts', 'forecast.ts', 'use.ts'],
    };
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(config));
    const tsc = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [TSC, '-p', dir], { cwd: dir });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.once('close', (code) => resolve({ code, out }));
    });
    expect(tsc).toEqual({ code: 0, out: '' });
  }, 120_000);

  it('gives a proxy whose method returns the structured result, and rejects a tool error with ToolError', async () => {
    const forecast = (await import(pathToFileURL(join(dir, 'forecast.ts')).href)) as {
      createTools(c: Client): Record<string, (args?: object) => Promise<unknown>>;
      ToolError: new (...args: never[]) => Error;
    };
    await inProcess(forecastServer(1), async (client) => {
      const tools = forecast.createTools(client);
      await expect(tools.forecast!({ city: 'Paris' })).resolves.toEqual({
        city: 'Paris',
        temperature: 21.5,
        humidity: 40,
      });
      await expect(tools.test_error_handling!()).rejects.toBeInstanceOf(forecast.ToolError);
    });
  });

  it('prints --help', async () => {
    const help = await runCli(['codegen', '--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('Usage: mcpkit codegen')]);
  });
});
