import { describe, expect, it } from 'vitest';
import { newCursor, readSse } from './sse.js';

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function read(chunks: string[]): Promise<{ data: string[]; cursor: ReturnType<typeof newCursor> }> {
  const data: string[] = [];
  const cursor = newCursor();
  await readSse(body(chunks), cursor, { onData: (d) => data.push(d) });
  return { data, cursor };
}

describe('readSse', () => {
  it('joins multi-line data with newlines', async () => {
    const { data } = await read(['data: {"jsonrpc":"2.0",\ndata: "method":"x"}\n\n']);
    expect(data).toEqual(['{"jsonrpc":"2.0",\n"method":"x"}']);
    expect(JSON.parse(data[0] ?? '')).toEqual({ jsonrpc: '2.0', method: 'x' });
  });

  it('reassembles events split across chunks, even inside a UTF-8 character', async () => {
    const bytes = new TextEncoder().encode('data: {"t":"世界"}\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const b of bytes) controller.enqueue(new Uint8Array([b]));
        controller.close();
      },
    });
    const data: string[] = [];
    await readSse(stream, newCursor(), { onData: (d) => data.push(d) });
    expect(data).toEqual(['{"t":"世界"}']);
  });

  it('skips comments, empty priming events and other event types; keeps id and retry', async () => {
    const { data, cursor } = await read([
      ': keep-alive\r\n\r\n',
      'id: e1\r\nretry: 500\r\ndata: \r\n\r\n',
      'event: endpoint\ndata: /messages\n\n',
      'event: message\nid: e2\ndata: {"a":1}\n\n',
    ]);
    expect(data).toEqual(['{"a":1}']);
    expect(cursor).toEqual({ lastEventId: 'e2', retryMs: 500 });
  });

  it('drops an unterminated last event', async () => {
    const { data } = await read(['data: 1\n\ndata: 2']);
    expect(data).toEqual(['1']);
  });

  it('stops reading once told to', async () => {
    const data: string[] = [];
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: 1\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    await readSse(stream, newCursor(), { onData: (d) => data.push(d), stop: () => data.length > 0 });
    expect(data).toEqual(['1']);
    expect(cancelled).toBe(true);
  });
});
