/**
 * The Tasks extension through the gateway: two instances of our everything server (modern,
 * over HTTP) behind one gateway served over HTTP with a stand-in auth guard (the caller
 * names itself in a header), so that task ids must name both the backend and the principal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, streamableHttp, TaskHandle, type Client } from '../../client/index.js';
import { WireError, TASKS_EXTENSION } from '../../core/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import type { HttpAuthGuard } from '../../server/http/index.js';
import { createEverythingServer } from '../../../servers/everything/server.js';
import { createGateway, createHost, type Host } from '../index.js';
import { TaskIds } from './task-ids.js';

/** Trusts the `x-test-user` header: a stand-in for a real token check. */
const headerGuard: HttpAuthGuard = {
  paths: [],
  serve: () => undefined,
  authenticate: async (request) => ({ auth: { subject: request.headers.get('x-test-user') ?? 'nobody' } }),
  insufficientScope: () => ({ status: 403, headers: {}, body: null }),
};

describe('tasks through the gateway', () => {
  let backends: Served[];
  let host: Host;
  let front: Served;
  const clients: Client[] = [];

  async function frontClient(user: string, elicit?: boolean): Promise<Client> {
    const client = createClient({
      name: user,
      version: '1',
      era: 'modern',
      ...(elicit
        ? {
            handlers: {
              elicitation: async () => ({ action: 'accept' as const, content: { confirm: true } }),
            },
          }
        : {}),
    });
    await client.connect(streamableHttp(front.url, { headers: { 'x-test-user': user } }));
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    backends = [
      await serve(createEverythingServer(), { port: 0 }),
      await serve(createEverythingServer(), { port: 0 }),
    ];
    host = createHost({ servers: { a: { url: backends[0]!.url }, b: { url: backends[1]!.url } } });
    await host.start();
    const gateway = createGateway(host);
    front = await serve(gateway.server, { port: 0, http: { auth: headerGuard } });
  });

  afterAll(async () => {
    for (const c of clients) await c.close();
    await front?.close();
    await host?.close();
    for (const b of backends ?? []) await b.close();
  });

  it('advertises the extension and passes a task on under a gateway id; polling and notifications reach its end', async () => {
    const alice = await frontClient('alice');
    expect((await alice.discover()).capabilities.extensions?.[TASKS_EXTENSION]).toEqual({});
    const handle = await alice.callTool('a__slow_compute', { seconds: 1, label: 'sum' }, { task: 'allow' });
    if (!(handle instanceof TaskHandle)) throw new Error('expected a task');
    expect(handle.taskId).toMatch(/^gwt\./);
    const listen = alice.listen({ taskIds: [handle.taskId, 'gwt.forged'] });
    expect(await listen.acknowledged).toEqual({ taskIds: [handle.taskId] });
    expect(await handle.status()).toMatchObject({ taskId: handle.taskId, status: expect.any(String) });
    // notifications/tasks from the backend arrive under the gateway id, up to the end.
    for await (const n of listen) {
      expect(n).toMatchObject({ method: 'notifications/tasks', params: { taskId: handle.taskId } });
      if (n.params?.status !== 'completed') continue;
      expect(n.params.result).toMatchObject({ content: [{ type: 'text', text: 'Computed sum after 1s' }] });
      break;
    }
    listen.close();
    const result = await handle.result({ notifications: true });
    expect(result.content).toEqual([{ type: 'text', text: 'Computed sum after 1s' }]);
  });

  it('answers a task’s input request through tasks/update on the owning backend', async () => {
    const bob = await frontClient('bob', true);
    const handle = await bob.callTool('b__confirm_delete', { filename: 'x.txt' }, { task: 'allow' });
    if (!(handle instanceof TaskHandle)) throw new Error('expected a task');
    expect((await handle.result()).content).toEqual([{ type: 'text', text: 'Deleted x.txt' }]);
  });

  it('keeps each task on its backend and with its principal: forged, foreign and cross-server ids are unknown', async () => {
    const alice = await frontClient('alice');
    const mallory = await frontClient('mallory');
    const handle = await alice.callTool('a__slow_compute', { seconds: 30 }, { task: 'allow' });
    if (!(handle instanceof TaskHandle)) throw new Error('expected a task');
    const [, , backendId] = handle.taskId.split('.');
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: unknown) => (e as WireError).code,
      );
    // Another principal holding the id, a tampered id, the same backend id on the other server.
    expect(
      await code(mallory.resumeTask({ taskId: handle.taskId, toolName: 'a__slow_compute' }).status()),
    ).toBe(-32602);
    expect(await code(mallory.resumeTask({ taskId: `${handle.taskId}x`, toolName: 'x' }).cancel())).toBe(
      -32602,
    );
    const otherServer = `gwt.${Buffer.from('b').toString('base64url')}.${backendId}.${handle.taskId.split('.')[3]}`;
    expect(await code(alice.resumeTask({ taskId: otherServer, toolName: 'x' }).status())).toBe(-32602);
    // A client that did not declare the extension gets -32021, as from a server of its own.
    expect(await code(alice.request('tasks/get', { taskId: handle.taskId }))).toBe(-32021);
    await handle.cancel();
    expect(await handle.status()).toMatchObject({ status: 'cancelled' });
  });
});

describe('gateway task ids', () => {
  it('verify only for the principal and server they were made for', () => {
    const ids = new TaskIds();
    const id = ids.wrap({ server: 's.1', taskId: 'a.b' }, 'alice');
    expect(ids.unwrap(id, 'alice')).toEqual({ server: 's.1', taskId: 'a.b' });
    expect(ids.unwrap(id, 'bob')).toBeUndefined();
    expect(new TaskIds().unwrap(id, 'alice')).toBeUndefined();
    for (const bad of [42, '', 'gwt.a.b', `${id}.x`, 'x'.repeat(5000)])
      expect(ids.unwrap(bad, 'alice')).toBeUndefined();
  });

  it('accept one spelling per task: no padding, stray or non-ASCII characters in any part', () => {
    const ids = new TaskIds();
    const id = ids.wrap({ server: 's.1', taskId: 'x.yé' }, 'alice');
    const [tag, server, taskId, mac] = id.split('.');
    const respelled = [
      `${tag}.${server}==.${taskId}.${mac}`,
      `${tag}.${server}!.${taskId}.${mac}`,
      `${tag}.${server}.${taskId}é.${mac}`,
      `${tag}.${server}.${taskId}.${mac}==`,
      `${tag}.${server}.${taskId}.${mac}\n`,
    ];
    for (const other of respelled) expect(ids.unwrap(other, 'alice')).toBeUndefined();
    expect(ids.unwrap(id, 'alice')).toEqual({ server: 's.1', taskId: 'x.yé' });
  });

  it('are never minted too long to be used: a backend task id that would make one is refused with -32603', () => {
    const ids = new TaskIds();
    for (const taskId of ['a'.repeat(1500), 'é'.repeat(700)]) {
      const id = ids.wrap({ server: 'files', taskId }, 'alice');
      expect(ids.unwrap(id, 'alice')).toEqual({ server: 'files', taskId });
    }
    for (const taskId of ['a'.repeat(1600), 'é'.repeat(800), 'x'.repeat(1_000_000)]) {
      let caught: unknown;
      try {
        ids.wrap({ server: 'files', taskId }, 'alice');
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: -32603, message: expect.stringMatching(/files.*too long/) });
    }
  });
});
