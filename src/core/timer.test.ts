import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, setTimer, timerDelay } from './timer.js';

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
