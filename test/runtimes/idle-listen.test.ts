/**
 * A quiet `subscriptions/listen` stream stays open for 30 s on Bun (`Bun.serve`, which closes
 * a connection idle for 10 s) and on Deno (`Deno.serve`): mcpkit's SSE keep-alive comes more
 * often than either runtime's idle timeout. One 30-s test per runtime, run at once. The
 * runtimes come from scripts/runtimes.mjs (installed from npm on first use).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const IDLE_MS = 30_000;

type Commands = Record<'bun' | 'deno', string[]>;
const { runtimes } = (await import(resolve(root, 'scripts/runtimes.mjs'))) as { runtimes(): Commands };
const commands = runtimes();

const servers: Record<keyof Commands, (port: number) => string[]> = {
  bun: (port) => [...commands.bun, 'dist/examples/bun-server.js', '--port', String(port)],
  deno: (port) => [
    ...commands.deno,
    'run',
    '--allow-net=127.0.0.1',
    '--allow-read',
    '--allow-env',
    'dist/examples/deno-server.js',
    '--port',
    String(port),
  ],
};

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) child.kill('SIGKILL');
});

/** Starts the runtime's everything server on a free port; resolves with the URL it serves at. */
function start(runtime: keyof Commands): Promise<string> {
  const [command, ...args] = servers[runtime](0);
  const child = spawn(command!, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  started.push(child);
  return new Promise((ready, fail) => {
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const url = /serving everything at (http:\S+)/.exec(log)?.[1];
      if (url) ready(url);
    });
    child.once('exit', (code) => fail(new Error(`${runtime} exited (${code}): ${log}`)));
  });
}

const MODERN = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Opens a listen for tool list changes; resolves with how long the stream stayed open (capped). */
async function quietFor(url: string, capMs: number): Promise<{ openMs: number; events: string }> {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    signal: abort.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'subscriptions/listen',
      params: { _meta: MODERN, notifications: { toolsListChanged: true } },
    }),
  });
  expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = response.body!.getReader();
  const opened = Date.now();
  let events = '';
  // Reads until the stream ends or capMs passed: each read returns at the next keep-alive.
  while (Date.now() - opened < capMs) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done) break;
    events += new TextDecoder().decode(value);
  }
  const openMs = Date.now() - opened;
  abort.abort();
  return { openMs, events };
}

describe.concurrent('an idle listen stream on each runtime', () => {
  it.each(['bun', 'deno'] as const)(
    'stays open 30 s on %s with nothing to send',
    async (runtime) => {
      const url = await start(runtime);
      const { openMs, events } = await quietFor(url, IDLE_MS);
      expect(openMs).toBeGreaterThanOrEqual(IDLE_MS);
      expect(events).toContain(':\n\n');
    },
    IDLE_MS + 30_000,
  );
});
