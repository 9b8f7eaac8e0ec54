import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred, turn as tick } from '../../test/support/wait.js';
import { WireError } from './errors.js';
import { Peer, type PeerHandlers } from './peer.js';
import type { Transport, TransportSink } from './transport.js';
import type { JsonRpcMessage } from './jsonrpc.js';

/** A transport whose far end is the test itself: it sees what the peer sends and feeds frames in. */
function wire(): {
  transport: Transport;
  sent: JsonRpcMessage[];
  feed: (text: string) => void;
  end: () => void;
} {
  let sink: TransportSink | undefined;
  const sent: JsonRpcMessage[] = [];
  const transport: Transport = {
    start: (s) => void (sink = s),
    send: (m) => void sent.push(...(Array.isArray(m) ? m : [m])),
    close: async () => sink?.closed(),
  };
  return { transport, sent, feed: (t) => sink?.frame(t), end: () => sink?.closed(new Error('gone')) };
}

const peers: Peer[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const p of peers.splice(0)) await p.close();
});

async function start(handlers: Partial<PeerHandlers> = {}, options = {}) {
  const w = wire();
  const peer = new Peer(w.transport, { request: async () => ({ ok: true }), ...handlers }, options);
  peers.push(peer);
  await peer.start();
  return { peer, ...w };
}

describe('Peer, incoming', () => {
  it('writes the answer to each request of a burst before starting the next (no lockstep batches)', async () => {
    const answeredBefore: number[] = [];
    const w = wire();
    const peer = new Peer(w.transport, {
      request: async () => {
        answeredBefore.push(w.sent.length);
        return { ok: true };
      },
    });
    peers.push(peer);
    await peer.start();
    for (const id of [1, 2, 3]) w.feed(`{"jsonrpc":"2.0","id":${id},"method":"x"}`);
    await tick();
    expect(w.sent.map((m) => (m as { id: number }).id)).toEqual([1, 2, 3]);
    expect(answeredBefore).toEqual([0, 1, 2]);
  });

  it('keeps requests concurrent: one waiting on I/O does not hold back the next', async () => {
    const gate = deferred<void>();
    const { feed, sent } = await start({
      request: async (r) => {
        if (r.id === 1) await gate.promise;
        return { id: r.id };
      },
    });
    feed('{"jsonrpc":"2.0","id":1,"method":"x"}');
    feed('{"jsonrpc":"2.0","id":2,"method":"x"}');
    await tick();
    expect(sent.map((m) => (m as { id: number }).id)).toEqual([2]);
    gate.resolve();
    await tick();
    expect(sent.map((m) => (m as { id: number }).id)).toEqual([2, 1]);
  });

  it('answers malformed JSON with -32700 and keeps serving', async () => {
    const { feed, sent } = await start();
    feed('{not json');
    feed('{"jsonrpc":"2.0","id":1,"method":"x"}');
    await tick();
    expect(sent).toEqual([
      { jsonrpc: '2.0', error: expect.objectContaining({ code: -32700 }) },
      { jsonrpc: '2.0', id: 1, result: { ok: true } },
    ]);
  });

  it('never answers a notification, even one whose handler fails', async () => {
    const { feed, sent } = await start({ notification: () => undefined });
    feed('{"jsonrpc":"2.0","method":"notifications/whatever"}');
    await tick();
    expect(sent).toEqual([]);
  });

  it('answers a crashing handler with -32603 without its message', async () => {
    const seen: unknown[] = [];
    const { feed, sent } = await start({
      request: async () => {
        throw new Error('password=hunter2');
      },
      internalError: (e) => seen.push(e),
    });
    feed('{"jsonrpc":"2.0","id":"a","method":"x"}');
    await tick();
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 'a', error: { code: -32603, message: 'Internal error' } }]);
    expect(seen).toHaveLength(1);
  });

  it('passes wire errors through with code and data', async () => {
    const { feed, sent } = await start({
      request: async () => {
        throw WireError.of('InvalidParams', 'bad', { field: 'x' });
      },
    });
    feed('{"jsonrpc":"2.0","id":0,"method":"x"}');
    await tick();
    expect(sent).toEqual([
      { jsonrpc: '2.0', id: 0, error: { code: -32602, message: 'bad', data: { field: 'x' } } },
    ]);
  });

  it('rejects batches unless the session allows them', async () => {
    const { feed, sent } = await start();
    feed('[{"jsonrpc":"2.0","id":1,"method":"x"}]');
    await tick();
    expect(sent).toEqual([{ jsonrpc: '2.0', error: expect.objectContaining({ code: -32600 }) }]);
    const allowed = await start({ allowBatch: () => true });
    allowed.feed(
      '[{"jsonrpc":"2.0","id":1,"method":"x"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"method":"y"}]',
    );
    await tick();
    expect(allowed.sent).toEqual(
      [
        [
          { jsonrpc: '2.0', id: 1, result: { ok: true } },
          { jsonrpc: '2.0', id: 2, result: { ok: true } },
        ],
      ].flat(),
    );
  });

  it('rejects a second request with an id still in flight', async () => {
    const { feed, sent } = await start({ request: () => new Promise(() => {}) });
    feed('{"jsonrpc":"2.0","id":9,"method":"x"}');
    feed('{"jsonrpc":"2.0","id":9,"method":"x"}');
    await tick();
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 9, error: expect.objectContaining({ code: -32600 }) }]);
  });

  it('aborts the handler on notifications/cancelled and sends nothing more', async () => {
    let aborted = false;
    const { feed, sent } = await start({
      request: (_r, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
            ctx.notify('notifications/progress', { progressToken: 1, progress: 1 });
            resolve({});
          });
        }),
    });
    feed('{"jsonrpc":"2.0","id":1,"method":"slow"}');
    feed('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}');
    await tick();
    expect(aborted).toBe(true);
    expect(sent).toEqual([]);
  });
});

describe('Peer, outgoing', () => {
  it('correlates responses by id and rejects error responses as WireError', async () => {
    const { peer, sent, feed } = await start();
    const a = peer.request('a', {});
    const b = peer.request('b', {});
    const [first, second] = sent as { id: number }[];
    feed(JSON.stringify({ jsonrpc: '2.0', id: second?.id, error: { code: -32601, message: 'nope' } }));
    feed(JSON.stringify({ jsonrpc: '2.0', id: first?.id, result: { x: 1 } }));
    await expect(a).resolves.toEqual({ x: 1 });
    await expect(b).rejects.toMatchObject({ code: -32601, message: 'nope' });
    expect(first?.id).not.toBe(second?.id);
  });

  it('a timeoutMs beyond what a timer can wait (1e10) is no limit, not 1 ms', async () => {
    vi.useFakeTimers();
    const { peer, sent, feed } = await start({}, { timeoutMs: 1e10 });
    let outcome: unknown = 'pending';
    const call = peer.request('slow', {}).then(
      (r) => (outcome = r),
      (error: unknown) => (outcome = error),
    );
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(outcome).toBe('pending');
    const id = (sent[0] as { id: number }).id;
    feed(JSON.stringify({ jsonrpc: '2.0', id, result: { done: true } }));
    await call;
    expect(outcome).toEqual({ done: true });
  });

  it('times out, sends notifications/cancelled, and resets the timeout on progress', async () => {
    vi.useFakeTimers();
    const { peer, sent, feed } = await start({}, { timeoutMs: 60 });
    const progress: number[] = [];
    const call = peer.request('slow', {}, { onprogress: (p) => progress.push(p.progress) });
    const id = (sent[0] as { id: number }).id;
    expect((sent[0] as unknown as { params: { _meta: object } }).params._meta).toEqual({ progressToken: id });
    for (const n of [1, 2, 3]) {
      await vi.advanceTimersByTimeAsync(40);
      feed(
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: id, progress: n },
        }),
      );
    }
    feed(JSON.stringify({ jsonrpc: '2.0', id, result: { done: true } }));
    await expect(call).resolves.toEqual({ done: true });
    expect(progress).toEqual([1, 2, 3]);
    const late = peer.request('slower', {});
    void vi.advanceTimersByTimeAsync(60);
    await expect(late).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(sent.at(-1)).toMatchObject({
      method: 'notifications/cancelled',
      params: { requestId: (sent.at(-2) as { id: number }).id },
    });
  });

  it('cancels with an AbortSignal', async () => {
    const { peer, sent } = await start();
    const abort = new AbortController();
    const call = peer.request('slow', {}, { signal: abort.signal });
    abort.abort();
    await expect(call).rejects.toMatchObject({ code: 'ABORTED' });
    expect(sent.at(-1)).toMatchObject({ method: 'notifications/cancelled' });
  });

  it('fails every pending request when the transport ends', async () => {
    const { peer, end } = await start();
    const calls = [peer.request('a', {}), peer.request('b', {})];
    end();
    for (const c of calls) await expect(c).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(peer.request('c', {})).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });
});

describe('Peer, malformed input', () => {
  it('never answers a notification, even a malformed one', async () => {
    const { feed, sent } = await start();
    feed('{"jsonrpc":"2.0","method":"notifications/cancelled","params":"x"}');
    feed('{"jsonrpc":"2.0","id":2,"method":"x","params":"x"}');
    await tick();
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 2, error: expect.objectContaining({ code: -32600 }) }]);
  });

  it('fails its own request on a malformed response to it, and never echoes a response id in an error', async () => {
    const { peer, sent, feed } = await start();
    const call = peer.request('a', {});
    const id = (sent[0] as { id: number }).id;
    sent.length = 0;
    feed(JSON.stringify({ jsonrpc: '2.0', id, error: 'boom' }));
    await expect(call).rejects.toMatchObject({
      code: 'INVALID_RESULT',
      message: expect.stringContaining(`answer to request ${id} is not a valid response`),
    });
    // Not ours: refused, but without the id, which would name a request of the other side.
    feed(JSON.stringify({ jsonrpc: '2.0', id: 99, error: 'boom' }));
    feed(JSON.stringify({ jsonrpc: '2.0', id: 98, result: 5 }));
    await tick();
    expect(sent).toEqual([
      { jsonrpc: '2.0', error: expect.objectContaining({ code: -32600 }) },
      { jsonrpc: '2.0', error: expect.objectContaining({ code: -32600 }) },
    ]);
  });

  it('hands non-JSON frames to a malformed handler instead of answering when one is given', async () => {
    const seen: string[] = [];
    const { feed, sent } = await start({ malformed: (text) => seen.push(text) });
    feed('hello garbage');
    await tick();
    expect(seen).toEqual(['hello garbage']);
    expect(sent).toEqual([]);
  });
});

describe('Peer, initialize', () => {
  it('never sends notifications/cancelled for an initialize that times out', async () => {
    const { peer, sent } = await start({}, { timeoutMs: 20 });
    await expect(peer.request('initialize', {})).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(peer.request('tools/list', {})).rejects.toMatchObject({ code: 'TIMEOUT' });
    const cancelled = sent.filter((m) => 'method' in m && m.method === 'notifications/cancelled');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatchObject({ params: { requestId: 1 } });
  });
});
