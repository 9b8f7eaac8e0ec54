/**
 * Isolation through the gateway (DESIGN decision 9), with two or more principals at once on
 * both eras: a gateway in front of a modern backend (`work`) and a legacy-pinned one (`mail`),
 * fronted over Streamable HTTP behind mcpkit/auth with real JWT access tokens for alice, bob
 * and carol (a client credential: `client_id`, no `sub`). Front clients of each era run
 * concurrently, and whatever belongs to one caller (progress and log messages of its request,
 * its resource subscriptions, its tasks, its parked or relayed calls, its legacy session)
 * never reaches another; what is for everyone (list_changed) reaches all.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, streamableHttp, TaskHandle, type Client } from '../../src/client/index.js';
import type { JsonRpcNotification } from '../../src/core/jsonrpc.js';
import { serve, type Served } from '../../src/integrations/node/index.js';
import { createServer, type McpServer } from '../../src/server/index.js';
import { createGateway, createHost, type Gateway, type Host } from '../../src/host/index.js';
import { ERAS } from '../support/era-client.js';
import { modernBody, modernHeaders } from '../support/http-harness.js';
import { startProtected, type ProtectedServer } from '../support/protected-server.js';
import { startRealm, type TokenRealm } from '../support/token-realm.js';
import { deferred, until } from '../support/wait.js';

/** Calls of `report` that have started; each waits until `expected` have, so they overlap. */
const meeting = { arrived: 0, expected: 2, all: deferred() };
/** Released when a test lets the `hold` tasks end. */
let released = deferred();
const sent: string[] = [];

function workServer(): McpServer {
  const server = createServer({ name: 'work', version: '1.0.0', tasks: { pollIntervalMs: 50 } });
  server.tool('report', { inputSchema: z.object({ tag: z.string() }) }, async ({ tag }, ctx) => {
    ctx.progress(1, { total: 2, message: `progress of ${tag}` });
    ctx.log('info', `log of ${tag}`);
    if (++meeting.arrived === meeting.expected) meeting.all.resolve();
    await meeting.all.promise;
    ctx.progress(2, { total: 2, message: `progress of ${tag}` });
    return `reported ${tag}`;
  });
  server.tool(
    'hold',
    { task: 'optional', inputSchema: z.object({ tag: z.string() }) },
    async ({ tag }, ctx) => {
      await Promise.race([
        released.promise,
        new Promise((resolve) => ctx.signal.addEventListener('abort', resolve)),
      ]);
      return `held ${tag}`;
    },
  );
  server.tool('send', { description: 'Asks whom to send to' }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'Send to whom?',
      requestedSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    });
    sent.push(`work:${String(answer.content?.to)}`);
    return `SENT to ${String(answer.content?.to)}`;
  });
  for (const owner of ['alice', 'bob'])
    server.resource(`note://${owner}`, { name: owner }, (uri) => ({ contents: [{ uri, text: owner }] }));
  server.tool('touch', { inputSchema: z.object({ uri: z.string() }) }, ({ uri }) => {
    server.notifyResourceUpdated(uri);
    return 'touched';
  });
  let added = 0;
  server.tool('grow', {}, () => {
    server.tool(`extra_${++added}`, {}, () => 'extra');
    return `grew ${added}`;
  });
  return server;
}

function mailServer(): McpServer {
  const mail = createServer({ name: 'mail', version: '1.0.0', eras: ['legacy'] });
  mail.tool('send', { description: 'Asks whom to send to' }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'Send to whom?',
      requestedSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    });
    sent.push(`mail:${String(answer.content?.to)}`);
    return `SENT to ${String(answer.content?.to)}`;
  });
  return mail;
}

let realm: TokenRealm;
let backends: Served[];
let host: Host;
let gateway: Gateway;
let front: ProtectedServer;
const tokens: Record<string, string> = {};
const clients: Client[] = [];

beforeAll(async () => {
  realm = await startRealm();
  backends = [await serve(workServer(), { port: 0 }), await serve(mailServer(), { port: 0 })];
  host = createHost({
    servers: { work: { url: backends[0]!.url }, mail: { url: backends[1]!.url, era: 'legacy' } },
    policy: { elicitation: 'allow' },
    logLevel: 'info',
  });
  await host.start();
  gateway = createGateway(host);
  front = await startProtected((url) => realm.guard(url), gateway.server);
  const claims = { alice: { sub: 'alice' }, bob: { sub: 'bob' }, carol: { client_id: 'carol-app' } };
  for (const [name, claim] of Object.entries(claims)) tokens[name] = await realm.token(front.url, claim);
});

afterAll(async () => {
  released.resolve();
  for (const c of clients) await c.close().catch(() => undefined);
  await front?.close();
  gateway?.close();
  await host?.close();
  for (const b of backends ?? []) await b.close();
  await realm?.close();
});

beforeEach(() => {
  Object.assign(meeting, { arrived: 0, expected: 2, all: deferred() });
});

type Era = (typeof ERAS)[number];

/** A front client of `who` on `era`, keeping every notification it receives. */
async function frontClient(who: string, era: Era): Promise<{ client: Client; seen: JsonRpcNotification[] }> {
  const seen: JsonRpcNotification[] = [];
  const client = createClient({
    name: who,
    version: '1.0.0',
    era,
    logLevel: 'info',
    onNotification: (n) => void seen.push(n),
    handlers: { elicitation: async () => ({ action: 'accept', content: { to: `${who}'s friend` } }) },
  });
  await client.connect(streamableHttp(front.url, { headers: { authorization: `Bearer ${tokens[who]}` } }));
  clients.push(client);
  return { client, seen };
}

const text = (result: unknown): string =>
  ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text).join('');

/** Every text a notification carries (progress message, log data, URI), to look for a tag in. */
const texts = (seen: readonly JsonRpcNotification[]): string => JSON.stringify(seen.map((n) => n.params));

describe.each(ERAS)('a %s front client', (era) => {
  it("hears its own request's progress and log messages, never another principal's, while both run at once", async () => {
    const [alice, bob] = await Promise.all([frontClient('alice', era), frontClient('bob', era)]);
    const progress = { alice: [] as string[], bob: [] as string[] };
    const [a, b] = await Promise.all(
      (['alice', 'bob'] as const).map((who) =>
        (who === 'alice' ? alice : bob).client.callTool(
          'work__report',
          { tag: who },
          { onprogress: (u) => void progress[who].push(u.message ?? '') },
        ),
      ),
    );
    expect([text(a), text(b)]).toEqual(['reported alice', 'reported bob']);
    expect(progress.alice).toContain('progress of alice');
    expect(progress.bob).toContain('progress of bob');
    expect(texts(alice.seen)).toContain('log of alice');
    expect(texts(bob.seen)).toContain('log of bob');
    expect(progress.alice.join()).not.toContain('bob');
    expect(progress.bob.join()).not.toContain('alice');
    expect(texts(alice.seen)).not.toContain('of bob');
    expect(texts(bob.seen)).not.toContain('of alice');
  });

  it('hears list_changed with everyone, and resources/updated only for the URIs it subscribed to', async () => {
    const [alice, bob, carol] = await Promise.all([
      frontClient('alice', era),
      frontClient('bob', era),
      frontClient('carol', era),
    ]);
    const listens = {
      alice: alice.client.listen({ toolsListChanged: true, resourceSubscriptions: ['note://alice'] }),
      bob: bob.client.listen({ toolsListChanged: true, resourceSubscriptions: ['note://bob'] }),
      carol: carol.client.listen({ toolsListChanged: true }),
    };
    await Promise.all(Object.values(listens).map((l) => l.acknowledged));
    const heard: Record<string, JsonRpcNotification[]> = { alice: [], bob: [], carol: [] };
    for (const [who, listen] of Object.entries(listens))
      void (async () => {
        for await (const n of listen) heard[who]!.push(n);
      })().catch(() => undefined);

    // alice's resource changes first, then bob's: bob's update arriving proves alice's was sent.
    await alice.client.callTool('work__touch', { uri: 'note://alice' });
    await bob.client.callTool('work__touch', { uri: 'note://bob' });
    const updated = (who: string) =>
      heard[who]!.filter((n) => n.method === 'notifications/resources/updated').map((n) => n.params?.uri);
    await until(() => updated('alice').length > 0 && updated('bob').length > 0);
    await carol.client.callTool('work__grow', {});
    const changed = (who: string) => heard[who]!.some((n) => n.method === 'notifications/tools/list_changed');
    await until(() => changed('alice') && changed('bob') && changed('carol'));

    expect(updated('alice')).toEqual(['note://alice']);
    expect(updated('bob')).toEqual(['note://bob']);
    expect(updated('carol')).toEqual([]);
    // Nor on any other stream of theirs (onNotification sees every notification a client gets).
    expect(texts(bob.seen)).not.toContain('note://alice');
    expect(texts(carol.seen)).not.toContain('note://');
    for (const listen of Object.values(listens)) listen.close();
  });
});

/** Sends one raw modern request to the gateway as `who` (for what a well-behaved client would not send). */
async function raw(
  who: string,
  method: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const body = modernBody(method, params, `${who}-${method}-${Math.random()}`);
  const response = await fetch(front.url, {
    method: 'POST',
    headers: {
      ...modernHeaders(body),
      // The Tasks extension's routing header names the task (SEP-2663 "Routing Headers").
      ...(TASK_ROUTED.has(method) ? { 'mcp-name': String(params.taskId) } : {}),
      authorization: `Bearer ${tokens[who]}`,
    },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

const TASK_ROUTED = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

const TASKS_CAPS = {
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

describe("another principal's task", () => {
  it('is unknown to bob (tasks/get, update, cancel) on both eras, while alice polls and cancels it', async () => {
    const [alice, bob, bobLegacy] = await Promise.all([
      frontClient('alice', 'modern'),
      frontClient('bob', 'modern'),
      frontClient('bob', 'legacy'),
    ]);
    const [mine, his] = await Promise.all([
      alice.client.callTool('work__hold', { tag: 'alice' }, { task: 'allow' }),
      bob.client.callTool('work__hold', { tag: 'bob' }, { task: 'allow' }),
    ]);
    if (!(mine instanceof TaskHandle) || !(his instanceof TaskHandle)) throw new Error('expected tasks');
    const taskId = mine.taskId;
    const code = (p: Promise<unknown>) =>
      p.then(
        (r) => `answered ${JSON.stringify(r)}`,
        (e: { code?: number }) => e.code,
      );

    // bob, holding alice's id: through a task handle, and raw with the extension declared.
    const stolen = bob.client.resumeTask({ taskId, toolName: 'work__hold' });
    expect(await code(stolen.status())).toBe(-32602);
    expect(await code(stolen.cancel())).toBe(-32602);
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const reply = await raw('bob', method, { taskId, inputResponses: {}, _meta: TASKS_CAPS });
      expect(reply.error, method).toMatchObject({ code: -32602 });
      expect(JSON.stringify(reply)).not.toContain('held');
    }
    // The methods SEP-2663 removed exist for nobody, so they list or return nothing of hers.
    for (const method of ['tasks/list', 'tasks/result']) {
      const reply = await raw('bob', method, { taskId, _meta: TASKS_CAPS });
      expect(reply.error, method).toMatchObject({ code: -32601 });
    }
    // A legacy session of bob's gets nothing of it either.
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/list', 'tasks/result'])
      expect(await code(bobLegacy.client.request(method, { taskId })), method).toEqual(expect.any(Number));

    // alice's task is untouched by all that; bob's own task is his.
    expect(await mine.status()).toMatchObject({ taskId, status: 'working' });
    expect(await his.status()).toMatchObject({ status: 'working' });
    expect(await code(alice.client.resumeTask({ taskId: his.taskId, toolName: 'work__hold' }).status())).toBe(
      -32602,
    );
    await mine.cancel();
    expect(await mine.status()).toMatchObject({ status: 'cancelled' });
    released.resolve();
    expect(text(await his.result())).toBe('held bob');
    released = deferred();
  });
});

describe("another principal's call waiting for input", () => {
  /** A modern tools/call of `tool` by `who` with a retry's `extra` params. */
  const call = (who: string, tool: string, extra: Record<string, unknown> = {}) =>
    raw(who, 'tools/call', {
      name: tool,
      arguments: {},
      _meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } },
      ...extra,
    });
  const accept = (to: string) => ({ action: 'accept', content: { to } });

  // mail (legacy-pinned): the gateway parks the call; work (modern): it relays the backend's round.
  it.each(['mail__send', 'work__send'])(
    "bob cannot answer or complete alice's %s; her retry completes it",
    async (tool) => {
      sent.length = 0;
      const [first, bobs] = await Promise.all([call('alice', tool), call('bob', tool)]);
      const parked = first.result as { inputRequests: Record<string, unknown>; requestState: string };
      const bobParked = bobs.result as { inputRequests: Record<string, unknown>; requestState: string };
      const key = Object.keys(parked.inputRequests)[0]!;

      const bobKey = Object.keys(bobParked.inputRequests)[0]!;
      // bob sends her key with an answer: without her state, with it, and (where her key is not
      // also his: the gateway's park keys are per call, a relayed backend's keys are not) with his.
      const states: Record<string, unknown>[] = [{}, { requestState: parked.requestState }];
      if (key !== bobKey) states.push({ requestState: bobParked.requestState });
      for (const state of states) {
        const stolen = await call('bob', tool, { inputResponses: { [key]: accept('mallory') }, ...state });
        expect(JSON.stringify(stolen)).not.toContain('SENT');
        // Refused (her state is bound to her: -32602), or bob's answer is taken for a question
        // of his own new call (asked again, or -32603 when it answers the relayed question before
        // it is asked): never for hers.
        if (stolen.error) expect([-32602, -32603]).toContain((stolen.error as { code: number }).code);
        else expect(stolen.result).toMatchObject({ resultType: 'input_required' });
      }
      expect(sent.join()).not.toContain('mallory');

      const [done, bobDone] = await Promise.all([
        call('alice', tool, { inputResponses: { [key]: accept('dave') }, requestState: parked.requestState }),
        call('bob', tool, {
          inputResponses: { [bobKey]: accept('erin') },
          requestState: bobParked.requestState,
        }),
      ]);
      expect(text(done.result)).toBe('SENT to dave');
      expect(text(bobDone.result)).toBe('SENT to erin');
      expect(sent.sort()).toEqual([`${tool.split('__')[0]}:dave`, `${tool.split('__')[0]}:erin`]);
    },
  );

  it.each(['mail__send', 'work__send'])(
    'on legacy sessions, %s asks alice on her session only; bob cannot use her session',
    async (tool) => {
      sent.length = 0;
      const [alice, bob] = await Promise.all([frontClient('alice', 'legacy'), frontClient('bob', 'legacy')]);
      const [a, b] = await Promise.all([alice.client.callTool(tool, {}), bob.client.callTool(tool, {})]);
      expect([text(a), text(b)]).toEqual(["SENT to alice's friend", "SENT to bob's friend"]);
      const server = tool.split('__')[0];
      expect(sent.sort()).toEqual([`${server}:alice's friend`, `${server}:bob's friend`]);
    },
  );
});

describe("another principal's legacy session", () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  };
  const headers = (who: string, session?: string): Record<string, string> => ({
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': '2025-11-25',
    authorization: `Bearer ${tokens[who]}`,
    ...(session ? { 'mcp-session-id': session } : {}),
  });

  it("is not found for bob (POST, GET, DELETE) and stays alice's", async () => {
    const opened = await fetch(front.url, {
      method: 'POST',
      headers: headers('alice'),
      body: JSON.stringify(initialize),
    });
    await opened.body?.cancel();
    const session = opened.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const asBob = [
      await fetch(front.url, { method: 'POST', headers: headers('bob', session), body: list }),
      await fetch(front.url, {
        method: 'GET',
        headers: { ...headers('bob', session), accept: 'text/event-stream' },
      }),
      await fetch(front.url, { method: 'DELETE', headers: headers('bob', session) }),
    ];
    for (const r of asBob) await r.body?.cancel();
    expect(asBob.map((r) => r.status)).toEqual([404, 404, 404]);
    const mine = await fetch(front.url, { method: 'POST', headers: headers('alice', session), body: list });
    expect(mine.status).toBe(200);
    expect(await mine.text()).toContain('work__report');
  });
});
