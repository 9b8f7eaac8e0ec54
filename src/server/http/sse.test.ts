import { describe, expect, it } from 'vitest';
import { SseWriter } from './sse.js';

describe('SseWriter', () => {
  it('ends the stream and cancels the work when a client leaves too much unread', async () => {
    let cancelled = 0;
    const writer = new SseWriter({ keepAliveMs: 0, onCancel: () => cancelled++, maxBufferedBytes: 10_000 });
    const event = { data: 'x'.repeat(1000) };
    let sent = 0;
    while (writer.send(event)) sent++;
    expect(sent).toBeGreaterThanOrEqual(9);
    expect(sent).toBeLessThan(11);
    expect(writer.closed).toBe(true);
    expect(cancelled).toBe(1);
    await expect(writer.body.getReader().read()).rejects.toThrow(/read too slowly/);
  });

  it('keeps a client that reads, however much passes through', async () => {
    const writer = new SseWriter({ keepAliveMs: 0, maxBufferedBytes: 10_000 });
    const reader = writer.body.getReader();
    for (let i = 0; i < 100; i++) {
      expect(writer.send({ data: 'x'.repeat(1000) })).toBe(true);
      await reader.read();
    }
    expect(writer.closed).toBe(false);
  });
});
