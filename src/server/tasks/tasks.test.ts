import { describe, expect, it, vi } from 'vitest';
import { runtimeOf } from '../runtime.js';
import { z } from 'zod';
import { WireError } from '../../core/errors.js';
import { createMemoryTaskStore } from '../../core/task-store.js';
import type { Params } from '../../core/jsonrpc.js';
import type { ScopeBinding, ScopeLine } from '../scope.js';
type RequestChannel = ScopeLine & ScopeBinding;
import { createServer, type McpServer } from '../index.js';

const TASKS = { 'io.modelcontextprotocol/tasks': {} };

function meta(caps: Params = { extensions: TASKS, elicitation: {} }): Params {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': caps,
  };
}

let nextId = 1;
function call(
  server: McpServer,
  method: string,
  params: Params,
  options: { caps?: Params; channel?: Partial<RequestChannel> } = {},
): Promise<Params> {
  const channel: RequestChannel = {
    signal: new AbortController().signal,
    notify: () => undefined,
    era: 'modern',
    ...options.channel,
  };
  return runtimeOf(server).handle(
    {
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: { ...params, _meta: { ...meta(options.caps), ...(params._meta as Params) } },
    },
    channel,
  );
}

async function settled(server: McpServer, taskId: unknown, status = /completed|failed|cancelled/) {
  let task: Params = {};
  await vi.waitFor(
    async () => {
      task = await call(server, 'tasks/get', { taskId });
      expect(task.status).toMatch(status);
    },
    { timeout: 5000, interval: 10 },
  );
  return task;
}

function build(): { server: McpServer; aborted: string[] } {
  const aborted: string[] = [];
  const server = createServer({ name: 't', version: '1', tasks: { pollIntervalMs: 250, ttlMs: 60_000 } });
  server.tool('plain', {}, () => 'plain');
  server.tool('maybe', { inputSchema: z.object({ n: z.number() }), task: 'optional' }, ({ n }) => `n=${n}`);
  server.tool('must', { task: 'required' }, () => 'done');
  server.tool('crash', { task: 'optional' }, () => {
    throw new Error('boom');
  });
  server.tool('ask', { task: 'optional' }, async (_a, ctx) => {
    ctx.progress(1, { total: 2, message: 'asking' });
    const a = await ctx.elicit({ message: 'name?', requestedSchema: { type: 'object', properties: {} } });
    return `got ${JSON.stringify(a.content)}`;
  });
  server.tool('wait', { task: 'optional' }, async (_a, ctx) => {
    await new Promise((_, reject) =>
      ctx.signal.addEventListener('abort', () => {
        aborted.push('wait');
        reject(new Error('stopped'));
      }),
    );
    return 'never';
  });
  return { server, aborted };
}

describe('the Tasks extension on the server', () => {
  it('advertises the extension in discover', async () => {
    const { server } = build();
    const result = await call(server, 'server/discover', {});
    expect((result.capabilities as Params).extensions).toEqual(TASKS);
  });

  it('answers an optional tool synchronously when the client did not negotiate tasks', async () => {
    const { server } = build();
    const result = await call(server, 'tools/call', { name: 'maybe', arguments: { n: 1 } }, { caps: {} });
    expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'n=1' }] });
  });

  it('names one instance in every task lease: tasks.instanceId, else a random id minted on first use', async () => {
    const owners = async (instanceId?: string): Promise<unknown[]> => {
      const store = createMemoryTaskStore();
      const tasks = instanceId === undefined ? { store } : { store, instanceId };
      const server = createServer({ name: 't', version: '1', tasks });
      let release = (): void => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      server.tool('held', { task: 'optional' }, async () => (await held, 'ok')); // running: its lease stands
      const ids: unknown[] = [];
      for (let i = 0; i < 2; i++) ids.push((await call(server, 'tools/call', { name: 'held' })).taskId);
      const leased = await Promise.all(ids.map(async (id) => (await store.get(String(id)))?.internal.owner));
      release();
      return leased;
    };
    expect(await owners('replica-7')).toEqual(['replica-7', 'replica-7']);
    const [a, b] = await owners();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b).toBe(a);
    expect((await owners())[0]).not.toBe(a);
  });

  it('returns a task that tasks/get resolves at once, then the inlined result', async () => {
    const { server } = build();
    const created = await call(server, 'tools/call', { name: 'maybe', arguments: { n: 2 } });
    expect(created).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: 60_000,
      pollIntervalMs: 250,
    });
    expect(Object.keys(created)).not.toContain('result');
    const first = await call(server, 'tasks/get', { taskId: created.taskId });
    expect(first.taskId).toBe(created.taskId);
    const done = await settled(server, created.taskId);
    expect(done).toMatchObject({
      status: 'completed',
      resultType: 'complete',
      result: { content: [{ text: 'n=2' }] },
    });
  });

  it('refuses a required tool and the task methods with -32021 without negotiation', async () => {
    const { server } = build();
    const refused = call(server, 'tools/call', { name: 'must' }, { caps: {} });
    await expect(refused).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: TASKS } },
    });
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel'])
      await expect(
        call(server, method, { taskId: 'x', inputResponses: {} }, { caps: {} }),
      ).rejects.toMatchObject({
        code: -32021,
      });
  });

  it('answers tasks/result and tasks/list with -32601 and unknown task ids with -32602', async () => {
    const { server } = build();
    await expect(call(server, 'tasks/result', { taskId: 'x' })).rejects.toMatchObject({ code: -32601 });
    await expect(call(server, 'tasks/list', {})).rejects.toMatchObject({ code: -32601 });
    await expect(call(server, 'tasks/get', { taskId: 'nope' })).rejects.toMatchObject({ code: -32602 });
    await expect(call(server, 'tasks/cancel', { taskId: 'nope' })).rejects.toMatchObject({ code: -32602 });
  });

  it('never makes a task of a tool without a task policy', async () => {
    const { server } = build();
    expect(await call(server, 'tools/call', { name: 'plain' })).toMatchObject({ resultType: 'complete' });
  });

  it('moves to input_required on ctx.elicit and resumes on tasks/update', async () => {
    const { server } = build();
    const { taskId } = await call(server, 'tools/call', { name: 'ask' });
    const waiting = await settled(server, taskId, /input_required/);
    expect(waiting.inputRequests).toEqual({
      'elicitation-1': {
        method: 'elicitation/create',
        params: expect.objectContaining({ message: 'name?' }),
      },
    });
    const ack = await call(server, 'tasks/update', {
      taskId,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } }, other: { x: 1 } },
    });
    expect(ack).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    const done = await settled(server, taskId);
    expect(done.result).toMatchObject({ content: [{ text: 'got {"name":"Ada"}' }] });
  });

  it('refuses a tasks/update answer that does not match the requested schema, as MRTR does, and records nothing', async () => {
    const { server } = build();
    server.tool('age', { task: 'optional' }, async (_a, ctx) => {
      const a = await ctx.elicit({
        message: 'age?',
        requestedSchema: { type: 'object', properties: { age: { type: 'integer' } }, required: ['age'] },
      });
      const roots = await ctx.listRoots();
      return `age ${String(a.content?.age)}, ${roots.roots.length} roots`;
    });
    const caps = { extensions: TASKS, elicitation: {}, roots: {} };
    const { taskId } = await call(server, 'tools/call', { name: 'age' }, { caps });
    await settled(server, taskId, /input_required/);
    const update = (inputResponses: Params) => call(server, 'tasks/update', { taskId, inputResponses });
    await expect(
      update({ 'elicitation-1': { action: 'accept', content: { age: 'old' } } }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(
        /^inputResponses\.elicitation-1: content does not match the requested schema/,
      ),
    });
    await expect(update({ 'elicitation-1': { action: 'maybe' } })).rejects.toMatchObject({
      code: -32602,
      message: 'inputResponses.elicitation-1: action must be accept, decline or cancel',
    });
    const still = await call(server, 'tasks/get', { taskId });
    expect(still.status).toBe('input_required');
    expect(Object.keys(still.inputRequests as Params)).toEqual(['elicitation-1']);
    await update({
      'elicitation-1': { action: 'accept', content: { age: 36 } },
      unknown: { anything: true },
    });
    await settled(server, taskId, /input_required/);
    await vi.waitFor(async () =>
      expect(Object.keys((await call(server, 'tasks/get', { taskId })).inputRequests as Params)).toEqual([
        'roots-1',
      ]),
    );
    await expect(update({ 'roots-1': { roots: [{ uri: 'http://x' }] } })).rejects.toMatchObject({
      code: -32602,
      message: 'inputResponses.roots-1: roots[0].uri must be a file:// URI',
    });
    await update({ 'roots-1': { roots: [{ uri: 'file:///tmp' }] } });
    expect((await settled(server, taskId)).result).toMatchObject({ content: [{ text: 'age 36, 1 roots' }] });
  });

  it('shows progress as the status message', async () => {
    const { server } = build();
    const { taskId } = await call(server, 'tools/call', { name: 'ask', _meta: { progressToken: 7 } });
    const task = await settled(server, taskId, /input_required/);
    expect(task.statusMessage).toBe('asking');
  });

  it('cancels: the status becomes cancelled and the handler signal aborts', async () => {
    const { server, aborted } = build();
    const { taskId } = await call(server, 'tools/call', { name: 'wait' });
    expect(await call(server, 'tasks/cancel', { taskId })).toEqual({
      resultType: 'complete',
      _meta: expect.any(Object),
    });
    expect((await call(server, 'tasks/get', { taskId })).status).toBe('cancelled');
    await vi.waitFor(() => expect(aborted).toEqual(['wait']));
    expect(await call(server, 'tasks/cancel', { taskId })).toMatchObject({ resultType: 'complete' });
  });

  it('fails a task whose handler threw a JSON-RPC error, completes one with a tool error', async () => {
    const { server } = build();
    server.tool('rpc', { task: 'optional' }, () => {
      throw WireError.of('InternalError', 'backend down');
    });
    const rpc = await call(server, 'tools/call', { name: 'rpc' });
    const failed = await settled(server, rpc.taskId);
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'backend down' } });
    expect(failed.result).toBeUndefined();
    const crash = await call(server, 'tools/call', { name: 'crash' });
    expect(await settled(server, crash.taskId)).toMatchObject({
      status: 'completed',
      result: { isError: true },
    });
  });

  it('shows a task only to the principal that created it', async () => {
    const { server } = build();
    const alice = { channel: { authInfo: { subject: 'alice' } } };
    const { taskId } = await call(server, 'tools/call', { name: 'maybe', arguments: { n: 3 } }, alice);
    await expect(call(server, 'tasks/get', { taskId })).rejects.toMatchObject({ code: -32602 });
    expect((await call(server, 'tasks/get', { taskId }, alice)).taskId).toBe(taskId);
  });

  it('sends notifications/tasks on a listen stream that asked for the task', async () => {
    const { server } = build();
    const { taskId } = await call(server, 'tools/call', { name: 'ask' });
    await settled(server, taskId, /input_required/);
    const seen: Params[] = [];
    const controller = new AbortController();
    const channel = {
      signal: controller.signal,
      notify: (m: string, p: Params) => void seen.push({ m, ...p }),
    };
    const listening = call(
      server,
      'subscriptions/listen',
      { notifications: { taskIds: [taskId] } },
      { channel },
    );
    expect(seen[0]).toMatchObject({
      m: 'notifications/subscriptions/acknowledged',
      notifications: { taskIds: [taskId] },
    });
    await call(server, 'tasks/update', {
      taskId,
      inputResponses: { 'elicitation-1': { action: 'decline' } },
    });
    await vi.waitFor(() =>
      expect(seen.at(-1)).toMatchObject({ m: 'notifications/tasks', status: 'completed' }),
    );
    expect(seen.map((n) => n.status).filter(Boolean)).toEqual(['working', 'completed']);
    controller.abort();
    await listening;
  });

  it("does not send another principal's task status to a listen stream that names its id", async () => {
    const { server } = build();
    const alice = { authInfo: { subject: 'alice' } };
    const { taskId } = await call(server, 'tools/call', { name: 'ask' }, { channel: alice });
    const open = (authInfo: { subject: string }, seen: Params[], signal: AbortSignal) =>
      call(
        server,
        'subscriptions/listen',
        { notifications: { taskIds: [taskId] } },
        { channel: { signal, authInfo, notify: (m: string, p: Params) => void seen.push({ m, ...p }) } },
      );
    const controller = new AbortController();
    const own: Params[] = [];
    const foreign: Params[] = [];
    const listens = [
      open({ subject: 'alice' }, own, controller.signal),
      open({ subject: 'mallory' }, foreign, controller.signal),
    ];
    await vi.waitFor(async () =>
      expect((await call(server, 'tasks/get', { taskId }, { channel: alice })).status).toBe('input_required'),
    );
    await call(
      server,
      'tasks/update',
      { taskId, inputResponses: { 'elicitation-1': { action: 'decline' } } },
      { channel: alice },
    );
    await vi.waitFor(() =>
      expect(own.at(-1)).toMatchObject({ m: 'notifications/tasks', status: 'completed' }),
    );
    expect(foreign.filter((n) => n.m === 'notifications/tasks')).toEqual([]);
    controller.abort();
    await Promise.all(listens);
  });

  it('refuses taskIds on listen without negotiation', async () => {
    const { server } = build();
    const listen = call(server, 'subscriptions/listen', { notifications: { taskIds: ['a'] } }, { caps: {} });
    await expect(listen).rejects.toMatchObject({ code: -32021 } satisfies Partial<WireError>);
  });
});
