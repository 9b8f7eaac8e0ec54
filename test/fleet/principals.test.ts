/**
 * Isolation on a two-instance fleet on one real redis-server (DESIGN decisions 9 and 13),
 * alice and bob at once with real JWT access tokens, on both eras: a task alice created on
 * instance 1 is hers on instance 2 and unknown to bob on either; a legacy session alice
 * opened on instance 1 serves her on instance 2 and is not found for bob. The same through
 * two gateways that share a task id key and a requestState key, each in front of one
 * instance: alice's task made through gateway 1 is hers through gateway 2, not bob's.
 */
import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, streamableHttp, TaskHandle, type Client } from '../../src/client/index.js';
import { serve, type Served } from '../../src/integrations/node/index.js';
import { connectRedis, createRedisFleet, type RedisFleet } from '../../src/integrations/redis/index.js';
import { createServer, type ServerOptions } from '../../src/server/index.js';
import { createGateway, createHost, type Gateway, type Host } from '../../src/host/index.js';
import { startRedis, type TestRedis } from '../../bench/harness/redis.js';
import { startRealm, type TokenRealm } from '../support/token-realm.js';

/** The public address the instances serve as one resource (what a balancer would front). */
const RESOURCE = 'https://mcp.fleet.example/mcp';
/** The public address of the gateways. */
const GATEWAY = 'https://gateway.fleet.example/mcp';
const requestState: NonNullable<ServerOptions['requestState']> = {
  keys: [{ id: 'fleet', secret: randomBytes(32) }],
};

let redis: TestRedis;
let realm: TokenRealm;
const connections: Redis[] = [];
const fleets: RedisFleet[] = [];
let instances: Served[];
const hosts: Host[] = [];
const gateways: Gateway[] = [];
let fronts: Served[];
const clients: Client[] = [];
let release: () => void;
const released = new Promise<void>((resolve) => (release = resolve));

/** One instance on the shared Redis, behind the realm's guard for {@link RESOURCE}. */
async function instance(name: string): Promise<Served> {
  const connection = await connectRedis(redis.url);
  connections.push(connection);
  const fleet = await createRedisFleet(connection, { prefix: 'principals:' });
  fleets.push(fleet);
  const server = createServer({
    name: 'fleet',
    version: '1.0.0',
    eventBus: fleet.eventBus,
    tasks: { store: fleet.taskStore, pollIntervalMs: 50, instanceId: name },
    requestState,
  });
  server.tool(
    'hold',
    { task: 'optional', inputSchema: z.object({ tag: z.string() }) },
    async ({ tag }, ctx) => {
      await Promise.race([released, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))]);
      return `held ${tag} on ${name}`;
    },
  );
  const http = {
    auth: realm.guard(RESOURCE),
    eventStore: fleet.eventStore,
    sessionStore: fleet.sessionStore,
  };
  return serve(server, { port: 0, http });
}

/** A gateway in front of `backend` (with a token of its own), sharing its keys with the other gateway. */
async function gatewayOf(backend: Served, taskIdKey: Uint8Array): Promise<Served> {
  const token = await realm.token(RESOURCE, { sub: 'gateway' });
  const host = createHost({
    servers: { work: { url: backend.url, headers: { authorization: `Bearer ${token}` } } },
  });
  hosts.push(host);
  await host.start();
  const gateway = createGateway(host, { taskIdKey, server: { requestState } });
  gateways.push(gateway);
  return serve(gateway.server, { port: 0, http: { auth: realm.guard(GATEWAY) } });
}

beforeAll(async () => {
  redis = await startRedis();
  realm = await startRealm();
  instances = [await instance('one'), await instance('two')];
  const taskIdKey = randomBytes(32);
  fronts = [await gatewayOf(instances[0]!, taskIdKey), await gatewayOf(instances[1]!, taskIdKey)];
}, 30_000);

afterAll(async () => {
  release();
  for (const c of clients) await c.close().catch(() => undefined);
  for (const f of fronts ?? []) await f.close();
  for (const g of gateways) g.close();
  for (const h of hosts) await h.close();
  for (const i of instances ?? []) await i.close();
  for (const f of fleets) await f.close();
  for (const c of connections) c.disconnect();
  await realm?.close();
  await redis?.stop();
});

/** A client of `who` on `era` at `url`, with a token for `audience`. */
async function clientOf(
  who: string,
  target: { url: string; audience: string },
  era: 'modern' | 'legacy' = 'modern',
): Promise<Client> {
  const token = await realm.token(target.audience, { sub: who });
  const client = createClient({ name: who, version: '1.0.0', era });
  await client.connect(streamableHttp(target.url, { headers: { authorization: `Bearer ${token}` } }));
  clients.push(client);
  return client;
}

const code = (p: Promise<unknown>) =>
  p.then(
    (r) => `answered ${JSON.stringify(r)}`,
    (e: { code?: number }) => e.code,
  );

const text = (result: unknown): string =>
  ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text).join('');

describe('two instances on one Redis', () => {
  const one = () => ({ url: instances[0]!.url, audience: RESOURCE });
  const two = () => ({ url: instances[1]!.url, audience: RESOURCE });

  it("alice's task made on instance 1 is hers on instance 2 and unknown to bob on both", async () => {
    const [alice1, alice2, bob1, bob2] = await Promise.all([
      clientOf('alice', one()),
      clientOf('alice', two()),
      clientOf('bob', one()),
      clientOf('bob', two()),
    ]);
    const [mine, his] = await Promise.all([
      alice1.callTool('hold', { tag: 'alice' }, { task: 'allow' }),
      bob2.callTool('hold', { tag: 'bob' }, { task: 'allow' }),
    ]);
    if (!(mine instanceof TaskHandle) || !(his instanceof TaskHandle)) throw new Error('expected tasks');
    const reference = { taskId: mine.taskId, toolName: 'hold' };
    expect(await alice2.resumeTask(reference).status()).toMatchObject({
      taskId: mine.taskId,
      status: 'working',
    });
    for (const bob of [bob1, bob2]) {
      expect(await code(bob.resumeTask(reference).status())).toBe(-32602);
      expect(await code(bob.resumeTask(reference).cancel())).toBe(-32602);
    }
    expect(await code(alice2.resumeTask({ taskId: his.taskId, toolName: 'hold' }).status())).toBe(-32602);
    expect(await alice2.resumeTask(reference).status()).toMatchObject({ status: 'working' });
    await alice2.resumeTask(reference).cancel();
    expect(await mine.status()).toMatchObject({ status: 'cancelled' });
    await bob1.resumeTask({ taskId: his.taskId, toolName: 'hold' }).cancel();
  });

  it("alice's legacy session opened on instance 1 serves her on instance 2 and is not found for bob", async () => {
    const [alice, bob] = await Promise.all([
      realm.token(RESOURCE, { sub: 'alice' }),
      realm.token(RESOURCE, { sub: 'bob' }),
    ]);
    const headers = (token: string, session?: string): Record<string, string> => ({
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-11-25',
      authorization: `Bearer ${token}`,
      ...(session ? { 'mcp-session-id': session } : {}),
    });
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'alice', version: '1' },
      },
    };
    const opened = await fetch(instances[0]!.url, {
      method: 'POST',
      headers: headers(alice),
      body: JSON.stringify(initialize),
    });
    await opened.text();
    const session = opened.headers.get('mcp-session-id')!;
    const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const ack = await fetch(instances[1]!.url, {
      method: 'POST',
      headers: headers(alice, session),
      body: initialized,
    });
    expect(ack.status).toBe(202);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const asBob = await Promise.all(
      instances.flatMap(({ url }) => [
        fetch(url, { method: 'POST', headers: headers(bob, session), body: list }),
        fetch(url, { method: 'GET', headers: { ...headers(bob, session), accept: 'text/event-stream' } }),
        fetch(url, { method: 'DELETE', headers: headers(bob, session) }),
      ]),
    );
    for (const r of asBob) await r.body?.cancel();
    expect(asBob.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404]);
    const mine = await fetch(instances[1]!.url, {
      method: 'POST',
      headers: headers(alice, session),
      body: list,
    });
    expect(mine.status).toBe(200);
    expect(await mine.text()).toContain('"hold"');
  });
});

describe('two gateways sharing their keys, each in front of one instance', () => {
  const gw = (i: number) => () => ({ url: fronts[i]!.url, audience: GATEWAY });

  it("alice's task made through gateway 1 is hers through gateway 2 and unknown to bob, modern or legacy", async () => {
    const [alice1, alice2, bob2, bobLegacy] = await Promise.all([
      clientOf('alice', gw(0)()),
      clientOf('alice', gw(1)()),
      clientOf('bob', gw(1)()),
      clientOf('bob', gw(1)(), 'legacy'),
    ]);
    const mine = await alice1.callTool('work__hold', { tag: 'alice' }, { task: 'allow' });
    if (!(mine instanceof TaskHandle)) throw new Error('expected a task');
    const reference = { taskId: mine.taskId, toolName: 'work__hold' };
    expect(await alice2.resumeTask(reference).status()).toMatchObject({
      taskId: mine.taskId,
      status: 'working',
    });
    expect(await code(bob2.resumeTask(reference).status())).toBe(-32602);
    expect(await code(bob2.resumeTask(reference).cancel())).toBe(-32602);
    for (const method of ['tasks/get', 'tasks/cancel'])
      expect(await code(bobLegacy.request(method, { taskId: mine.taskId })), method).toEqual(
        expect.any(Number),
      );
    expect(await alice2.resumeTask(reference).status()).toMatchObject({ status: 'working' });
    release();
    expect(text(await alice2.resumeTask(reference).result())).toBe('held alice on one');
  });
});
