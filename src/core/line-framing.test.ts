import { describe, expect, it } from 'vitest';
import { LineDecoder, encodeFrame, type LineEvent } from './line-framing.js';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

function lines(events: LineEvent[]): string[] {
  return events.map((e) => (e.kind === 'line' ? e.text : `<too-long ${e.maxLineBytes}>`));
}

function decodeAll(chunks: Uint8Array[], maxLineBytes?: number): string[] {
  const decoder = new LineDecoder(maxLineBytes === undefined ? {} : { maxLineBytes });
  const events = chunks.flatMap((c) => decoder.push(c));
  return lines([...events, ...decoder.end()]);
}

/** Splits bytes at the given offsets. */
function split(bytes: Uint8Array, at: number[]): Uint8Array[] {
  const cuts = [0, ...at, bytes.length];
  return cuts.slice(1).map((end, i) => bytes.subarray(cuts[i], end));
}

describe('LineDecoder', () => {
  const euro = utf8('{"a":"€"}\n'); // € is 3 bytes at offsets 6..8
  const cases: { name: string; chunks: Uint8Array[]; max?: number; expected: string[] }[] = [
    { name: 'yields one line per newline', chunks: [utf8('a\nb\n')], expected: ['a', 'b'] },
    {
      name: 'joins a line split across chunks',
      chunks: [utf8('ab'), utf8('c'), utf8('d\n')],
      expected: ['abcd'],
    },
    { name: 'strips \\r before \\n', chunks: [utf8('a\r\nb\r'), utf8('\n')], expected: ['a', 'b'] },
    { name: 'skips empty lines', chunks: [utf8('\n\r\na\n\n')], expected: ['a'] },
    { name: 'yields a final line without a newline at end', chunks: [utf8('a\nb')], expected: ['a', 'b'] },
    {
      name: 'decodes a character split after its first byte',
      chunks: split(euro, [7]),
      expected: ['{"a":"€"}'],
    },
    {
      name: 'decodes a character split byte by byte',
      chunks: split(euro, [6, 7, 8, 9]),
      expected: ['{"a":"€"}'],
    },
    {
      name: 'decodes a 4-byte character split in the middle',
      chunks: split(utf8('😀\n'), [2]),
      expected: ['😀'],
    },
    {
      name: 'replaces invalid UTF-8 with U+FFFD',
      chunks: [new Uint8Array([0xff, 0x0a])],
      expected: ['\ufffd'],
    },
    { name: 'accepts a line exactly at the limit', chunks: [utf8('abcd\n')], max: 4, expected: ['abcd'] },
    {
      name: 'reports a line over the limit once and resumes at the next line',
      chunks: [utf8('abc'), utf8('def'), utf8('ghi\nok\n')],
      max: 4,
      expected: ['<too-long 4>', 'ok'],
    },
    {
      name: 'reports an over-long line within one chunk',
      chunks: [utf8('abcdef\nok\n')],
      max: 4,
      expected: ['<too-long 4>', 'ok'],
    },
    {
      name: 'drops an over-long unterminated line at end',
      chunks: [utf8('ok\nabcdef')],
      max: 4,
      expected: ['ok', '<too-long 4>'],
    },
  ];

  it.each(cases)('$name', ({ chunks, max, expected }) => {
    expect(decodeAll(chunks, max)).toEqual(expected);
  });

  it('decodes a several-MiB line arriving in many small chunks in linear time', () => {
    const big = 'x'.repeat(8 * 1024 * 1024) + 'é';
    const bytes = utf8(`${JSON.stringify({ big })}\n`);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 4093) chunks.push(bytes.subarray(i, i + 4093));
    const started = performance.now();
    const out = decodeAll(chunks);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(out).toHaveLength(1);
    expect((JSON.parse(out[0] ?? '') as { big: string }).big).toBe(big);
  });
});

describe('encodeFrame', () => {
  const messages = [
    { name: 'a request', message: { jsonrpc: '2.0' as const, id: 1, method: 'ping' } },
    {
      name: 'newlines inside strings',
      message: { jsonrpc: '2.0' as const, method: 'm', params: { s: 'a\nb\r\nc' } },
    },
    {
      name: 'U+2028 and U+2029',
      message: { jsonrpc: '2.0' as const, method: 'm', params: { s: 'a\u2028b\u2029c' } },
    },
    { name: 'multi-byte text', message: { jsonrpc: '2.0' as const, id: 'x', result: { s: 'héllo 😀 €' } } },
  ];

  it.each(messages)('encodes $name as exactly one line that round-trips', ({ message }) => {
    const frame = encodeFrame(message);
    expect(frame.endsWith('\n')).toBe(true);
    expect(frame.slice(0, -1)).not.toContain('\n');
    const out = decodeAll(split(utf8(frame), [1, 5]));
    expect(out.map((l) => JSON.parse(l) as unknown)).toEqual([message]);
  });

  it('leaves U+2028 and U+2029 unescaped', () => {
    expect(encodeFrame({ jsonrpc: '2.0', method: 'a\u2028\u2029' })).toContain('\u2028\u2029');
  });
});
