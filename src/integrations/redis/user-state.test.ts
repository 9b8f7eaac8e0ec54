/**
 * `ctx.userState` across a fleet: two instances sharing one real redis-server (the
 * fleet's user state and legacy session stores), callers with real ES256 tokens on both
 * eras. What one principal keeps on one instance it reads on the other, on either era;
 * bounds count the principal's entries fleet-wide; principals stay apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createHttpHandler, type HttpHandler } from '../../server/http/index.js';
import { startRedis, type TestRedis } from '../../../bench/harness/redis.js';
import { startRealm, type TokenRealm } from '../../../test/support/token-realm.js';
import { callTool, notesServer, openLegacy, type Caller } from '../../../test/support/user-state.js';
import { until } from '../../../test/support/http-harness.js';
import { connectRedis, createRedisFleet, createRedisUserStateStore, type RedisFleet } from './index.js';

const RESOURCE = 'http://127.0.0.1:9/mcp';
let redis: TestRedis;
let realm: TokenRealm;
const connections: Redis[] = [];
const fleets: RedisFleet[] = [];
const handlers: HttpHandler[] = [];
let a: HttpHandler;
let b: HttpHandler;
const tokens: Record<string, string> = {};

async function instance(): Promise<HttpHandler> {
  const connection = await connectRedis(redis.url);
  connections.push(connection);
  const fleet = await createRedisFleet(connection, { prefix: 'notes:' });
  fleets.push(fleet);
  const server = notesServer({ userState: { store: fleet.userStateStore, maxKeysPerPrincipal: 3 } });
  const handler = createHttpHandler(server, {
    auth: realm.guard(RESOURCE),
    sessionStore: fleet.sessionStore,
  });
  handlers.push(handler);
  return handler;
}

beforeAll(async () => {
  [redis, realm] = await Promise.all([startRedis(), startRealm()]);
  [a, b] = [await instance(), await instance()];
  for (const sub of ['alice', 'bob', 'carol']) tokens[sub] = await realm.token(RESOURCE, { sub });
});
afterAll(async () => {
  for (const handler of handlers) handler.close();
  for (const fleet of fleets) await fleet.close();
  for (const connection of connections) connection.disconnect();
  await realm?.close();
  await redis?.stop();
});

const set = (caller: Caller, key: string, value: unknown, ttlMs?: number) =>
  callTool(RESOURCE, caller, {
    name: 'note_set',
    args: ttlMs === undefined ? { key, value } : { key, value, ttlMs },
  });
const get = async (caller: Caller, key: string) =>
  JSON.parse((await callTool(RESOURCE, caller, { name: 'note_get', args: { key } })).text!) as unknown;

describe('user state in Redis, two instances', () => {
  it('reads on instance B, on either era, what a principal kept on instance A', async () => {
    expect((await set({ token: tokens.alice, via: a }, 'theme', { dark: true })).text).toBe('kept');
    expect(await get({ token: tokens.alice, via: b }, 'theme')).toEqual({ dark: true });
    const session = await openLegacy(RESOURCE, tokens.alice, b);
    expect(await get({ token: tokens.alice, via: a, session }, 'theme')).toEqual({ dark: true });
    expect(await get({ token: tokens.bob, via: b }, 'theme')).toBeNull();
  });

  it('keeps concurrent principals writing one key on both instances apart', async () => {
    const who = ['alice', 'bob', 'carol'];
    const callers = who.flatMap((sub) => [a, b].map((via) => ({ sub, caller: { token: tokens[sub], via } })));
    await Promise.all(callers.map(({ sub, caller }) => set(caller, 'same', sub)));
    expect(await Promise.all(callers.map(({ caller }) => get(caller, 'same')))).toEqual(
      callers.map(({ sub }) => sub),
    );
    await callTool(RESOURCE, { token: tokens.bob, via: b }, { name: 'note_delete', args: { key: 'same' } });
    expect(await get({ token: tokens.alice, via: a }, 'same')).toBe('alice');
    expect(await get({ token: tokens.bob, via: a }, 'same')).toBeNull();
  });

  it("counts a principal's keys over the fleet, and its refusal leaves the others' writes alone", async () => {
    const carolA = { token: tokens.carol, via: a };
    const carolB = { token: tokens.carol, via: b };
    // carol holds 'same' already: two more keys, one per instance, reach her bound of 3.
    expect((await set(carolA, 'k1', 1)).text).toBe('kept');
    expect((await set(carolB, 'k2', 2)).text).toBe('kept');
    const refused = await set(carolA, 'k3', 3);
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ data: { limit: 'maxKeysPerPrincipal', max: 3 } });
    expect((await set(carolB, 'k1', 'replaced')).text).toBe('kept');
    expect((await set({ token: tokens.alice, via: b }, 'k3', 3)).text).toBe('kept');
  });

  it('expires an entry after its own TTL on every instance', async () => {
    await set({ token: tokens.bob, via: a }, 'brief', 'soon gone', 200);
    await set({ token: tokens.bob, via: a }, 'lasting', 'stays');
    expect(await get({ token: tokens.bob, via: b }, 'brief')).toBe('soon gone');
    await until(async () => (await get({ token: tokens.bob, via: b }, 'brief')) === null);
    expect(await get({ token: tokens.bob, via: b }, 'lasting')).toBe('stays');
  });

  it('a scope whose principal ends like another scope cannot reach its entries', async () => {
    const store = createRedisUserStateStore(connections[0]!, { prefix: 'shape:' });
    const write = { text: '1', bytes: 2, ttlMs: 10_000, maxKeys: 10, maxBytes: 100 };
    await store.set({ ...write, scope: 'p:a}:entry:x', key: 'y' });
    expect(await store.get('p:a', 'x}:entry:y')).toBeUndefined();
    expect(await store.get('p:a}:entry:x', 'y')).toBe('1');
  });
});
