import { describe, expect, it, vi } from 'vitest';
import { createLinkedPair } from '../testing/linked-pair.js';
import { deferred, turns, until } from '../../test/support/wait.js';
import { connect, createServer } from '../server/index.js';
import { createClient } from './index.js';

describe('client timeouts beyond what a timer can wait', () => {
  it('timeoutMs = 1e10 is no limit: a slow tool call is answered, not failed after 1 ms', async () => {
    const gate = deferred<string>();
    let started = false;
    const server = createServer({ name: 's', version: '1' });
    server.tool('slow', { inputSchema: { type: 'object' } }, () => ((started = true), gate.promise));
    const [a, b] = createLinkedPair();
    await connect(server, b);
    const client = createClient({ name: 'c', version: '1', timeoutMs: 1e10, probeTimeoutMs: 1e10 });
    await client.connect(a);
    let outcome: unknown = 'pending';
    // Fake timers: an overflowed delay (1 ms) would fire when the clock moves 5 ms on.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const call = client.callTool('slow', {}).then(
      (r) => (outcome = r.content),
      (error: unknown) => (outcome = error),
    );
    try {
      await until(() => started);
      // Past the 1 ms a timer overflow would have used: the call is still waiting.
      await vi.advanceTimersByTimeAsync(5);
      await turns(3);
      expect(outcome).toBe('pending');
    } finally {
      vi.useRealTimers();
    }
    gate.resolve('done');
    await call;
    expect(outcome).toEqual([{ type: 'text', text: 'done' }]);
    await client.close();
  });
});
