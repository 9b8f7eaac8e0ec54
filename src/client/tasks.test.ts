import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { WireError } from '../core/errors.js';
import { serve, type Served } from '../integrations/node/index.js';
import { createServer, type McpServer } from '../server/index.js';
import { deferred } from '../../test/support/wait.js';
import { createClient, streamableHttp, type Client, type TaskHandle } from './index.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

function buildServer(gate: Promise<void>): McpServer {
  const server = createServer({ name: 'tasks', version: '1', tasks: { pollIntervalMs: 20 } });
  server.tool('quick', {}, () => 'quick');
  server.tool(
    'report',
    {
      inputSchema: z.object({ topic: z.string() }),
      outputSchema: z.object({ words: z.number() }),
      task: 'optional',
    },
    async ({ topic }, ctx) => {
      await gate;
      const answer = await ctx.elicit({
        message: `Approve the report on ${topic}?`,
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      });
      const ok = answer.action === 'accept' && answer.content?.ok === true;
      return {
        content: [{ type: 'text', text: ok ? 'approved' : 'refused' }],
        structuredContent: { words: 3 },
      };
    },
  );
  server.tool('broken', { task: 'required' }, () => {
    throw WireError.of('InternalError', 'backend down');
  });
  server.tool(
    'forever',
    { task: 'required' },
    (_a, ctx) => new Promise((_, no) => ctx.signal.addEventListener('abort', no)),
  );
  return server;
}

async function start(): Promise<{ client: Client; served: Served; release: () => void; asked: string[] }> {
  const gate = deferred();
  const served = await serve(buildServer(gate.promise), { port: 0 });
  open.push(served);
  const asked: string[] = [];
  const client = createClient({
    name: 'c',
    version: '1',
    handlers: {
      elicitation: async (params) => {
        asked.push(params.message);
        return { action: 'accept', content: { ok: true } };
      },
    },
  });
  await client.connect(streamableHttp(served.url));
  open.push(client);
  return { client, served, release: () => gate.resolve(), asked };
}

describe('tasks from the client', () => {
  it('gets an immediate result from a tool that never runs as a task', async () => {
    const { client } = await start();
    const result = await client.callTool('quick', {}, { task: 'allow' });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'quick' }] });
  });

  it('polls a task to its result, answering its input request with the MRTR handlers', async () => {
    const { client, release, asked } = await start();
    const handle = (await client.callTool('report', { topic: 'bees' }, { task: 'allow' })) as TaskHandle;
    expect(handle.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await handle.status()).status).toBe('working');
    release();
    const result = await handle.result();
    expect(result).toMatchObject({ content: [{ text: 'approved' }], structuredContent: { words: 3 } });
    expect(asked).toEqual(['Approve the report on bees?']);
  });

  it('rides notifications/tasks instead of polling', async () => {
    const { client, release, asked } = await start();
    const handle = (await client.callTool('report', { topic: 'ants' }, { task: 'allow' })) as TaskHandle;
    const result = handle.result({ notifications: true });
    release();
    expect(await result).toMatchObject({ content: [{ text: 'approved' }] });
    expect(asked).toEqual(['Approve the report on ants?']);
  });

  it('resumes a task from its serialised reference in another client', async () => {
    const { client, served, release } = await start();
    const handle = (await client.callTool('report', { topic: 'owls' }, { task: 'allow' })) as TaskHandle;
    const saved = JSON.stringify(handle.reference);
    await client.close();
    const other = createClient({
      name: 'c2',
      version: '1',
      handlers: { elicitation: async () => ({ action: 'accept', content: { ok: false } }) },
    });
    await other.connect(streamableHttp(served.url));
    open.push(other);
    release();
    const result = await other.resumeTask(JSON.parse(saved)).result();
    expect(result).toMatchObject({ content: [{ text: 'refused' }] });
  });

  it('throws the JSON-RPC error of a failed task', async () => {
    const { client } = await start();
    const handle = (await client.callTool('broken', {}, { task: 'allow' })) as TaskHandle;
    await expect(handle.result()).rejects.toMatchObject({ code: -32603, message: 'backend down' });
  });

  it('cancels a task; waiting for it then ends with ABORTED', async () => {
    const { client } = await start();
    const handle = (await client.callTool('forever', {}, { task: 'allow' })) as TaskHandle;
    await handle.cancel();
    expect((await handle.status()).status).toBe('cancelled');
    await expect(handle.result()).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('gets -32021 for a required-task tool when tasks are not allowed', async () => {
    const { client } = await start();
    await expect(client.callTool('broken', {})).rejects.toMatchObject({ code: -32021 });
  });
});
