/**
 * `ctx.userState` over real HTTP with real ES256 access tokens, on both eras: each principal
 * reads its own entries whichever era it speaks, and no principal can read, overwrite,
 * delete or starve another's (DESIGN 9). Anonymous callers: a legacy session's own state,
 * refusal on a modern request; on a stream connection, the connection's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProtected, type ProtectedServer } from '../../test/support/protected-server.js';
import { startRealm, type TokenRealm } from '../../test/support/token-realm.js';
import { callTool, notesServer, openLegacy, type Caller } from '../../test/support/user-state.js';
import { createLinkedPair } from '../testing/index.js';
import { Client } from '../client/index.js';
import { connect } from './index.js';
import { toNodeListener } from '../integrations/node/index.js';
import { createServer as createNodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let realm: TokenRealm;
let served: ProtectedServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  realm = await startRealm();
  served = await startProtected(
    (url) => realm.guard(url),
    notesServer({
      userState: { maxKeysPerPrincipal: 3, maxValueBytes: 64, maxKeyLength: 8 },
      onError: () => undefined,
    }),
  );
  for (const sub of ['alice', 'bob', 'carol']) tokens[sub] = await realm.token(served.url, { sub });
  tokens.client = await realm.token(served.url, { sub: undefined, client_id: 'alice' });
});
afterAll(async () => {
  await served?.close();
  await realm?.close();
});

const set = (caller: Caller, key: string, value: unknown) =>
  callTool(served.url, caller, { name: 'note_set', args: { key, value } });
const get = async (caller: Caller, key: string) =>
  JSON.parse((await callTool(served.url, caller, { name: 'note_get', args: { key } })).text!) as unknown;

describe('ctx.userState of authenticated principals over HTTP', () => {
  it('is the same on both eras: what alice keeps on a modern request her legacy session reads', async () => {
    const modern: Caller = { token: tokens.alice };
    const legacy: Caller = { token: tokens.alice, session: await openLegacy(served.url, tokens.alice) };
    expect((await set(modern, 'era', 'from modern')).text).toBe('kept');
    expect(await get(legacy, 'era')).toBe('from modern');
    await set(legacy, 'era', 'from legacy');
    expect(await get(modern, 'era')).toBe('from legacy');
    const other = { token: tokens.alice, session: await openLegacy(served.url, tokens.alice) };
    expect(await get(other, 'era')).toBe('from legacy');
  });

  it('keeps concurrent principals apart on both eras: none reads, overwrites or deletes another', async () => {
    const callers = await Promise.all(
      ['alice', 'bob', 'carol', 'client'].flatMap((who) => [
        Promise.resolve({ who, caller: { token: tokens[who] } as Caller }),
        openLegacy(served.url, tokens[who]).then((session) => ({
          who,
          caller: { token: tokens[who], session },
        })),
      ]),
    );
    await Promise.all(callers.map(({ who, caller }) => set(caller, 'shared', who)));
    const seen = await Promise.all(callers.map(({ caller }) => get(caller, 'shared')));
    expect(seen).toEqual(callers.map(({ who }) => who));
    // A client whose id equals a user's subject is not that user.
    await Promise.all(
      callers.filter(({ who }) => who === 'bob').map(({ caller }) => set(caller, 'shared', 'x')),
    );
    const bob = callers.find(({ who }) => who === 'bob')!.caller;
    expect((await callTool(served.url, bob, { name: 'note_delete', args: { key: 'shared' } })).text).toBe(
      'true',
    );
    expect(await get({ token: tokens.alice }, 'shared')).toBe('alice');
    expect(await get({ token: tokens.client }, 'shared')).toBe('client');
    expect(await get(bob, 'shared')).toBeNull();
  });

  it("refuses one principal past its keys (429, the bound named) while the others' writes go on", async () => {
    const bob: Caller = { token: tokens.bob };
    for (const key of ['b1', 'b2', 'b3']) expect((await set(bob, key, 1)).text).toBe('kept');
    const refused = await set(bob, 'b4', 1);
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ code: -32600, data: { limit: 'maxKeysPerPrincipal', max: 3 } });
    const legacyBob = { ...bob, session: await openLegacy(served.url, tokens.bob) };
    expect((await set(legacyBob, 'b5', 1)).error).toMatchObject({ data: { limit: 'maxKeysPerPrincipal' } });
    const carol: Caller = { token: tokens.carol };
    // carol holds 'shared' from the test before: two more keys are hers to keep.
    for (const key of ['c1', 'c2']) expect((await set(carol, key, key)).text).toBe('kept');
    expect(await get(carol, 'c2')).toBe('c2');
  });

  it('answers a key or value over its bound as a tool error naming the bound', async () => {
    const alice: Caller = { token: tokens.alice };
    const longKey = await set(alice, 'far-too-long', 1);
    expect(longKey).toMatchObject({ isError: true });
    expect(longKey.text).toContain('maxKeyLength');
    const big = await set(alice, 'big', 'x'.repeat(100));
    expect(big).toMatchObject({ isError: true });
    expect(big.text).toContain('maxValueBytes');
    expect(await get(alice, 'big')).toBeNull();
    // The bound counts UTF-8 bytes of the JSON text: "é"×31 is 64 bytes with its quotes, ×32 is 66.
    expect((await set(alice, 'utf8', 'é'.repeat(31))).text).toBe('kept');
    expect((await set(alice, 'utf8', 'é'.repeat(32))).text).toContain('66 bytes');
    expect(await get(alice, 'utf8')).toBe('é'.repeat(31));
  });
});

describe('ctx.userState of anonymous callers', () => {
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const listener = toNodeListener(notesServer());
    const http = createNodeServer((req, res) => listener(req, res));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    close = () => new Promise((resolve) => (listener.close(), http.close(() => resolve())));
  });
  afterAll(() => close?.());

  it('refuses a modern HTTP request with no credentials (-32600 Forbidden, 403)', async () => {
    const outcome = await callTool(url, {}, { name: 'note_set', args: { key: 'k', value: 1 } });
    expect(outcome.status).toBe(403);
    expect(outcome.error?.code).toBe(-32600);
    expect(outcome.error?.message).toContain('identified caller');
  });

  it('keeps each anonymous legacy session its own state', async () => {
    const one: Caller = { session: await openLegacy(url) };
    const two: Caller = { session: await openLegacy(url) };
    await callTool(url, one, { name: 'note_set', args: { key: 'k', value: 'one' } });
    const read = (caller: Caller) => callTool(url, caller, { name: 'note_get', args: { key: 'k' } });
    expect((await read(one)).text).toBe('"one"');
    expect((await read(two)).text).toBe('null');
  });

  it('keeps a stream connection its own state, the same for its modern requests and its session', async () => {
    const server = notesServer();
    const open = async (era: 'modern' | 'legacy') => {
      const [near, far] = createLinkedPair();
      await connect(server, far);
      const client = new Client({ name: 'c', version: '1', era });
      await client.connect(near);
      return client;
    };
    const [modern, legacy] = [await open('modern'), await open('legacy')];
    await modern.callTool('note_set', { key: 'k', value: 'm' });
    await legacy.callTool('note_set', { key: 'k', value: 'l' });
    const text = async (client: Client) =>
      ((await client.callTool('note_get', { key: 'k' })) as { content: { text: string }[] }).content[0]!.text;
    expect([await text(modern), await text(legacy)]).toEqual(['"m"', '"l"']);
    await Promise.all([modern.close(), legacy.close()]);
  });
});
