/**
 * Many front clients of different identities at once through `mcpkit gateway` and
 * `mcpkit proxy`, against the official SDK v1 server and a Python FastMCP server over
 * stdio: each client must see only its own questions (elicitation/create), its own log
 * messages and its own results, on both front eras, with 2 and with 10 clients.
 * Regression: a legacy backend's questions went to the oldest front call, and any
 * backend's logs to the oldest front request on that server.
 * Source: 2026-07-28 server/utilities/logging (request-scoped), basic/transports/streamable-http
 * (notifications before a response relate to the originating request).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, streamableHttp } from '../../src/client/index.js';
import type { Era } from '../../src/core/index.js';
import { CLI, ROOT } from '../support/cli.js';
import { pythonEnv } from '../support/py-venv.js';

const FIXTURES = join(ROOT, 'test', 'support', 'fixtures');

/** Where the host finds a backend: a command to spawn (stdio) or a URL (Streamable HTTP). */
type Launched = { command: string; args: string[] } | { url: string; stop(): Promise<void> };

/** A backend server: how to start it, the era the host speaks to it, whether it can elicit. */
interface Backend {
  name: string;
  command: () => Promise<Launched>;
  era?: 'legacy' | 'modern';
  elicits: boolean;
  /** Whether calls run one at a time (legacy stdio), so every log of a call reaches it. */
  serialized: boolean;
}

async function python(): Promise<string> {
  const env = await pythonEnv();
  if ('missing' in env) throw new Error(env.missing);
  return env.python;
}

const BACKENDS: Backend[] = [
  {
    name: 'official SDK v1 server (legacy, stdio)',
    command: async () => ({ command: process.execPath, args: [join(FIXTURES, 'greeter-v1.mjs')] }),
    elicits: true,
    serialized: true,
  },
  {
    name: 'official SDK v1 server (legacy, Streamable HTTP)',
    command: async () => {
      const child = spawn(process.execPath, [join(FIXTURES, 'greeter-v1.mjs'), '--http'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const url = await lineOf(child, /listening (\S+)/);
      return { url, stop: () => stopChild(child) };
    },
    elicits: true,
    serialized: true,
  },
  {
    name: 'FastMCP server pinned to legacy (stdio)',
    command: async () => ({ command: await python(), args: [join(FIXTURES, 'greeter_fastmcp.py')] }),
    era: 'legacy',
    elicits: true,
    serialized: true,
  },
  {
    name: 'FastMCP server, modern (stdio)',
    command: async () => ({ command: await python(), args: [join(FIXTURES, 'greeter_fastmcp.py')] }),
    era: 'modern',
    elicits: false,
    serialized: false,
  },
];

/** A running `mcpkit gateway` or `mcpkit proxy` serving Streamable HTTP. */
interface Front {
  url: string;
  prefix: string;
  stop(): Promise<void>;
}

async function startFront(kind: 'gateway' | 'proxy', backend: Backend, dir: string): Promise<Front> {
  const launched = await backend.command();
  const era = backend.era === undefined ? [] : ['--era', backend.era];
  let argv: string[];
  if (kind === 'proxy')
    argv =
      'url' in launched
        ? ['proxy', launched.url, '--port', '0', ...era]
        : ['proxy', '--port', '0', ...era, '--', launched.command, ...launched.args];
  else {
    const config = join(dir, 'mcp.json');
    const where =
      'url' in launched ? { url: launched.url } : { command: launched.command, args: launched.args };
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { s: { ...where, ...(backend.era ? { era: backend.era } : {}) } } }),
    );
    argv = ['gateway', '--config', config, '--port', '0'];
  }
  const child = spawn(process.execPath, [CLI, ...argv], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await lineOf(child, /serving \d+ server\(s\) at (\S+)/, 'stderr');
  return {
    url,
    prefix: kind === 'gateway' ? 's__' : '',
    stop: async () => {
      await stopChild(child);
      if ('url' in launched) await launched.stop();
    },
  };
}

/** The first match of `pattern` in what `child` writes to `stream`. */
function lineOf(
  child: ChildProcess,
  pattern: RegExp,
  stream: 'stdout' | 'stderr' = 'stdout',
): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child[stream]?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = pattern.exec(text);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) =>
      reject(new Error(`${child.spawnargs.join(' ')} exited (${code}):\n${text}`)),
    );
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** What one front client saw. */
interface Seen {
  questions: string[];
  logs: string[];
  result: string;
}

/** The `log cN k` marks a client's log messages carry, whatever the server's data shape. */
function markOf(data: unknown): string {
  return /log c\d+ \d/.exec(JSON.stringify(data))?.[0] ?? `unmarked ${JSON.stringify(data)}`;
}

/** Client `i` calls `tool` with caller `c<i>` and answers every question with `user<i>`. */
async function oneClient(front: Front, options: { i: number; era: Era; tool: string }): Promise<Seen> {
  const { i, era, tool } = options;
  const seen: Seen = { questions: [], logs: [], result: '' };
  const client = createClient({
    name: `client-${i}`,
    version: '1.0.0',
    era,
    logLevel: 'debug',
    onNotification: (n) => {
      if (n.method === 'notifications/message') seen.logs.push(markOf(n.params?.data));
    },
    handlers: {
      elicitation: async (params) => {
        seen.questions.push(String(params.message));
        const schema = (params as { requestedSchema?: { properties?: Record<string, unknown> } })
          .requestedSchema;
        const fields = Object.keys(schema?.properties ?? { name: {} });
        return { action: 'accept', content: Object.fromEntries(fields.map((f) => [f, `user${i}`])) };
      },
    },
  });
  await client.connect(streamableHttp(front.url, { headers: { Authorization: `Bearer token-${i}` } }));
  try {
    const result = await client.callTool(`${front.prefix}${tool}`, { caller: `c${i}` });
    seen.result = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  } finally {
    await client.close();
  }
  return seen;
}

function clients(front: Front, options: { n: number; era: Era; tool: string }): Promise<Seen[]> {
  return Promise.all(Array.from({ length: options.n }, (_, i) => oneClient(front, { ...options, i })));
}

describe.each(BACKENDS)('front clients of different identities: $name', (backend) => {
  describe.each(['gateway', 'proxy'] as const)('through mcpkit %s', (kind) => {
    let dir: string;
    let front: Front | undefined;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'mcpkit-cross-'));
      front = await startFront(kind, backend, dir);
    }, 20 * 60_000);

    afterAll(async () => {
      await front?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    describe.each(['modern', 'legacy'] as const)('front era %s', (era) => {
      it.skipIf(!backend.elicits).each([2, 10])(
        '%i clients asked at once each see only their own question, logs and result',
        async (n) => {
          const seen = await clients(front!, { n, era, tool: 'greet' });
          seen.forEach((s, i) => {
            expect(s.result).toBe(`Hello, user${i}!`);
            expect(s.questions).toEqual([`Who is asking? c${i}`]);
            expect(s.logs.sort()).toEqual([`log c${i} 1`, `log c${i} 2`]);
          });
        },
        120_000,
      );

      it.each([2, 10])(
        '%i clients logging at once each see only their own logs',
        async (n) => {
          const seen = await clients(front!, { n, era, tool: 'chatty' });
          seen.forEach((s, i) => {
            expect(s.result).toBe(`Bye, c${i}!`);
            const own = [1, 2, 3].map((k) => `log c${i} ${k}`);
            if (backend.serialized) expect(s.logs.sort()).toEqual(own);
            else for (const log of s.logs) expect(own).toContain(log);
          });
          // A call alone on its server gets every log message of its own.
          const [alone] = await clients(front!, { n: 1, era, tool: 'chatty' });
          expect(alone?.logs.sort()).toEqual(['log c0 1', 'log c0 2', 'log c0 3']);
        },
        120_000,
      );
    });
  });
});
