/**
 * A client's answer to another instance's request, published while that instance's
 * subscriber connection is down, is not lost (a fault the chaos run found):
 * the store keeps it until the request has it and delivers it again on resubscribing.
 * Real redis-server; the drop is `CLIENT KILL TYPE pubsub`, and the asking instance
 * reconnects only after 400 ms, so the answer is certainly published while it is away.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionMessage } from '../../server/http/index.js';
import { startRedis, type TestRedis } from '../../../bench/harness/redis.js';
import { until } from '../../../test/support/wait.js';
import { connectRedis, createRedisSessionStore, type RedisSessionStore } from './index.js';

let redis: TestRedis;
const connections: Redis[] = [];
const stores: RedisSessionStore[] = [];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  for (const store of stores) await store.close();
  for (const c of connections) c.disconnect();
  await redis?.stop();
});

async function store(prefix: string, reconnectAfterMs?: number): Promise<RedisSessionStore> {
  const options = reconnectAfterMs === undefined ? {} : { retryStrategy: () => reconnectAfterMs };
  const connection = await connectRedis(redis.url, options);
  connections.push(connection);
  const created = createRedisSessionStore(connection, { prefix });
  stores.push(created);
  return created;
}

const RECORD = {
  owner: '',
  protocolVersion: '2025-11-25' as const,
  clientInfo: { name: 'c', version: '1' },
  clientCapabilities: {},
  standaloneStreamId: 'get',
  logLevel: 'info' as const,
  initialized: true,
  subscriptions: [],
};

const answer = (id: string): SessionMessage => ({
  type: 'response',
  message: { jsonrpc: '2.0', id, result: { action: 'accept', content: { ok: true } } },
});

describe('the Redis session store, while a subscriber reconnects', () => {
  it('delivers an answer published meanwhile once the subscriber is back, and forgets it when answered', async () => {
    const asker = await store('kept1:', 400);
    const answerer = await store('kept1:');
    await asker.create({ ...RECORD, id: 's1' });
    const heard: SessionMessage[] = [];
    await asker.subscribe('s1', (m) => heard.push(m));

    const admin = await connectRedis(redis.url);
    connections.push(admin);
    await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
    await answerer.publish('s1', answer('a.1'));
    await answerer.publish('s1', { type: 'send', message: { jsonrpc: '2.0', method: 'notifications/x' } });

    await until(() => heard.some((m) => m.type === 'response'), 10_000);
    expect(heard).toEqual([answer('a.1')]); // the answer is kept; other messages are not
    expect(await admin.hlen('kept1:session:s1:answers')).toBe(1);
    await asker.answered?.('s1', 'a.1');
    expect(await admin.hlen('kept1:session:s1:answers')).toBe(0);
  });

  it('drops the kept answers with the session', async () => {
    const one = await store('kept2:');
    await one.create({ ...RECORD, id: 's2' });
    await one.publish('s2', answer('b.7'));
    const admin = connections.at(-1)!;
    expect(await admin.hlen('kept2:session:s2:answers')).toBe(1);
    expect(await one.delete('s2')).toBe(true);
    expect(await admin.exists('kept2:session:s2:answers')).toBe(0);
  });
});
