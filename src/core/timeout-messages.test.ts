import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOutgoing } from './outgoing.js';
import type { RequestOptions } from './outgoing.js';

afterEach(() => vi.useRealTimers());

/** The message a request's timeout fails it with, after `advance` ms of fake time. */
async function failure(timeoutMs: number, options: RequestOptions, advance: (ms: number) => void) {
  const outgoing = createOutgoing({
    id: 7,
    method: 'tools/call',
    timeoutMs,
    timeoutOption: options.timeoutOption ?? 'timeoutMs',
    options,
    cancel: () => undefined,
  });
  const settled = outgoing.promise.then(
    () => 'resolved',
    (error: Error & { code?: string }) => `${error.code}: ${error.message}`,
  );
  advance(timeoutMs);
  return settled;
}

describe('a request timeout names the limit that fired and its option', () => {
  it('maxTotalTimeoutMs, when the total cap fires first (not the 60 000 ms per-response timeout)', async () => {
    vi.useFakeTimers();
    const message = await failure(60_000, { maxTotalTimeoutMs: 400 }, () => vi.advanceTimersByTime(400));
    expect(message).toBe('TIMEOUT: Request 7 (tools/call) timed out after 400 ms in all (maxTotalTimeoutMs)');
  });

  it('maxTotalTimeoutMs, when progress kept resetting the per-response timeout', async () => {
    vi.useFakeTimers();
    const outgoing = createOutgoing({
      id: 8,
      method: 'tools/call',
      timeoutMs: 300,
      timeoutOption: 'timeoutMs',
      options: { maxTotalTimeoutMs: 1000, onprogress: () => undefined },
      cancel: () => undefined,
    });
    const settled = outgoing.promise.catch((error: Error) => error.message);
    for (let i = 1; i <= 4; i++) {
      vi.advanceTimersByTime(250);
      outgoing.progress({ progressToken: 1, progress: i });
    }
    vi.advanceTimersByTime(300);
    expect(await settled).toBe('Request 8 (tools/call) timed out after 1000 ms in all (maxTotalTimeoutMs)');
  });

  it('timeoutMs, when no response or progress came in time', async () => {
    vi.useFakeTimers();
    const message = await failure(500, { maxTotalTimeoutMs: 10_000 }, (ms) => vi.advanceTimersByTime(ms));
    expect(message).toBe(
      'TIMEOUT: Request 7 (tools/call) timed out after 500 ms without a response or progress (timeoutMs)',
    );
  });

  it('timeoutMs without "or progress" when progress does not reset it', async () => {
    vi.useFakeTimers();
    const message = await failure(500, { resetTimeoutOnProgress: false }, (ms) => vi.advanceTimersByTime(ms));
    expect(message).toBe(
      'TIMEOUT: Request 7 (tools/call) timed out after 500 ms without a response (timeoutMs)',
    );
  });

  it("the option a library set timeoutMs from, when it names one (a host's requestTimeoutMs)", async () => {
    vi.useFakeTimers();
    const options = { timeoutOption: 'requestTimeoutMs' };
    const message = await failure(500, options, (ms) => vi.advanceTimersByTime(ms));
    expect(message).toBe(
      'TIMEOUT: Request 7 (tools/call) timed out after 500 ms without a response or progress (requestTimeoutMs)',
    );
  });
});
