import { describe, expect, it } from 'vitest';
import { LocalError } from '../../core/index.js';
import { ReceivedResults, withReceived } from './received.js';

const out = (message: unknown) => ({ direction: 'out' as const, at: 0, message });
const incoming = (message: unknown) => ({ direction: 'in' as const, at: 0, message });

describe('ReceivedResults', () => {
  it('keeps the result of a tools/call by tool name until taken once', () => {
    const results = new ReceivedResults();
    results.note(out({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'forecast' } }));
    results.note(incoming({ jsonrpc: '2.0', id: 7, result: { structuredContent: { celsius: 'warm' } } }));
    expect(results.take('forecast')).toEqual({ structuredContent: { celsius: 'warm' } });
    expect(results.take('forecast')).toBeUndefined();
  });

  it('ignores answers to other requests, errors, batches and notes of unrecorded frames', () => {
    const results = new ReceivedResults();
    results.note(out({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    results.note(incoming({ jsonrpc: '2.0', id: 1, result: { tools: [] } }));
    results.note(out({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'a' } }));
    results.note(incoming({ jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'x' } }));
    results.note(incoming([{ jsonrpc: '2.0', id: 2, result: {} }]));
    results.note(incoming({ note: 'frame of 300000 characters not recorded' }));
    expect(results.take('a')).toBeUndefined();
  });

  it('forgets the oldest unanswered calls beyond a hundred', () => {
    const results = new ReceivedResults();
    for (let id = 0; id <= 100; id++)
      results.note(out({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: `t${id}` } }));
    results.note(incoming({ jsonrpc: '2.0', id: 0, result: { content: [] } }));
    results.note(incoming({ jsonrpc: '2.0', id: 100, result: { content: [] } }));
    expect(results.take('t0')).toBeUndefined();
    expect(results.take('t100')).toEqual({ content: [] });
  });
});

describe('withReceived', () => {
  it('adds the received result to an INVALID_RESULT error only', () => {
    const refused = new LocalError('INVALID_RESULT', 'does not match its outputSchema');
    const enriched = withReceived(refused, { structuredContent: 1 }) as Error & {
      data: unknown;
      code: string;
    };
    expect(enriched.message).toBe('does not match its outputSchema');
    expect(enriched.code).toBe('INVALID_RESULT');
    expect(enriched.data).toEqual({ received: { structuredContent: 1 } });
    const other = new Error('boom');
    expect(withReceived(other, { structuredContent: 1 })).toBe(other);
    expect(withReceived(refused, undefined)).toBe(refused);
  });
});
