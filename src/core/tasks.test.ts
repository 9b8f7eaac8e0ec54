import { describe, expect, it } from 'vitest';
import { applyResponses, type TaskState } from './tasks.js';

function waiting(): TaskState {
  return {
    taskId: 't1',
    status: 'input_required',
    createdAt: '2026-01-01T00:00:00.000Z',
    lastUpdatedAt: '2026-01-01T00:00:00.000Z',
    ttlMs: 60_000,
    inputRequests: { 'elicitation-1': { method: 'elicitation/create', params: {} } },
    internal: { answers: {} },
  };
}

describe('applyResponses', () => {
  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty'])(
    'ignores the inherited key %s: it names no input request',
    (key) => {
      const responses = JSON.parse(`{"${key}": {"action": "accept"}}`) as Record<string, unknown>;
      expect(applyResponses(waiting(), responses, new Date())).toBeUndefined();
    },
  );

  it('takes an answer to an outstanding request and resumes the task', () => {
    const next = applyResponses(waiting(), { 'elicitation-1': { action: 'decline' } }, new Date());
    expect(next?.status).toBe('working');
    expect(next?.internal.answers).toEqual({ 'elicitation-1': { action: 'decline' } });
  });
});
