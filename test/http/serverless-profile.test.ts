/**
 * The serverless profile: a listen honouring nothing is completed at once, `maxListenMs`
 * completes a listen gracefully and mcpkit's client listens again without missing a later
 * change, a server whose lists never change declares no `listChanged`, and `close()`
 * bounds requests in progress.
 * Source: 2026-07-28 basic/patterns/subscriptions "Acknowledgment", "Graceful Closure".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, streamableHttp, type Client } from '../../src/client/index.js';
import { META, type JsonRpcMessage } from '../../src/core/index.js';
import { serve, type Served } from '../../src/integrations/node/index.js';
import { createHttpHandler } from '../../src/server/http/index.js';
import { createServer, type McpServer, type ServerOptions } from '../../src/server/index.js';
import {
  messagesOf,
  modernBody,
  modernHeaders,
  post,
  readAll,
  SseReader,
  until,
} from '../support/http-harness.js';

function buildServer(options: Partial<ServerOptions> = {}): McpServer {
  const server = createServer({ name: 'profile', version: '1', ...options });
  server.tool('echo', {}, () => 'hi');
  server.prompt('greet', {}, () => [{ role: 'user', content: { type: 'text', text: 'hello' } }]);
  return server;
}

const listenBody = (notifications: object, id = 3): JsonRpcMessage =>
  modernBody('subscriptions/listen', { notifications }, id);
const request = (body: JsonRpcMessage): Request => post(body, modernHeaders(body));

let served: Served | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await served?.close();
  served = undefined;
});

describe('a listen that honours nothing', () => {
  it('is acknowledged with an empty filter and completed at once', async () => {
    const handler = createHttpHandler(buildServer());
    // The server has no resources: nothing of this filter can be honoured.
    const body = listenBody({ resourcesListChanged: true, resourceSubscriptions: ['file:///a'] });
    const messages = await readAll(await handler(request(body)), '2026-07-28');
    expect(messages).toMatchObject([
      { method: 'notifications/subscriptions/acknowledged', params: { notifications: {} } },
      { id: 3, result: { resultType: 'complete', _meta: { [META.subscriptionId]: 3 } } },
    ]);
    await handler.close();
  });

  it('is completed at once when it asks only for list changes a static server never sends', async () => {
    const handler = createHttpHandler(buildServer({ listChanged: false }));
    const body = listenBody({ toolsListChanged: true, promptsListChanged: true });
    const messages = await readAll(await handler(request(body)), '2026-07-28');
    expect(messages.map((m) => ('method' in m ? m.method : 'result' in m && m.result.resultType))).toEqual([
      'notifications/subscriptions/acknowledged',
      'complete',
    ]);
    await handler.close();
  });
});

describe('listChanged in the declared capabilities', () => {
  it('is declared by default, and left out by a server that says its lists never change', async () => {
    const discover = async (server: McpServer) => {
      const handler = createHttpHandler(server);
      const [answer] = await readAll(await handler(request(modernBody('server/discover'))), '2026-07-28');
      await handler.close();
      return (answer as unknown as { result: { capabilities: Record<string, unknown> } }).result.capabilities;
    };
    expect(await discover(buildServer())).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
    });
    const still = await discover(buildServer({ listChanged: false }));
    expect(still.tools).toEqual({});
    expect(still.prompts).toEqual({});
  });

  it('refuses to announce a change on a server that said its lists never change', () => {
    const server = buildServer({ listChanged: false });
    expect(() => server.notifyToolsChanged()).toThrow(/listChanged: false/);
    expect(() => server.removeTool('echo')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});

describe('maxListenMs', () => {
  it('must be a positive number of milliseconds', () => {
    for (const bad of [0, -1, Number.NaN])
      expect(() => createHttpHandler(buildServer(), { maxListenMs: bad })).toThrow(/maxListenMs/);
    expect(() => createHttpHandler(buildServer(), { closeTimeoutMs: -1 })).toThrow(/closeTimeoutMs/);
  });

  it('completes a listen gracefully after the bound', async () => {
    const handler = createHttpHandler(buildServer(), { maxListenMs: 50 });
    const reader = new SseReader(await handler(request(listenBody({ toolsListChanged: true }))));
    await reader.finished();
    expect(messagesOf(reader.events, '2026-07-28').at(-1)).toMatchObject({
      id: 3,
      result: { resultType: 'complete', _meta: { [META.subscriptionId]: 3 } },
    });
    await handler.close();
  });

  it('lets mcpkit’s client listen again and still receive a later list_changed', async () => {
    const server = buildServer();
    // Over a second: a listen completed sooner is sent again only after the client's backoff.
    served = await serve(server, { port: 0, http: { maxListenMs: 1_000 } });
    let acknowledgments = 0;
    const client = createClient({
      name: 'c',
      version: '1',
      onNotification: (n) =>
        void (n.method === 'notifications/subscriptions/acknowledged' && acknowledgments++),
    });
    clients.push(client);
    await client.connect(streamableHttp(served.url));
    const sub = client.listen({ toolsListChanged: true });
    const received: string[] = [];
    const done = (async () => {
      for await (const n of sub) received.push(n.method);
    })();
    await sub.acknowledged;
    await until(() => acknowledgments >= 3, 10_000);
    server.notifyToolsChanged();
    await until(() => received.length > 0, 10_000);
    expect(received).toEqual(['notifications/tools/list_changed']);
    sub.close();
    await done;
  });
});

describe('close() of the endpoint', () => {
  it('answers a request still running after closeTimeoutMs with -32603 and cancels its handler', async () => {
    const server = buildServer();
    let aborted = false;
    server.tool('wait', {}, async (_args, ctx) => {
      ctx.progress(1);
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      aborted = true;
      return 'late';
    });
    const handler = createHttpHandler(server, { closeTimeoutMs: 50 });
    const call = modernBody('tools/call', { name: 'wait', _meta: { progressToken: 'p' } }, 9);
    const reader = new SseReader(await handler(post(call, { ...modernHeaders(call), 'mcp-name': 'wait' })));
    await reader.waitFor(1);
    await handler.close();
    await reader.finished();
    expect(messagesOf(reader.events, '2026-07-28').at(-1)).toMatchObject({
      id: 9,
      error: { code: -32603, message: expect.stringMatching(/closing/) },
    });
    expect(aborted).toBe(true);
    expect((await handler(request(modernBody('server/discover')))).status).toBe(503);
  });
});
