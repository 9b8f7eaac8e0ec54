import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { ERROR_TABLE } from '../../core/errors.js';
import { Peer } from '../../core/runtime.js';
import { stdioServerTransport, type StdioServerOptions } from './server-transport.js';
import { turn, turns, until } from '../../../test/support/wait.js';

/** A server transport over in-memory streams, with stdout collected as parsed lines. */
function harness(options: Partial<StdioServerOptions> = {}) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const written: unknown[] = [];
  let buffered = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    const parts = (buffered + chunk).split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) written.push(JSON.parse(part));
  });
  const transport = stdioServerTransport({ stdin, stdout, ...options });
  return { stdin, stdout, written, transport };
}

function echoPeer(h: ReturnType<typeof harness>): Peer {
  return new Peer(h.transport, { request: async (r) => ({ method: r.method, params: r.params ?? {} }) });
}

describe('stdioServerTransport', () => {
  it('delivers a UTF-8 character split across stdin chunks intact', async () => {
    const h = harness();
    const frames: string[] = [];
    await h.transport.start({ frame: (t) => frames.push(t), closed: () => {} });
    const bytes = new TextEncoder().encode('{"s":"a€😀"}\r\n');
    for (const [from, to] of [
      [0, 8],
      [8, 9],
      [9, 12],
      [12, bytes.length],
    ] as const) {
      h.stdin.write(bytes.subarray(from, to));
      await turn();
    }
    await until(() => frames.length > 0);
    expect(frames).toEqual(['{"s":"a€😀"}']);
  });

  it('answers a malformed line with -32700 and still answers the next request', async () => {
    const h = harness();
    await echoPeer(h).start();
    h.stdin.write('{not json\n');
    h.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' })}\n`);
    await until(() => h.written.length >= 2);
    expect(h.written[0]).toMatchObject({ jsonrpc: '2.0', error: { code: ERROR_TABLE.ParseError.code } });
    expect(h.written[0]).not.toHaveProperty('id');
    expect(h.written[1]).toEqual({ jsonrpc: '2.0', id: 7, result: { method: 'tools/list', params: {} } });
  });

  it('answers a line over maxLineBytes with -32700 without buffering it, then reads on', async () => {
    const h = harness({ maxLineBytes: 100 });
    await echoPeer(h).start();
    h.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: { pad: 'p'.repeat(200) } })}\n`,
    );
    h.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ok' })}\n`);
    await until(() => h.written.length >= 2);
    expect(h.written[0]).toMatchObject({
      error: { code: -32700, message: expect.stringContaining('100 bytes') },
    });
    expect(h.written[1]).toMatchObject({ id: 2, result: { method: 'ok' } });
  });

  it('writes each sent message as one line on stdout', async () => {
    const h = harness();
    await h.transport.start({ frame: () => {}, closed: () => {} });
    h.transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: { text: 'a\nb\u2028' } });
    await until(() => h.written.length >= 1);
    expect(h.written).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { text: 'a\nb\u2028' } },
    ]);
  });

  it('writes the messages of one tick together (up to four a write), in order, and a later tick in its own', async () => {
    const writes: string[] = [];
    const stdout = { write: (text: string) => writes.push(text), on: () => stdout };
    const transport = stdioServerTransport({
      stdin: new PassThrough(),
      stdout: stdout as unknown as NodeJS.WritableStream,
    });
    await transport.start({ frame: () => {}, closed: () => {} });
    transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    await Promise.resolve(); // a microtask of the same tick, as an async handler's answer is
    transport.send({ jsonrpc: '2.0', id: 2, result: {} });
    expect(writes).toEqual([]); // nothing before the tick's work is done
    await new Promise((resolve) => setImmediate(resolve));
    transport.send({ jsonrpc: '2.0', id: 3, result: {} });
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([
      '{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":2,"result":{}}\n',
      '{"jsonrpc":"2.0","id":3,"result":{}}\n',
    ]);
    // Five in one tick: four leave at once (the client can start on them), the fifth at its end.
    writes.length = 0;
    for (let id = 10; id < 15; id++) transport.send({ jsonrpc: '2.0', id, result: {} });
    expect(writes.map((w) => w.split('\n').length - 1)).toEqual([4]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.map((w) => w.split('\n').length - 1)).toEqual([4, 1]);
  });

  it('closes the sink without error when stdin ends, after the last line', async () => {
    const h = harness();
    const events: string[] = [];
    await h.transport.start({
      frame: (t) => events.push(t),
      closed: (e) => events.push(`closed:${e?.message}`),
    });
    h.stdin.end('{"jsonrpc":"2.0","method":"last"}');
    await until(() => events.length >= 2);
    expect(events).toEqual(['{"jsonrpc":"2.0","method":"last"}', 'closed:undefined']);
  });

  it('closes the sink with the error when stdout fails, and drops later sends', async () => {
    const h = harness();
    const closes: (Error | undefined)[] = [];
    await h.transport.start({ frame: () => {}, closed: (e) => closes.push(e) });
    h.stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(closes.map((e) => e?.message)).toEqual(['write EPIPE']);
    expect(() => h.transport.send({ jsonrpc: '2.0', method: 'late' })).not.toThrow();
  });

  it('stops reading stdin on close()', async () => {
    const h = harness();
    const frames: string[] = [];
    await h.transport.start({ frame: (t) => frames.push(t), closed: () => {} });
    await h.transport.close();
    h.stdin.write('{"jsonrpc":"2.0","method":"after"}\n');
    await turns(3);
    expect(frames).toEqual([]);
    expect(h.stdin.listenerCount('data')).toBe(0);
  });
});

describe('stdioServerTransport, the gap between progress and the response', () => {
  /** A transport whose stdout records each line of each write at once. */
  function recording(gapMs: number) {
    const stdin = new PassThrough();
    const sent: Record<string, unknown>[] = [];
    const stdout = {
      write: (lines: string) => {
        for (const line of lines.split('\n'))
          if (line !== '') sent.push(JSON.parse(line) as Record<string, unknown>);
      },
      on: () => stdout,
    } as unknown as NodeJS.WritableStream;
    return { stdin, sent, transport: stdioServerTransport({ stdin, stdout, progressGapMs: gapMs }) };
  }
  const progress = {
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: 't', progress: 1 },
  } as const;

  it('holds a response until progressGapMs after its last progress, and no other', async () => {
    const { stdin, sent, transport } = recording(10);
    const frames: string[] = [];
    await transport.start({ frame: (t) => frames.push(t), closed: () => {} });
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"work","params":{"_meta":{"progressToken":"t"}}}\n');
    stdin.write('{"jsonrpc":"2.0","id":2,"method":"work"}\n');
    await until(() => frames.length === 2);
    vi.useFakeTimers();
    try {
      transport.send(progress);
      transport.send({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: 'x' },
      });
      transport.send({ jsonrpc: '2.0', id: 2, result: { id: 2 } });
      transport.send({ jsonrpc: '2.0', id: 1, result: { id: 1 } });
      await vi.advanceTimersByTimeAsync(0);
      expect(sent.map((m) => m.method ?? m.id)).toEqual([
        'notifications/progress',
        'notifications/message',
        2,
      ]);
      await vi.advanceTimersByTimeAsync(9);
      expect(sent).toHaveLength(3);
      await vi.advanceTimersByTimeAsync(1);
      expect(sent.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, result: { id: 1 } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes a held response before close() resolves', async () => {
    const { stdin, sent, transport } = recording(20);
    const frames: string[] = [];
    await transport.start({ frame: (t) => frames.push(t), closed: () => {} });
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"work","params":{"_meta":{"progressToken":"t"}}}\n');
    await until(() => frames.length === 1);
    transport.send(progress);
    transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    await new Promise((resolve) => process.nextTick(resolve));
    expect(sent).toHaveLength(1);
    await transport.close();
    expect(sent.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });
});
