import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bufferedResponse, fetchWhole, withDeadline } from './deadline.js';

beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
afterEach(() => void vi.useRealTimers());

const never = (): Promise<never> => new Promise<never>(() => undefined);

describe('withDeadline', () => {
  it('rejects with TIMEOUT naming the URL and the bound, even when the work ignores its signal', async () => {
    let seen: AbortSignal | undefined;
    const call = withDeadline(
      { url: 'https://a.example/x', ms: 250 },
      (signal) => ((seen = signal), never()),
    );
    const settled = call.catch((e: unknown) => e);
    vi.advanceTimersByTime(250);
    await expect(settled).resolves.toMatchObject({
      code: 'TIMEOUT',
      message: 'https://a.example/x: no complete answer within 250 ms',
    });
    expect(seen?.aborted).toBe(true);
  });

  it('does not show credentials in the URL', async () => {
    const settled = withDeadline({ url: 'https://u:secret@a.example/', ms: 1 }, never).catch((e: Error) => e);
    vi.advanceTimersByTime(1);
    expect(((await settled) as Error).message).not.toContain('secret');
  });

  it("ends at once with the caller's abort reason", async () => {
    const caller = new AbortController();
    const settled = withDeadline({ url: 'https://a.example/', ms: 1000, signal: caller.signal }, never).catch(
      (e: unknown) => e,
    );
    caller.abort(new Error('stop'));
    await expect(settled).resolves.toMatchObject({ message: 'stop' });
  });

  it('returns what the work returns within the bound, and what it throws', async () => {
    await expect(withDeadline({ url: 'x', ms: 10 }, async () => 7)).resolves.toBe(7);
    await expect(withDeadline({ url: 'x', ms: 10 }, () => Promise.reject(new Error('no')))).rejects.toThrow(
      'no',
    );
  });
});

describe('bufferedResponse and fetchWhole', () => {
  it('keeps status and headers and refuses a body over the limit, by header or by bytes', async () => {
    const ok = await bufferedResponse(new Response('{"a":1}', { status: 201, headers: { x: 'y' } }), 10, 'u');
    expect([ok.status, ok.headers.get('x'), await ok.text()]).toEqual([201, 'y', '{"a":1}']);
    await expect(
      bufferedResponse(new Response('x'.repeat(11)), 10, 'https://a.example/'),
    ).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: 'https://a.example/: response body larger than 10 bytes',
    });
  });

  it('bounds the body read too: a body that never ends times out', async () => {
    const stalledBody = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(new TextEncoder().encode('{"a":')),
    });
    const fetcher = (async () => new Response(stalledBody)) as unknown as typeof fetch;
    const settled = fetchWhole(fetcher, { url: 'https://a.example/m' }, { ms: 100, maxBytes: 1000 }).catch(
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(100);
    await expect(settled).resolves.toMatchObject({ code: 'TIMEOUT' });
  });
});
