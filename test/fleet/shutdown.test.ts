/**
 * A fleet instance stopped with SIGTERM ends its listen streams gracefully: the client
 * gets the completion result, listens again through the balancer on another instance, and
 * still hears a change made after that (2026-07-28 basic/patterns/subscriptions
 * "Graceful Closure").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, streamableHttp, type Client } from '../../src/client/index.js';
import type { JsonRpcNotification } from '../../src/core/index.js';
import { startRedis, type TestRedis } from '../../bench/harness/redis.js';
import { startFleet, type FleetInstance } from '../support/fleet.js';
import { until } from '../support/wait.js';

let redis: TestRedis;
let fleet: FleetInstance[];
const clients: Client[] = [];

beforeAll(async () => {
  redis = await startRedis();
  fleet = await startFleet(redis.url, ['d', 'e'], { leaseMs: 1500, pollMs: 50 });
}, 30_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  for (const instance of fleet ?? []) await instance.kill();
  await redis?.stop();
});

describe('SIGTERM to a fleet instance holding a listen', () => {
  it('completes the listen; the client listens again on another instance and hears a later change', async () => {
    const [d, e] = fleet as [FleetInstance, FleetInstance];
    // A balancer that stops routing to an instance once it is told the instance drains.
    let live = [d.url, e.url];
    const balanced: typeof fetch = (_input, init) => fetch(live[0]!, init);
    const acknowledged: JsonRpcNotification[] = [];
    const client = createClient({
      name: 'fleet-shutdown',
      version: '1',
      era: 'modern',
      onNotification: (n) =>
        void (n.method === 'notifications/subscriptions/acknowledged' && acknowledged.push(n)),
    });
    clients.push(client);
    await client.connect(streamableHttp(d.url, { fetch: balanced }));
    const sub = client.listen({ toolsListChanged: true });
    const seen: string[] = [];
    const done = (async () => {
      for await (const n of sub) seen.push(n.method);
    })();
    await sub.acknowledged;
    live = [e.url];
    await d.kill('SIGTERM');
    await until(() => acknowledged.length === 2, 10_000);
    const other = createClient({ name: 'other', version: '1', era: 'modern' });
    clients.push(other);
    await other.connect(streamableHttp(e.url));
    await other.callTool('add_tool', {});
    await until(() => seen.length > 0, 10_000);
    expect(seen).toEqual(['notifications/tools/list_changed']);
    sub.close();
    await expect(done).resolves.toBeUndefined();
  });
});
