import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestContext } from '../../server/index.js';
import { ParkedCalls, type StartCall } from './parked.js';

afterEach(() => void vi.useRealTimers());

/** A front request of `subject` whose client never answers (the park waits for a retry). */
function front(subject: string | undefined): RequestContext {
  const signal = new AbortController().signal;
  return {
    signal,
    inputResponses: {},
    auth: subject === undefined ? undefined : { subject, scopes: [] },
    elicit: () => new Promise(() => undefined),
  } as unknown as RequestContext;
}

/** A backend call that asks its client for input at once and waits for the answer. */
const asking: StartCall = ({ onInput, signal }) =>
  onInput({ server: 's', kind: 'elicitation', method: 'elicitation/create', params: {}, signal });

describe('parked calls are bounded globally and per principal', () => {
  it('a principal over maxParkedCallsPerPrincipal and anyone over maxParkedCalls get -32600 (HTTP 429)', async () => {
    vi.useFakeTimers();
    const parked = new ParkedCalls({ parkTimeoutMs: 1000, maxParkedCalls: 3, maxParkedCallsPerPrincipal: 1 });
    void parked.run(front('alice'), 'a', asking);
    await expect(parked.run(front('alice'), 'b', asking)).rejects.toMatchObject({
      code: -32600,
      httpStatus: 429,
      message: expect.stringContaining('maxParkedCallsPerPrincipal'),
    });
    void parked.run(front('bob'), 'c', asking);
    void parked.run(front(undefined), 'd', asking);
    expect(parked.size).toBe(3);
    await expect(parked.run(front('carol'), 'e', asking)).rejects.toMatchObject({
      message: expect.stringContaining('maxParkedCalls'),
    });
    // Parks that expire give their slots back.
    await vi.advanceTimersByTimeAsync(1001);
    expect(parked.size).toBe(0);
    void parked.run(front('alice'), 'f', asking);
    expect(parked.size).toBe(1);
  });
});
