/**
 * Whose thought history a thought joins (history.ts). Over HTTP with bearer tokens each
 * principal has its own, on both eras and across its sessions: alice's thoughts never count
 * in bob's `thoughtHistoryLength` nor show in his branches. Anonymous callers: each legacy
 * session its own, anonymous modern requests one per process (they have no user state). Over
 * a stream (stdio) the connection's, as in the official server (whose differential test is
 * test/reference-servers/sequential-thinking.test.ts). Thoughts sent at once are all counted,
 * and the branch ids kept are bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHandler, type HttpHandler } from '../../src/server/http/index.js';
import { ERAS, openEra } from '../../test/support/era-client.js';
import { startRealm, type TokenRealm } from '../../test/support/token-realm.js';
import { callTool, openLegacy, type Caller, type CallOutcome } from '../../test/support/user-state.js';
import type { RequestContext } from '../../src/server/index.js';
import { MAX_HISTORY_BYTES, thoughtHistories } from './history.js';
import { createReferenceServer } from './server.js';

const URL = 'http://127.0.0.1:9/mcp';
const QUIET = { DISABLE_THOUGHT_LOGGING: 'true' };

const thought = (n: number, more: Record<string, unknown> = {}) => ({
  name: 'sequentialthinking',
  args: { thought: `step ${n}`, nextThoughtNeeded: true, thoughtNumber: n, totalThoughts: 9, ...more },
});

/** The answer's state (its JSON text). */
function stateOf(outcome: CallOutcome): { thoughtHistoryLength: number; branches: string[] } {
  expect(outcome.error).toBeUndefined();
  expect(outcome.isError).toBe(false);
  return JSON.parse(outcome.text!) as { thoughtHistoryLength: number; branches: string[] };
}

describe('the sequential-thinking history over HTTP', () => {
  let realm: TokenRealm;
  let guarded: HttpHandler;
  let anonymous: HttpHandler;
  beforeAll(async () => {
    realm = await startRealm();
    guarded = createHttpHandler(await createReferenceServer([], QUIET), { auth: realm.guard(URL) });
    anonymous = createHttpHandler(await createReferenceServer([], QUIET));
  });
  afterAll(async () => {
    guarded?.close();
    anonymous?.close();
    await realm?.close();
  });

  it("keeps each principal's history apart, shared by its legacy sessions and modern requests", async () => {
    const via = (request: Request) => guarded(request);
    const [aliceToken, bobToken] = await Promise.all([
      realm.token(URL, { sub: 'alice' }),
      realm.token(URL, { sub: 'bob' }),
    ]);
    const alice: Caller = { token: aliceToken, via };
    const aliceSession: Caller = { ...alice, session: await openLegacy(URL, aliceToken, via) };
    const bob: Caller = { token: bobToken, via };
    const bobSession: Caller = { ...bob, session: await openLegacy(URL, bobToken, via) };

    expect(stateOf(await callTool(URL, alice, thought(1)))).toMatchObject({ thoughtHistoryLength: 1 });
    expect(
      stateOf(
        await callTool(URL, aliceSession, thought(2, { branchFromThought: 1, branchId: 'secret-plan' })),
      ),
    ).toEqual(expect.objectContaining({ thoughtHistoryLength: 2, branches: ['secret-plan'] }));
    expect(stateOf(await callTool(URL, alice, thought(3)))).toMatchObject({ thoughtHistoryLength: 3 });

    expect(stateOf(await callTool(URL, bob, thought(1)))).toEqual(
      expect.objectContaining({ thoughtHistoryLength: 1, branches: [] }),
    );
    expect(stateOf(await callTool(URL, bobSession, thought(2)))).toEqual(
      expect.objectContaining({ thoughtHistoryLength: 2, branches: [] }),
    );
    expect(stateOf(await callTool(URL, aliceSession, thought(4)))).toMatchObject({ thoughtHistoryLength: 4 });
  });

  it('gives each anonymous legacy session its own history, and anonymous modern requests one per process', async () => {
    const via = (request: Request) => anonymous(request);
    const first: Caller = { session: await openLegacy(URL, undefined, via), via };
    const second: Caller = { session: await openLegacy(URL, undefined, via), via };
    const modern: Caller = { via };
    expect(stateOf(await callTool(URL, first, thought(1)))).toMatchObject({ thoughtHistoryLength: 1 });
    expect(stateOf(await callTool(URL, first, thought(2)))).toMatchObject({ thoughtHistoryLength: 2 });
    expect(stateOf(await callTool(URL, second, thought(1)))).toMatchObject({ thoughtHistoryLength: 1 });
    expect(stateOf(await callTool(URL, modern, thought(1)))).toMatchObject({ thoughtHistoryLength: 1 });
    expect(stateOf(await callTool(URL, modern, thought(2)))).toMatchObject({ thoughtHistoryLength: 2 });
    expect(stateOf(await callTool(URL, first, thought(3)))).toMatchObject({ thoughtHistoryLength: 3 });
  });
});

describe.each(ERAS)('the sequential-thinking history on one connection (%s era)', (era) => {
  it('grows with the connection, and refuses a new branch id past the bound but keeps the known ones', async () => {
    const client = await openEra(await createReferenceServer([], QUIET), era);
    try {
      const long = (tag: string) => tag + 'x'.repeat(MAX_HISTORY_BYTES / 3);
      const branch = (n: number, id: string) =>
        client.call('sequentialthinking', thought(n, { branchFromThought: 1, branchId: id }).args);
      expect((await branch(1, long('a'))).structuredContent).toMatchObject({ thoughtHistoryLength: 1 });
      expect((await branch(2, long('b'))).structuredContent).toMatchObject({ thoughtHistoryLength: 2 });
      const refused = await branch(3, long('c'));
      expect(refused.isError).toBe(true);
      expect(JSON.parse(refused.content[0]!.text!)).toEqual({
        error: expect.stringContaining(`would pass ${MAX_HISTORY_BYTES} bytes of branch ids`),
        status: 'failed',
      });
      const known = await branch(3, long('a'));
      expect(known.structuredContent).toMatchObject({ thoughtHistoryLength: 3 });
      expect((known.structuredContent as { branches: string[] }).branches).toEqual([long('a'), long('b')]);
    } finally {
      await client.close();
    }
  });
});

describe('the thought histories of one server', () => {
  it('count every thought of one caller sent at once, even when the store answers a turn later', async () => {
    const stored = new Map<string, string>();
    const later = () => new Promise((resolve) => setImmediate(resolve));
    const userState = {
      get: async (key: string) => {
        await later();
        const text = stored.get(key);
        return text === undefined ? undefined : (JSON.parse(text) as unknown);
      },
      set: async (key: string, value: unknown) => {
        await later();
        stored.set(key, JSON.stringify(value));
      },
    };
    const ctx = { userState } as unknown as RequestContext;
    const record = thoughtHistories();
    const histories = await Promise.all(Array.from({ length: 8 }, () => record(ctx, undefined)));
    expect(histories.map((h) => h.thoughts).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
