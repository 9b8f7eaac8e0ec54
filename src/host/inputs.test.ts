/**
 * Where a server's input requests and log messages go: only to the call they are shown to
 * belong to. Regression: an unlinked request went to the oldest call that takes input, so
 * one caller answered another's question.
 */
import { describe, expect, it } from 'vitest';
import type { Params, RequestId } from '../core/index.js';
import { InputRouter, type CallScope, type InputRequestEvent } from './inputs.js';
import { Turns } from './turns.js';

const ask = (params: Params = {}): InputRequestEvent => ({
  server: 's',
  kind: 'elicitation',
  method: 'elicitation/create',
  params,
  signal: new AbortController().signal,
});

/** A call on server `s` that answers with its own name and keeps its log messages. */
function call(name: string, ids: RequestId[]): CallScope & { logs: Params[] } {
  const logs: Params[] = [];
  return {
    server: 's',
    requestIds: new Set(ids),
    onInput: async () => ({ from: name }),
    onLog: (p) => void logs.push(p),
    logs,
  };
}

/** Runs `work` while `calls` are in flight on server `s`. */
async function during<T>(router: InputRouter, calls: CallScope[], work: () => Promise<T>): Promise<T> {
  let release = () => undefined as void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const running = calls.map((c) => router.within(c, () => held, false));
  try {
    return await work();
  } finally {
    release();
    await Promise.all(running);
  }
}

const policy = { policy: { elicitation: 'allow' as const } };

describe('InputRouter', () => {
  const stdio = () => new InputRouter({}, {}, () => false);
  const http = () => new InputRouter({}, {}, () => true);

  it('gives an unlinked stdio request to the only call in flight', async () => {
    const router = stdio();
    const a = call('a', [1]);
    await expect(during(router, [a], () => router.route(ask(), policy))).resolves.toEqual({ from: 'a' });
  });

  it('refuses an unlinked stdio request while two calls are in flight, answering neither', async () => {
    const router = stdio();
    const [a, b] = [call('a', [1]), call('b', [2])];
    await expect(during(router, [a, b], () => router.route(ask(), policy))).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('names none of its calls'),
    });
  });

  it('gives a request to the call whose stream carried it, or whose progress token it names', async () => {
    const router = http();
    const [a, b] = [call('a', [1]), call('b', [2])];
    await during(router, [a, b], async () => {
      await expect(router.route(ask(), { ...policy, relatedRequestId: 2 })).resolves.toEqual({ from: 'b' });
      const token = ask({ _meta: { progressToken: 1 } });
      await expect(router.route(token, policy)).resolves.toEqual({ from: 'a' });
    });
  });

  it("gives an HTTP request on no call's stream to no call, even with one call in flight", async () => {
    const router = http();
    const a = call('a', [1]);
    await expect(during(router, [a], () => router.route(ask(), policy))).rejects.toMatchObject({
      code: -32603,
    });
  });

  it('passes log messages to the call they came with, and unlinked ones to a lone stdio call only', async () => {
    const [a, b] = [call('a', [1]), call('b', [2])];
    const onHttp = http();
    await during(onHttp, [a, b], async () => {
      onHttp.notify('s', { data: 'b' }, 2);
      onHttp.notify('s', { data: 'nobody' }, undefined);
    });
    const onStdio = stdio();
    await during(onStdio, [a, b], async () => onStdio.notify('s', { data: 'ambiguous' }, undefined));
    await during(onStdio, [a], async () => onStdio.notify('s', { data: 'a' }, undefined));
    expect(a.logs).toEqual([{ data: 'a' }]);
    expect(b.logs).toEqual([{ data: 'b' }]);
  });
});

describe('Turns', () => {
  it('runs calls one at a time in order, and a call cancelled while waiting leaves the line', async () => {
    const turns = new Turns();
    const order: string[] = [];
    const first = await turns.take('s', undefined);
    const abort = new AbortController();
    const second = turns.take('s', abort.signal);
    const third = turns.take('s', undefined).then((release) => (order.push('third'), release));
    abort.abort();
    await expect(second).rejects.toMatchObject({ code: 'ABORTED' });
    order.push('first');
    first();
    (await third)();
    expect(order).toEqual(['first', 'third']);
    const again = await turns.take('s', undefined);
    again();
  });
});
