/**
 * Three mcpkit instances and one Redis behave as one server:
 * listen streams hear changes made elsewhere, tasks are polled and answered through any
 * instance, a killed instance's tasks fail (or re-run when retry-safe) within the lease,
 * requestState opens on any instance, and a Redis restart is survived.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, streamableHttp, type Client, type TaskHandle } from '../../src/client/index.js';
import type { JsonRpcNotification } from '../../src/core/jsonrpc.js';
import { roundRobin, startFleet, type FleetInstance } from '../support/fleet.js';
import { startRedis, type TestRedis } from '../../bench/harness/redis.js';
import { until } from '../support/wait.js';

const LEASE_MS = 1500;
let redis: TestRedis;
let fleet: FleetInstance[];
const clients: Client[] = [];

beforeAll(async () => {
  redis = await startRedis();
  fleet = await startFleet(redis.url, ['a', 'b', 'c'], { leaseMs: LEASE_MS, pollMs: 50 });
}, 30_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  for (const instance of fleet ?? []) await instance.kill();
  await redis?.stop();
});

async function clientOf(target: string | string[], answer = true): Promise<Client> {
  const urls = [target].flat();
  const client = createClient({
    name: 'fleet-test',
    version: '1',
    era: 'modern',
    timeoutMs: 10_000,
    handlers: { elicitation: async () => ({ action: 'accept', content: { ok: answer, name: 'Ada' } }) },
  });
  const transport = streamableHttp(urls[0]!, urls.length > 1 ? { fetch: roundRobin(urls).fetch } : {});
  await client.connect(transport);
  clients.push(client);
  return client;
}

const text = (result: unknown): string =>
  ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text).join('');

function collect(sub: AsyncIterable<JsonRpcNotification>): JsonRpcNotification[] {
  const seen: JsonRpcNotification[] = [];
  void (async () => {
    for await (const n of sub) seen.push(n);
  })().catch(() => undefined);
  return seen;
}

describe('a fleet of three instances on one Redis', () => {
  it('delivers a tool list change made on B and a resource update made on C to a listen stream on A', async () => {
    const [a, b, c] = fleet;
    const onA = await clientOf(a!.url);
    const sub = onA.listen({ toolsListChanged: true, resourceSubscriptions: ['fleet://note'] });
    await sub.acknowledged;
    const seen = collect(sub);
    expect(text(await (await clientOf(b!.url)).callTool('add_tool', {}))).toBe('added extra_b_1 on b');
    await (await clientOf(c!.url)).callTool('touch', { uri: 'fleet://note' });
    await until(() => seen.length >= 2);
    expect(seen.map((n) => n.method)).toEqual([
      'notifications/tools/list_changed',
      'notifications/resources/updated',
    ]);
    expect(seen[1]?.params).toMatchObject({ uri: 'fleet://note' });
    sub.close();
  });

  it('runs a task started on A to completion, polled through B and answered through C', async () => {
    const [a, b, c] = fleet;
    const handle = (await (await clientOf(a!.url)).callTool('approve', {}, { task: 'allow' })) as TaskHandle;
    const viaB = (await clientOf(b!.url)).resumeTask(handle.reference);
    await until(async () => (await viaB.status()).status === 'input_required');
    const result = await (await clientOf(c!.url)).resumeTask(handle.reference).result();
    expect(text(result)).toBe('approved on a');
    expect(await viaB.status()).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'approved on a' }] },
    });
  });

  it('opens requestState sealed by one instance on another (a shared key ring)', async () => {
    const balanced = await clientOf(fleet.map((i) => i.url));
    const result = await balanced.callTool('sign', {});
    expect(text(result)).toMatch(/^signed Ada on [abc]$/);
  });

  it('polls a task through every instance in turn, round-robin per request', async () => {
    const balanced = await clientOf(fleet.map((i) => i.url));
    const handle = (await balanced.callTool('slow', { ms: 200 }, { task: 'allow' })) as TaskHandle;
    expect(text(await handle.result())).toMatch(/^worked 200 ms on [abc]$/);
  });

  it('stops the handler on A when the task is cancelled through B', async () => {
    const [a, b] = fleet;
    const onA = await clientOf(a!.url);
    const before = text(await onA.callTool('stopped', {}));
    const handle = (await onA.callTool('slow', { ms: 60_000 }, { task: 'allow' })) as TaskHandle;
    await (await clientOf(b!.url)).resumeTask(handle.reference).cancel();
    expect((await handle.status()).status).toBe('cancelled');
    const count = Number(before.split(' ')[0]);
    await until(async () => text(await onA.callTool('stopped', {})) === `${count + 1} stopped on a`);
  });

  it('fails the task of a SIGKILLed instance within the lease, and re-runs a retry-safe one elsewhere', async () => {
    const [a, b] = fleet;
    const onA = await clientOf(a!.url);
    const doomed = (await onA.callTool('slow', { ms: 60_000 }, { task: 'allow' })) as TaskHandle;
    const safe = (await onA.callTool('slow_retry_safe', { ms: 2000 }, { task: 'allow' })) as TaskHandle;
    const killedAt = Date.now();
    await a!.kill('SIGKILL');
    const viaB = await clientOf(b!.url);
    const failed = viaB.resumeTask(doomed.reference);
    await until(async () => (await failed.status()).status === 'failed', 4 * LEASE_MS);
    expect(Date.now() - killedAt).toBeLessThan(3 * LEASE_MS);
    const task = await failed.status();
    expect(task.error).toMatchObject({ code: -32603, message: expect.stringMatching(/lease expired/) });
    const rerun = viaB.resumeTask(safe.reference);
    expect((await rerun.status()).statusMessage).toMatch(/Restarted on another server instance/);
    expect(text(await rerun.result())).toMatch(/^worked 2000 ms on [bc]$/);
  });

  it('survives a Redis restart: listen streams and tasks work again; nothing kept in Redis survives', async () => {
    const [, b, c] = fleet;
    const onC = await clientOf(c!.url);
    const before = (await onC.callTool('slow', { ms: 10 }, { task: 'allow' })) as TaskHandle;
    await before.result();
    const sub = (await clientOf(b!.url)).listen({ toolsListChanged: true });
    await sub.acknowledged;
    const seen = collect(sub);
    await redis.restart();
    await expect(onC.resumeTask(before.reference).status()).rejects.toMatchObject({ code: -32602 });
    await until(async () => {
      await onC.callTool('add_tool', {});
      return seen.length > 0;
    }, 10_000);
    expect(seen[0]?.method).toBe('notifications/tools/list_changed');
    const after = (await onC.callTool('slow', { ms: 10 }, { task: 'allow' })) as TaskHandle;
    expect(text(await after.result())).toBe('worked 10 ms on c');
    sub.close();
  });
});
