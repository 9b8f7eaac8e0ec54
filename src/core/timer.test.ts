import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, setTimer, sleep, timerDelay } from './timer.js';

describe('timers for any duration', () => {
  afterEach(() => void vi.useRealTimers());

  it('clamps waits to what a timer can hold', () => {
    expect(timerDelay(2 ** 31)).toBe(MAX_TIMER_MS);
    expect(timerDelay(1e15)).toBe(MAX_TIMER_MS);
    expect(timerDelay(Infinity)).toBe(MAX_TIMER_MS);
    expect(timerDelay(250)).toBe(250);
    expect(timerDelay(-5)).toBe(0);
    expect(timerDelay(NaN)).toBe(0);
  });

  it('never fires a timeout longer than a timer can wait, and fires one that fits', () => {
    vi.useFakeTimers();
    const fired: string[] = [];
    expect(setTimer(() => fired.push('huge'), 2 ** 31)).toBeUndefined();
    expect(setTimer(() => fired.push('inf'), Infinity)).toBeUndefined();
    setTimer(() => fired.push('max'), MAX_TIMER_MS);
    setTimer(() => fired.push('short'), 10);
    vi.advanceTimersByTime(10);
    expect(fired).toEqual(['short']);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(fired).toEqual(['short', 'max']);
  });
});

describe('sleep', () => {
  afterEach(() => void vi.useRealTimers());

  /** The abort listeners `signal` holds (Node's EventTarget exposes them through events.getEventListeners). */
  async function listeners(signal: AbortSignal): Promise<number> {
    const { getEventListeners } = await import('node:events');
    return getEventListeners(signal, 'abort').length;
  }

  it('resolves after the delay and leaves no abort listener behind', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const waits = [sleep(10, controller.signal), sleep(20, controller.signal)];
    expect(await listeners(controller.signal)).toBe(2);
    await vi.advanceTimersByTimeAsync(20);
    await Promise.all(waits);
    expect(await listeners(controller.signal)).toBe(0);
  });

  it('rejects with LocalError ABORTED carrying the reason when the signal aborts, and removes its listener', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const wait = sleep(60_000, controller.signal).catch((e: unknown) => e);
    const reason = new Error('stop');
    controller.abort(reason);
    expect(await wait).toMatchObject({ name: 'LocalError', code: 'ABORTED', cause: reason });
    expect(await listeners(controller.signal)).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once for a signal already aborted, and waits without a signal', async () => {
    vi.useFakeTimers();
    await expect(sleep(10, AbortSignal.abort('gone'))).rejects.toMatchObject({
      code: 'ABORTED',
      cause: 'gone',
    });
    expect(vi.getTimerCount()).toBe(0);
    const wait = sleep(2 ** 40);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    await expect(wait).resolves.toBeUndefined();
  });
});
