import { describe, expect, it, vi } from 'vitest';
import { thenOrNow } from './then-or-now.js';

describe('thenOrNow', () => {
  it('answers a plain value at once, with no promise', () => {
    const next = vi.fn((value: number, arg: number) => value + arg);
    const result = thenOrNow(2, next, 3);
    expect(result).toBe(5);
    expect(next).toHaveBeenCalledOnce();
  });

  it('answers a promise once it fulfils, passing arg through', async () => {
    const result = thenOrNow(Promise.resolve(2), (value, arg: string) => `${arg}${value}`, 'n=');
    expect(result).toBeInstanceOf(Promise);
    await expect(result).resolves.toBe('n=2');
  });

  it('passes a rejection through without calling next', async () => {
    const next = vi.fn((value: number) => value);
    await expect(thenOrNow(Promise.reject(new Error('no')), next)).rejects.toThrow('no');
    expect(next).not.toHaveBeenCalled();
  });

  it('lets next answer with a promise', async () => {
    await expect(thenOrNow(1, (value) => Promise.resolve(value * 10))).resolves.toBe(10);
  });
});
