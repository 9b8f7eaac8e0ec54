/**
 * A scripted hostile server (test/support/evil-server.mjs, a real child process over stdio)
 * against mcpkit's client. Each case asserts a time bound under a watchdog (a blocked event
 * loop fails it), the specific error, and that a normal call on the same connection works.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type Client, type ClientOptions } from '../../src/client/index.js';
import type { JsonRpcNotification } from '../../src/core/jsonrpc.js';
import { until } from '../support/wait.js';
import { spawnStdio } from '../../src/integrations/stdio/index.js';
import { bounded } from '../support/watchdog.js';

const SCRIPT = fileURLToPath(new URL('../support/evil-server.mjs', import.meta.url));
const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function connectEvil(
  env: Record<string, string> = {},
  options: Partial<ClientOptions> = {},
): Promise<Client> {
  const era = env.EVIL_LEGACY ? 'legacy' : 'modern';
  const client = createClient({ name: 'victim', version: '1.0.0', era, ...options });
  open.push(client);
  await client.connect(spawnStdio({ command: process.execPath, args: [SCRIPT], env }));
  return client;
}

async function stillWorks(client: Client): Promise<void> {
  const result = await client.callTool('echo', { text: 'still here' });
  expect(result.content).toEqual([{ type: 'text', text: 'still here' }]);
}

describe('a hostile server cannot hang or exhaust the client', () => {
  it('ReDoS: an outputSchema pattern ^(a+)+$ against 34 × a + ! is rejected at once', async () => {
    const client = await connectEvil();
    await bounded({ withinMs: 5000 }, () =>
      expect(client.callTool('redos')).rejects.toMatchObject({
        code: 'INVALID_RESULT',
        message: expect.stringContaining("'/s' must match pattern"),
      }),
    );
    await stillWorks(client);
  });

  it('ReDoS on the legacy era too (initialize handshake, same outputSchema)', async () => {
    const client = await connectEvil({ EVIL_LEGACY: '1' });
    expect(client.era).toBe('legacy');
    await bounded({ withinMs: 5000 }, () =>
      expect(client.callTool('redos')).rejects.toMatchObject({ code: 'INVALID_RESULT' }),
    );
    await stillWorks(client);
  });

  it('a result nested 100 000 arrays deep fails that call with LIMIT_EXCEEDED, no stack overflow', async () => {
    const client = await connectEvil();
    await bounded({ withinMs: 5000 }, () =>
      expect(client.callTool('deep')).rejects.toMatchObject({
        code: 'LIMIT_EXCEEDED',
        message: expect.stringContaining('nested deeper than 256 levels'),
      }),
    );
    await stillWorks(client);
  });

  it('a 5 MiB outputSchema is refused before compiling, naming the limit', async () => {
    const client = await connectEvil();
    await bounded({ withinMs: 8000 }, () =>
      expect(client.callTool('huge-schema')).rejects.toMatchObject({
        code: 'INVALID_DEFINITION',
        message: expect.stringContaining('larger than 262144 bytes'),
      }),
    );
    await stillWorks(client);
  });

  it('10 000 listed tools, each with a ReDoS pattern, list without freezing', async () => {
    const client = await connectEvil({ EVIL_MANY_TOOLS: '10000' });
    const { value } = await bounded({ withinMs: 8000 }, () => client.listTools());
    expect(value).toHaveLength(10_003);
    await stillWorks(client);
  });

  it('a storm of 50 000 repeated progress notifications reaches onprogress once', async () => {
    const client = await connectEvil();
    let updates = 0;
    const { value } = await bounded({ withinMs: 8000 }, () =>
      client.callTool('progress-storm', {}, { onprogress: () => updates++ }),
    );
    expect(value.content).toEqual([{ type: 'text', text: 'stormed' }]);
    expect(updates).toBe(1);
    await stillWorks(client);
  });

  it('50 000 increasing progress notifications are coalesced: onprogress and onNotification see a few, the last one last', async () => {
    const seen: JsonRpcNotification[] = [];
    const client = await connectEvil({}, { onNotification: (n) => void seen.push(n) });
    const updates: number[] = [];
    const { value } = await bounded({ withinMs: 8000 }, () =>
      client.callTool('progress-climb', {}, { onprogress: (u) => void updates.push(u.progress) }),
    );
    expect(value.content).toEqual([{ type: 'text', text: 'climbed' }]);
    expect(updates.length).toBeLessThan(5000);
    expect(updates.at(-1)).toBe(50_000);
    expect(updates).toEqual([...updates].sort((a, b) => a - b));
    await until(() => seen.some((n) => n.params?.progress === 50_000));
    const progress = seen.filter((n) => n.method === 'notifications/progress');
    expect(progress.length).toBeLessThan(5000);
    await stillWorks(client);
  });

  it('a log storm of 20 000 messages reaches onNotification capped per second, then a dropped summary', async () => {
    const logs: JsonRpcNotification[] = [];
    const client = await connectEvil(
      {},
      { onNotification: (n) => void logs.push(n), limits: { maxLogMessagesPerSecond: 50 } },
    );
    const started = performance.now();
    await bounded({ withinMs: 8000 }, () => client.callTool('log-storm'));
    await until(() => logs.some((n) => n.params?.logger === 'mcpkit'));
    const seconds = Math.ceil((performance.now() - started) / 1000) + 1;
    const fromServer = logs.filter((n) => n.params?.logger !== 'mcpkit');
    expect(fromServer.length).toBeLessThanOrEqual(50 * seconds);
    const droppedOf = (n: JsonRpcNotification): number =>
      Number(/^(\d+) log message/.exec(String(n.params?.data))?.[1] ?? 0);
    const summaries = () => logs.filter((n) => n.params?.logger === 'mcpkit');
    expect(summaries()[0]?.params).toMatchObject({
      level: 'warning',
      data: expect.stringContaining('limits.maxLogMessagesPerSecond'),
    });
    // Every message is either delivered or counted in a summary, once the last summary is out.
    const accounted = () =>
      logs.filter((n) => n.params?.logger !== 'mcpkit').length +
      summaries().reduce((sum, n) => sum + droppedOf(n), 0);
    await until(() => accounted() === 20_000);
    await stillWorks(client);
  });

  it('20 000 tools/list_changed notifications do not refetch the list once each', async () => {
    const client = await connectEvil();
    await client.tools();
    await bounded({ withinMs: 8000 }, () => client.callTool('list-changed-storm'));
    await client.tools();
    const count = await client.callTool('list-calls');
    expect(Number((count.content[0] as { text: string }).text)).toBeLessThanOrEqual(3);
    await stillWorks(client);
  });

  it('a log storm of 20 000 messages is delivered without stalling', async () => {
    const client = await connectEvil();
    const { value } = await bounded({ withinMs: 8000 }, () => client.callTool('log-storm'));
    expect(value.content).toEqual([{ type: 'text', text: 'logged' }]);
    await stillWorks(client);
  });

  it('10 000 inputRequests in one input_required fail the call with LIMIT_EXCEEDED', async () => {
    const client = await connectEvil();
    await bounded({ withinMs: 5000 }, () =>
      expect(client.callTool('input-flood')).rejects.toMatchObject({
        code: 'LIMIT_EXCEEDED',
        message: expect.stringContaining('limits.maxInputRequests'),
      }),
    );
    await stillWorks(client);
  });

  it('a response that never comes times out; the connection keeps serving', async () => {
    const client = await connectEvil();
    await bounded({ withinMs: 5000 }, () =>
      expect(client.callTool('never', {}, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'TIMEOUT' }),
    );
    await stillWorks(client);
  });
});
