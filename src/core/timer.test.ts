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

  /** A controller whose signal counts the abort listeners it holds (added and not yet removed). */
  function counted(): { controller: AbortController; listeners: () => number } {
    const controller = new AbortController();
    const held = new Set<unknown>();
    const { signal } = controller;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((type: string, fn: EventListener, options?: AddEventListenerOptions) => {
      held.add(fn);
      add(type, fn, options);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((type: string, fn: EventListener) => {
      held.delete(fn);
      remove(type, fn);
    }) as typeof signal.removeEventListener;
    return { controller, listeners: () => held.size };
  }

  it('resolves after the delay and leaves no abort listener behind', async () => {
    vi.useFakeTimers();
    const { controller, listeners } = counted();
    const waits = [sleep(10, controller.signal), sleep(20, controller.signal)];
    expect(listeners()).toBe(2);
    await vi.advanceTimersByTimeAsync(20);
    await Promise.all(waits);
    expect(listeners()).toBe(0);
  });

  it('rejects with LocalError ABORTED carrying the reason when the signal aborts, and removes its listener', async () => {
    vi.useFakeTimers();
    const { controller, listeners } = counted();
    const wait = sleep(60_000, controller.signal).catch((e: unknown) => e);
    const reason = new Error('stop');
    controller.abort(reason);
    expect(await wait).toMatchObject({ name: 'LocalError', code: 'ABORTED', cause: reason });
    expect(listeners()).toBe(0);
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
