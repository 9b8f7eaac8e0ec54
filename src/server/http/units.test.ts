import { describe, expect, it } from 'vitest';
import { accepts } from './accept.js';
import { createMemoryEventStore } from './legacy/event-store.js';
import { parseEventId } from './legacy/resumable.js';
import { encodeSseEvent } from './sse.js';

describe('accepts', () => {
  it.each([
    ['application/json', 'application/json', true],
    ['Application/JSON; charset=utf-8', 'application/json', true],
    ['application/json;q=0', 'application/json', false],
    ['*/*;q=0.1', 'text/event-stream', true],
    ['*/*, text/event-stream;q=0', 'text/event-stream', false],
    ['text/*', 'text/event-stream', true],
    ['text/*;q=0, text/event-stream', 'text/event-stream', true],
    ['text/html', 'text/event-stream', false],
    ['application/json; foo="a,b", text/event-stream', 'text/event-stream', true],
    ['garbage', 'application/json', false],
    [null, 'application/json', false],
  ])('%s accepts %s: %s', (header, type, expected) => {
    expect(accepts(header, type)).toBe(expected);
  });
});

describe('SSE encoding', () => {
  it('writes id, retry and one data line per line', () => {
    expect(encodeSseEvent({ id: 's_1', retry: 500, data: 'a\nb' })).toBe(
      'id: s_1\nretry: 500\ndata: a\ndata: b\n\n',
    );
    expect(encodeSseEvent({ data: '' })).toBe('data: \n\n');
  });

  it('parses event ids into stream and sequence', () => {
    expect(parseEventId('abc-def_12')).toEqual({ streamId: 'abc-def', seq: 12 });
    expect(parseEventId('nope')).toBeUndefined();
    expect(parseEventId('_3')).toBeUndefined();
  });
});

describe('the in-memory event store', () => {
  const event = (seq: number) => ({ id: `s_${seq}`, seq, message: { jsonrpc: '2.0' as const, method: 'm' } });

  it('replays the events after a sequence number', () => {
    const store = createMemoryEventStore();
    for (const seq of [1, 2, 3]) store.append('s', event(seq));
    expect((store.since('s', 1) as { seq: number }[]).map((e) => e.seq)).toEqual([2, 3]);
    expect(store.since('other', 0)).toEqual([]);
  });

  it('drops the oldest events beyond maxEvents and forgets deleted streams', () => {
    const store = createMemoryEventStore({ maxEvents: 2 });
    for (const seq of [1, 2, 3]) store.append('s', event(seq));
    expect((store.since('s', 0) as { seq: number }[]).map((e) => e.seq)).toEqual([2, 3]);
    store.deleteStream('s');
    expect(store.since('s', 0)).toEqual([]);
  });
});
