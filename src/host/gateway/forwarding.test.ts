/**
 * What the gateway forwards, with an in-process backend served over HTTP: progress, log
 * messages, cancellation, list changes (a tool added on the backend reaches the gateway's
 * listening client and becomes callable), and resource reads routed by URI with prefixes
 * where two servers offer the same URI.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, streamableHttp, type Client } from '../../client/index.js';
import type { JsonRpcNotification } from '../../core/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { createServer, type McpServer } from '../../server/index.js';
import { createGateway, createHost, type Host } from '../index.js';

function backend(name: string, seen: { started: number; cancelled: number }): McpServer {
  const server = createServer({ name, version: '1.0.0' });
  server.tool('steps', { description: 'Reports progress and logs' }, async (_args, ctx) => {
    for (let i = 1; i <= 3; i++) {
      ctx.progress(i, { total: 3 });
      ctx.log('info', `step ${i}`);
    }
    return 'done';
  });
  server.tool('wait', { description: 'Waits to be cancelled' }, async (_args, ctx) => {
    seen.started++;
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    seen.cancelled++;
    return 'cancelled';
  });
  server.prompt(
    'greet',
    {
      arguments: [{ name: 'city', required: true }],
      complete: { city: (value) => ['paris', 'park', 'rome'].filter((c) => c.startsWith(value)) },
    },
    ({ city }) => [{ role: 'user', content: { type: 'text', text: `Hello from ${city}` } }],
  );
  server.resourceTemplate(
    'memo://{id}',
    { name: 'memo', complete: { id: (value) => ['1', '12', '2'].filter((i) => i.startsWith(value)) } },
    (uri, { id }) => [{ uri, text: `memo ${id}` }],
  );
  server.resource('memo://shared', { name: 'shared' }, (uri) => [{ uri, text: `shared from ${name}` }]);
  return server;
}

describe('the gateway forwards', () => {
  const seen = { started: 0, cancelled: 0 };
  let a: McpServer;
  let served: Served[];
  let host: Host;
  let front: Served;
  let client: Client;
  const notes: JsonRpcNotification[] = [];

  beforeAll(async () => {
    a = backend('a', seen);
    served = [await serve(a, { port: 0 }), await serve(backend('b', seen), { port: 0 })];
    host = createHost({
      servers: { a: { url: served[0]?.url ?? '' }, b: { url: served[1]?.url ?? '' } },
      logLevel: 'debug',
    });
    await host.start();
    const gateway = createGateway(host);
    front = await serve(gateway.server, { port: 0 });
    client = createClient({
      name: 'front',
      version: '1',
      logLevel: 'info',
      onNotification: (n) => notes.push(n),
    });
    await client.connect(streamableHttp(front.url));
  });

  afterAll(async () => {
    await client?.close();
    await front?.close();
    await host?.close();
    for (const s of served ?? []) await s.close();
  });

  it('progress and log messages of a call', async () => {
    const progress: number[] = [];
    const result = await client.callTool('a__steps', {}, { onprogress: (u) => progress.push(u.progress) });
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(progress).toEqual([1, 2, 3]);
    const logs = notes.filter((n) => n.method === 'notifications/message').map((n) => n.params);
    expect(logs).toEqual(
      expect.arrayContaining([expect.objectContaining({ level: 'info', data: 'step 2', logger: 'a' })]),
    );
  });

  it('cancellation', async () => {
    const abort = new AbortController();
    const call = client.callTool('b__wait', {}, { signal: abort.signal });
    await vi.waitFor(() => expect(seen.started).toBe(1), { timeout: 5_000 });
    abort.abort();
    await expect(call).rejects.toMatchObject({ code: 'ABORTED' });
    await vi.waitFor(() => expect(seen.cancelled).toBe(1), { timeout: 5_000 });
  });

  it('a list change: the new tool reaches a listening client and can be called', async () => {
    const subscription = client.listen({ toolsListChanged: true });
    await subscription.acknowledged;
    a.tool('added', { description: 'Added later' }, () => 'new');
    a.notifyToolsChanged();
    for await (const n of subscription) if (n.method === 'notifications/tools/list_changed') break;
    subscription.close();
    expect((await client.listTools()).map((t) => t.name)).toContain('a__added');
    expect((await client.callTool('a__added')).content).toEqual([{ type: 'text', text: 'new' }]);
  });

  it('a list change a backend announces reaches a listening client even when nothing new was added', async () => {
    const subscription = client.listen({ promptsListChanged: true });
    await subscription.acknowledged;
    a.notifyPromptsChanged();
    for await (const n of subscription) if (n.method === 'notifications/prompts/list_changed') break;
    subscription.close();
  });

  it('completion of prompt arguments and template variables, from the owning server', async () => {
    const prompt = await client.complete(
      { type: 'ref/prompt', name: 'a__greet' },
      { name: 'city', value: 'pa' },
    );
    expect(prompt.completion.values).toEqual(['paris', 'park']);
    const template = await client.complete(
      { type: 'ref/resource', uri: 'b+memo://{id}' },
      { name: 'id', value: '1' },
    );
    expect(template.completion.values).toEqual(['1', '12']);
    const got = await client.getPrompt('b__greet', { city: 'rome' });
    expect(got.messages[0]?.content).toEqual({ type: 'text', text: 'Hello from rome' });
  });

  it('resource reads by URI, prefixed where two servers offer the same one', async () => {
    const uris = (await client.listResources()).map((r) => r.uri).sort();
    expect(uris).toEqual(['a+memo://shared', 'b+memo://shared']);
    const read = await client.readResource('b+memo://shared');
    expect(read.contents).toEqual([{ uri: 'b+memo://shared', text: 'shared from b' }]);
  });
});
