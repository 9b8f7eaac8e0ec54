import { describe, expect, it } from 'vitest';
import { Peer } from '../core/peer.js';
import type { TransportSink } from '../core/transport.js';
import { createLinkedPair } from './linked-pair.js';
import { turn as tick } from '../../test/support/wait.js';

function recorder(): TransportSink & { frames: string[]; closes: (Error | undefined)[] } {
  const frames: string[] = [];
  const closes: (Error | undefined)[] = [];
  return { frames, closes, frame: (t) => frames.push(t), closed: (e) => closes.push(e) };
}

describe('createLinkedPair', () => {
  it('delivers what one end sends to the other as JSON text, in order', async () => {
    const [a, b] = createLinkedPair();
    const sink = recorder();
    await a.start(recorder());
    await b.start(sink);
    for (let i = 0; i < 5; i++) a.send({ jsonrpc: '2.0', method: 'n', params: { i } });
    expect(sink.frames).toEqual([]);
    await tick();
    expect(sink.frames.map((f) => (JSON.parse(f) as { params: { i: number } }).params.i)).toEqual([
      0, 1, 2, 3, 4,
    ]);
  });

  it('does not share objects between the ends', async () => {
    const [a, b] = createLinkedPair();
    const sink = recorder();
    await b.start(sink);
    const params = { value: 1 };
    a.send({ jsonrpc: '2.0', method: 'n', params });
    params.value = 2;
    await tick();
    expect(sink.frames).toEqual(['{"jsonrpc":"2.0","method":"n","params":{"value":1}}']);
  });

  it('holds frames sent before the receiving end starts', async () => {
    const [a, b] = createLinkedPair();
    a.send({ jsonrpc: '2.0', method: 'first' });
    await tick();
    const sink = recorder();
    await b.start(sink);
    a.send({ jsonrpc: '2.0', method: 'second' });
    await tick();
    expect(sink.frames.map((f) => (JSON.parse(f) as { method: string }).method)).toEqual(['first', 'second']);
  });

  it('closes both ends once when either end closes, after frames already sent', async () => {
    const [a, b] = createLinkedPair();
    const sinkA = recorder();
    const sinkB = recorder();
    await a.start(sinkA);
    await b.start(sinkB);
    a.send({ jsonrpc: '2.0', method: 'before' });
    await b.close();
    await a.close();
    await tick();
    expect(sinkB.frames).toHaveLength(1);
    expect(sinkA.closes).toEqual([undefined]);
    expect(sinkB.closes).toEqual([undefined]);
  });

  it('drops sends after close silently', async () => {
    const [a, b] = createLinkedPair();
    const sink = recorder();
    await b.start(sink);
    await a.close();
    expect(() => a.send({ jsonrpc: '2.0', method: 'late' })).not.toThrow();
    b.send({ jsonrpc: '2.0', method: 'late' });
    await tick();
    expect(sink.frames).toEqual([]);
  });

  it('carries a request and its response between two peers', async () => {
    const [a, b] = createLinkedPair();
    const client = new Peer(a, { request: async () => ({}) });
    const server = new Peer(b, { request: async (r) => ({ echoed: r.method }) });
    await client.start();
    await server.start();
    await expect(client.request('tools/list', undefined)).resolves.toEqual({ echoed: 'tools/list' });
    await client.close();
    await tick();
    expect(server.isClosed).toBe(true);
  });
});
