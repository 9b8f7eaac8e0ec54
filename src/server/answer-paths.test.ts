/**
 * Every path by which an answer reaches a handler checks it against the question that asked
 * for it (issue 35 §1): a task's `prepare` retry does not carry answers prepare never asked
 * into the task; a handler's explicit `input_required` gets only answers that fit what it
 * asked; answers sealed in `requestState` are checked again against the question as asked on
 * replay (the schema may have changed); and a huge forged `requestState` is refused before
 * any decoding or cryptography. alice and bob call at once throughout.
 */
import { describe, expect, it, vi } from 'vitest';
import { runtimeOf } from './runtime.js';
import type { Params } from '../core/jsonrpc.js';
import { createStateSealer } from '../core/request-state.js';
import { createServer, inputRequired, type McpServer } from './index.js';

const CAPS = { extensions: { 'io.modelcontextprotocol/tasks': {} }, elicitation: { form: {} } };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': CAPS,
};

let nextId = 1;
function as(server: McpServer, subject: string) {
  return (method: string, params: Params): Promise<Params> =>
    runtimeOf(server).handle(
      { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: META } },
      { signal: new AbortController().signal, notify: () => undefined, era: 'modern', authInfo: { subject } },
    );
}

const accept = (content: Params): Params => ({ action: 'accept', content });
const LIMIT = {
  type: 'object' as const,
  properties: { n: { type: 'integer' as const, maximum: 100 } },
  required: ['n'],
};
const CONFIRM = {
  type: 'object' as const,
  properties: { ok: { type: 'boolean' as const } },
  required: ['ok'],
};

function taskServer(): { server: McpServer; seen: unknown[] } {
  const seen: unknown[] = [];
  const server = createServer({ name: 't', version: '1', tasks: { ttlMs: 60_000 } });
  server.tool(
    'transfer',
    {
      task: {
        support: 'required',
        prepare: async (_args, ctx) => {
          await ctx.elicit({ message: 'confirm?', requestedSchema: CONFIRM }, { key: 'confirm' });
        },
      },
    },
    async (_args, ctx) => {
      const limit = await ctx.elicit({ message: 'limit?', requestedSchema: LIMIT }, { key: 'limit' });
      seen.push(limit.content?.n);
      return `limit ${String(limit.content?.n)}`;
    },
  );
  return { server, seen };
}

async function status(call: ReturnType<typeof as>, taskId: unknown, want: string): Promise<Params> {
  let task: Params = {};
  await vi.waitFor(
    async () => {
      task = await call('tasks/get', { taskId });
      expect(task.status).toBe(want);
    },
    { timeout: 5000, interval: 5 },
  );
  return task;
}

describe('answers through a task’s prepare step', () => {
  it.each([[{ n: 'not a number' }], [{ n: 1_000_000 }]])(
    'does not hand the task an answer prepare never asked (%j): the task asks for it and tasks/update checks it',
    async (bad) => {
      const { server, seen } = taskServer();
      const [alice, bob] = [as(server, 'alice'), as(server, 'bob')];
      const run = async (call: ReturnType<typeof as>, good: number): Promise<Params> => {
        const first = await call('tools/call', { name: 'transfer' });
        expect(first).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: {} } });
        const created = await call('tools/call', {
          name: 'transfer',
          requestState: first.requestState,
          inputResponses: { confirm: accept({ ok: true }), limit: accept(bad) },
        });
        expect(created.resultType).toBe('task');
        const waiting = await status(call, created.taskId, 'input_required');
        expect(Object.keys(waiting.inputRequests as Params)).toEqual(['limit']);
        await expect(
          call('tasks/update', { taskId: created.taskId, inputResponses: { limit: accept(bad) } }),
        ).rejects.toMatchObject({ code: -32602 });
        await call('tasks/update', {
          taskId: created.taskId,
          inputResponses: { limit: accept({ n: good }) },
        });
        return status(call, created.taskId, 'completed');
      };
      const [a, b] = await Promise.all([run(alice, 7), run(bob, 9)]);
      expect(a.result).toMatchObject({ content: [{ text: 'limit 7' }] });
      expect(b.result).toMatchObject({ content: [{ text: 'limit 9' }] });
      expect(seen.sort()).toEqual([7, 9]);
    },
  );

  it('refuses an answer to the prepare question itself that does not fit it', async () => {
    const { server } = taskServer();
    const alice = as(server, 'alice');
    const first = await alice('tools/call', { name: 'transfer' });
    await expect(
      alice('tools/call', {
        name: 'transfer',
        requestState: first.requestState,
        inputResponses: { confirm: accept({ ok: 'yes' }) },
      }),
    ).rejects.toMatchObject({ code: -32602 });
  });
});

describe('answers to an explicit input_required', () => {
  it('refuses a retry whose answer does not fit the sealed question, and gives ctx.inputResponses only checked answers', async () => {
    const server = createServer({ name: 't', version: '1' });
    const got: Params[] = [];
    server.tool('pay', {}, (_args, ctx) => {
      if (!Object.hasOwn(ctx.inputResponses, 'amount'))
        return inputRequired({
          amount: { method: 'elicitation/create', params: { message: 'amount?', requestedSchema: LIMIT } },
        });
      got.push({ ...ctx.inputResponses });
      return `paid ${String((ctx.inputResponses.amount as Params).content && (ctx.inputResponses.amount as { content: Params }).content.n)}`;
    });
    const [alice, bob] = [as(server, 'alice'), as(server, 'bob')];
    const [fa, fb] = await Promise.all([
      alice('tools/call', { name: 'pay' }),
      bob('tools/call', { name: 'pay' }),
    ]);
    await expect(
      alice('tools/call', {
        name: 'pay',
        requestState: fa.requestState,
        inputResponses: { amount: accept({ n: 1000 }) },
      }),
    ).rejects.toMatchObject({ code: -32602 });
    const ok = await bob('tools/call', {
      name: 'pay',
      requestState: fb.requestState,
      inputResponses: { amount: accept({ n: 5 }), other: accept({ x: 'unasked' }) },
    });
    expect(ok).toMatchObject({ content: [{ text: 'paid 5' }] });
    expect(got).toEqual([{ amount: accept({ n: 5 }) }]);
  });
});

describe('answers sealed in requestState', () => {
  it('asks again when a sealed answer no longer fits the question after the schema changed', async () => {
    let maximum = 1000;
    const server = createServer({ name: 't', version: '1' });
    server.tool('pay', {}, async (_args, ctx) => {
      const schema = { type: 'object', properties: { n: { type: 'integer', maximum } }, required: ['n'] };
      const amount = await ctx.elicit(
        { message: 'amount?', requestedSchema: schema as never },
        { key: 'amount' },
      );
      await ctx.elicit({ message: 'sure?', requestedSchema: CONFIRM }, { key: 'sure' });
      return `paid ${String(amount.content?.n)}`;
    });
    const [alice, bob] = [as(server, 'alice'), as(server, 'bob')];
    const round = async (call: ReturnType<typeof as>): Promise<Params> => {
      const first = await call('tools/call', { name: 'pay' });
      return call('tools/call', {
        name: 'pay',
        requestState: first.requestState,
        inputResponses: { amount: accept({ n: 100 }) },
      });
    };
    const [a, b] = await Promise.all([round(alice), round(bob)]);
    expect(a).toMatchObject({ resultType: 'input_required', inputRequests: { sure: {} } });
    maximum = 10;
    const retry = (call: ReturnType<typeof as>, state: unknown) =>
      call('tools/call', {
        name: 'pay',
        requestState: state,
        inputResponses: { sure: accept({ ok: true }) },
      });
    const [again, bobAgain] = await Promise.all([retry(alice, a.requestState), retry(bob, b.requestState)]);
    for (const r of [again, bobAgain]) {
      expect(r.resultType).toBe('input_required');
      expect(Object.keys(r.inputRequests as Params)).toEqual(['amount']);
    }
    const paid = await alice('tools/call', {
      name: 'pay',
      requestState: again.requestState,
      inputResponses: { amount: accept({ n: 10 }) },
    });
    expect(paid).toMatchObject({ content: [{ text: 'paid 10' }] });
  });

  it('refuses a 3 MB forged requestState with -32602 before any decoding, and keeps serving', async () => {
    const server = createServer({ name: 't', version: '1' });
    server.tool('hi', {}, async (_args, ctx) => {
      await ctx.elicit({ message: 'ok?', requestedSchema: CONFIRM }, { key: 'ok' });
      return 'hi';
    });
    const alice = as(server, 'alice');
    const forged = `v1.local.${'A'.repeat(16)}.${'A'.repeat(3 * 1024 * 1024)}`;
    const started = performance.now();
    const refused = alice('tools/call', { name: 'hi', requestState: forged, inputResponses: {} });
    await expect(refused).rejects.toMatchObject({ code: -32602, data: { maxStateChars: 1024 * 1024 } });
    expect(performance.now() - started).toBeLessThan(1000);
    const first = await as(server, 'bob')('tools/call', { name: 'hi' });
    expect(first.resultType).toBe('input_required');
  });

  it('bounds the sealer itself: it neither opens nor issues a state over maxStateChars', async () => {
    const sealer = createStateSealer({ maxStateChars: 200 });
    const binding = { principal: 'alice', method: 'tools/call', digest: 'd' };
    expect(sealer.maxStateChars).toBe(200);
    await expect(sealer.open('v1.local.x.' + 'A'.repeat(300), binding)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('longer than 200'),
    });
    await expect(sealer.seal({ a: { big: 'x'.repeat(300) } }, binding)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    const small = await sealer.seal({ a: {} }, binding);
    await expect(sealer.open(small, binding)).resolves.toEqual({ a: {} });
    expect(() => createStateSealer({ maxStateChars: 0 })).toThrow(RangeError);
  });
});
