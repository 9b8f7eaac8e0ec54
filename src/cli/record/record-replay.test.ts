import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, streamableHttp, type Client } from '../../client/index.js';
import type { Era, Transport } from '../../core/index.js';
import { spawnStdio } from '../../integrations/stdio/index.js';
import { CLI, ROOT } from '../../../test/support/cli.js';
import { parseRecording } from './format.js';

const FORECAST = join(ROOT, 'dist', 'test', 'support', 'forecast-server.js');
const TOKEN = 'tok_live_9f8e7d6c5b4a39281706';
const API_KEY = 'sk-live-abcdefghijklmnopqrstuv';
let dir: string;
const started: ChildProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-replay-'));
});
afterAll(async () => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** A client whose elicitation answers come from a list, in order. */
function clientFor(era: Era): Client {
  const answers = [{ name: 'Ada' }, { color: 'green' }];
  let next = 0;
  return createClient({
    name: 'replay-test',
    version: '1',
    era,
    handlers: { elicitation: () => Promise.resolve({ action: 'accept', content: answers[next++ % 2]! }) },
  });
}

/** The calls whose results must come back the same from the replay. */
async function session(client: Client, transport: Transport): Promise<unknown[]> {
  await client.connect(transport);
  try {
    const forecast = await client.callTool('forecast', { city: 'Paris', apiKey: API_KEY });
    const rounds = await client.callTool('test_input_required_result_multi_round', {});
    const echo = await client.callTool('echo', { text: 'hi' });
    return [forecast, rounds, echo];
  } finally {
    await client.close();
  }
}

/** Spawns node with `args` and resolves with the first loopback URL it prints. */
function serving(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  return new Promise((resolve, reject) => {
    let text = '';
    const look = (chunk: Buffer): void => {
      text += chunk.toString();
      const url = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(text)?.[1];
      if (url) resolve({ child, url });
    };
    child.stderr!.on('data', look);
    child.stdout!.on('data', look);
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return done;
}

describe.each(['modern', 'legacy'] as const)('record and replay on stdio, %s', (era) => {
  it('replays the same results, an MRTR or elicitation round included, and names the nearest request for an unknown one', async () => {
    const file = join(dir, `stdio-${era}.jsonl`);
    const cli = (...args: string[]) => spawnStdio({ command: process.execPath, args: [CLI, ...args] });
    const recorded = await session(
      clientFor(era),
      cli('record', '--out', file, '--', process.execPath, FORECAST, 'v1'),
    );
    const { header, messages } = parseRecording(await readFile(file, 'utf8'));
    expect(header).toMatchObject({ mcpkitRecording: 1, transport: 'stdio' });
    const text = JSON.stringify(messages);
    expect(text).not.toContain(API_KEY);
    expect(text).toContain(
      era === 'modern' ? '"resultType":"input_required"' : '"method":"elicitation/create"',
    );

    const replayed = await session(clientFor(era), cli('replay', file));
    expect(replayed).toEqual(recorded);

    const client = clientFor(era);
    await client.connect(cli('replay', file));
    const unknown = client.callTool('forecast', { city: 'Rome' });
    await expect(unknown).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/nearest recorded: tools\/call .*Paris/),
    });
    await client.close();
  }, 60_000);
});

describe('record and replay on HTTP', () => {
  it('records through the proxy with Authorization and secrets redacted, and replays on both eras', async () => {
    const upstream = await serving([FORECAST, 'v1', '--http']);
    const http = (url: string) => streamableHttp(url, { headers: { Authorization: `Bearer ${TOKEN}` } });
    const results = new Map<Era, unknown[]>();
    const files = new Map<Era, string>();
    for (const era of ['modern', 'legacy'] as const) {
      const file = join(dir, `http-${era}.jsonl`);
      const proxy = await serving([CLI, 'record', '--out', file, upstream.url]);
      results.set(era, await session(clientFor(era), http(proxy.url)));
      await stopped(proxy.child);
      files.set(era, file);
    }
    await stopped(upstream.child);
    for (const [era, file] of files) {
      const text = await readFile(file, 'utf8');
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(API_KEY);
      const { header, messages } = parseRecording(text);
      expect(header).toMatchObject({ transport: 'http', server: upstream.url });
      const sent = messages.find((m) => m.from === 'client' && m.http);
      expect(sent?.http?.headers.authorization).toBe('[redacted]');

      const replay = await serving([CLI, 'replay', file, '--port', '0']);
      expect(await session(clientFor(era), http(replay.url))).toEqual(results.get(era));
      await stopped(replay.child);
    }
  }, 90_000);
});

describe('record and replay usage', () => {
  it('prints --help, and refuses record without --out and replay of a file that is not a recording', async () => {
    const { runCli } = await import('../../../test/support/cli.js');
    const [record, replay, noOut, junk] = await Promise.all([
      runCli(['record', '--help']),
      runCli(['replay', '--help']),
      runCli(['record', '--', 'node', 'server.js']),
      runCli(['replay', CLI]),
    ]);
    expect([record.code, record.stdout]).toEqual([
      0,
      expect.stringContaining('Usage: mcpkit record --out FILE'),
    ]);
    expect([replay.code, replay.stdout]).toEqual([0, expect.stringContaining('Usage: mcpkit replay FILE')]);
    expect([noOut.code, noOut.stderr]).toEqual([2, 'mcpkit: `record` needs --out FILE\n']);
    expect([junk.code, junk.stderr]).toEqual([2, expect.stringContaining('is not JSON')]);
  });
});
