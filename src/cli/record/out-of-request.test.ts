/**
 * Notifications outside a request/response pair, recorded from the everything server and
 * replayed: a modern `subscriptions/listen` stream and legacy list_changed notifications
 * (stdio, and the GET stream on HTTP). The client must see the same notifications from the
 * replay as from the server; the official SDK's client too, on the legacy recordings.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport as OfficialTransport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, streamableHttp } from '../../client/index.js';
import type { Era, Transport } from '../../core/index.js';
import { spawnStdio } from '../../integrations/stdio/index.js';
import { CLI, ROOT } from '../../../test/support/cli.js';
import { until } from '../../../test/support/wait.js';

let dir: string;
const started: ChildProcess[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-replay-notes-'));
});
afterAll(async () => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

const CHANGES = ['notifications/tools/list_changed', 'notifications/prompts/list_changed'];

/** Listens for list changes, triggers two, and returns what the listen stream and the client saw. */
async function session(era: Era, transport: Transport): Promise<{ streamed: string[]; seen: string[] }> {
  const seen: string[] = [];
  const client = createClient({
    name: 'notes',
    version: '1',
    era,
    onNotification: (n) => void seen.push(n.method),
  });
  await client.connect(transport);
  try {
    const subscription = client.listen({ toolsListChanged: true, promptsListChanged: true });
    await subscription.acknowledged;
    const streamed: string[] = [];
    const reading = (async () => {
      for await (const n of subscription) if (streamed.push(n.method) === 2) break;
    })();
    await client.callTool('test_trigger_tool_change', {});
    await client.callTool('test_trigger_prompt_change', {});
    await reading;
    subscription.close();
    await until(() => CHANGES.every((m) => seen.includes(m)));
    return { streamed, seen: seen.filter((m) => CHANGES.includes(m)) };
  } finally {
    await client.close();
  }
}

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
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return done;
}

describe.each(['modern', 'legacy'] as const)('notifications outside a request, %s', (era) => {
  it('on stdio: the replay sends the listen stream and the list changes the server sent', async () => {
    const file = join(dir, `stdio-${era}.jsonl`);
    const cli = (...args: string[]) => spawnStdio({ command: process.execPath, args: [CLI, ...args] });
    const recorded = await session(era, cli('record', '--out', file));
    expect(recorded.streamed).toEqual(CHANGES);
    expect(await session(era, cli('replay', file))).toEqual(recorded);
  }, 60_000);

  it('on HTTP: the replay sends them on the listen stream (modern) or the GET stream (legacy)', async () => {
    const upstream = await serving([CLI, 'serve', 'everything', '--port', '0']);
    const file = join(dir, `http-${era}.jsonl`);
    const proxy = await serving([CLI, 'record', '--out', file, upstream.url]);
    const recorded = await session(era, streamableHttp(proxy.url));
    await stopped(proxy.child);
    await stopped(upstream.child);
    expect(recorded.streamed).toEqual(CHANGES);
    const replay = await serving([CLI, 'replay', file, '--port', '0']);
    expect(await session(era, streamableHttp(replay.url))).toEqual(recorded);
    await stopped(replay.child);
  }, 60_000);
});

/** The official SDK's legacy client on `transport`: calls both triggers, returns the list changes seen. */
async function officialSession(transport: OfficialTransport): Promise<string[]> {
  const seen: string[] = [];
  const client = new OfficialClient({ name: 'official', version: '1' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => void seen.push(n.method));
  client.setNotificationHandler(PromptListChangedNotificationSchema, (n) => void seen.push(n.method));
  await client.connect(transport);
  try {
    await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
    await client.callTool({ name: 'test_trigger_prompt_change', arguments: {} });
    await until(() => seen.length >= 2);
    return seen;
  } finally {
    await client.close();
  }
}

// Replays the legacy recordings the tests above wrote (run the file as a whole).
describe('the official SDK client on a legacy replay', () => {
  it('sees the list changes in order on stdio and on HTTP', async () => {
    const stdio = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'replay', join(dir, 'stdio-legacy.jsonl')],
    });
    expect(await officialSession(stdio)).toEqual(CHANGES);
    const replay = await serving([CLI, 'replay', join(dir, 'http-legacy.jsonl'), '--port', '0']);
    expect(await officialSession(new StreamableHTTPClientTransport(new URL(replay.url)))).toEqual(CHANGES);
    await stopped(replay.child);
  }, 60_000);
});
