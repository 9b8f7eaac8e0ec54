import { describe, expect, it } from 'vitest';
import { checkEnvelope, decodeFrame } from './jsonrpc.js';

describe('decodeFrame', () => {
  it('answers malformed JSON with -32700 and no id', () => {
    const decoded = decodeFrame('{"jsonrpc":"2.0",');
    expect(decoded.kind).toBe('malformed');
    if (decoded.kind === 'malformed') {
      expect(decoded.error.error.code).toBe(-32700);
      expect(decoded.error).not.toHaveProperty('id');
    }
  });

  it('separates batches from single messages', () => {
    expect(decodeFrame('[{"a":1}]').kind).toBe('batch');
    expect(decodeFrame('{"a":1}').kind).toBe('single');
  });
});

describe('checkEnvelope', () => {
  const invalid: [string, unknown, unknown][] = [
    ['a non-object', 42, undefined],
    ['a missing jsonrpc', { id: 1, method: 'm' }, 1],
    ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 1, method: 'm' }, 1],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'm' }, undefined],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'm' }, undefined],
    ['a boolean id', { jsonrpc: '2.0', id: true, method: 'm' }, undefined],
    ['a non-string method', { jsonrpc: '2.0', id: 2, method: 7 }, 2],
    ['array params', { jsonrpc: '2.0', id: 'x', method: 'm', params: [1] }, 'x'],
    ['neither call nor response', { jsonrpc: '2.0', id: 5 }, 5],
  ];
  // A malformed response names a request of the side that would receive the error: the
  // error never echoes that id (the other side would take it as its own request's answer).
  const responses: [string, unknown, number][] = [
    ['result and error together', { jsonrpc: '2.0', id: 3, result: {}, error: { code: 1, message: 'm' } }, 3],
    ['an error without a code', { jsonrpc: '2.0', id: 4, error: { message: 'm' } }, 4],
    ['a non-object result', { jsonrpc: '2.0', id: 6, result: 5 }, 6],
    ['a response without jsonrpc', { id: 7, result: {} }, 7],
  ];
  it.each(responses)(
    'rejects %s with -32600 naming the request it answers, echoing no id',
    (_n, value, id) => {
      const checked = checkEnvelope(value);
      expect(checked.kind).toBe('invalid');
      if (checked.kind !== 'invalid') return;
      expect(checked.error.error.code).toBe(-32600);
      expect(checked.error).not.toHaveProperty('id');
      expect(checked.responseTo).toBe(id);
    },
  );

  it.each(invalid)('rejects %s with -32600, echoing a readable id', (_name, value, id) => {
    const checked = checkEnvelope(value);
    expect(checked.kind).toBe('invalid');
    if (checked.kind !== 'invalid') return;
    expect(checked.error.error.code).toBe(-32600);
    if (id === undefined) expect(checked.error).not.toHaveProperty('id');
    else expect(checked.error.id).toBe(id);
  });

  it.each([0, -7, 'x'.repeat(10_000), '', Number.MAX_SAFE_INTEGER])('accepts id %s unchanged', (id) => {
    const checked = checkEnvelope({ jsonrpc: '2.0', id, method: 'ping' });
    expect(checked).toEqual({ kind: 'request', message: { jsonrpc: '2.0', id, method: 'ping' } });
  });

  it('classifies notifications and responses', () => {
    expect(checkEnvelope({ jsonrpc: '2.0', method: 'notifications/x' }).kind).toBe('notification');
    expect(checkEnvelope({ jsonrpc: '2.0', id: 1, result: {} }).kind).toBe('response');
    expect(checkEnvelope({ jsonrpc: '2.0', error: { code: -32700, message: 'bad' } }).kind).toBe('response');
  });
});
