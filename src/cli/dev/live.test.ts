/**
 * `mcpkit dev`'s replaceable server over real Streamable HTTP (port 0): a legacy session and a
 * modern listen stay connected across replacements and hear exactly the lists that changed;
 * a call in flight finishes on the definition it started on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, streamableHttp, type Client, type Subscription } from '../../client/index.js';
import type { JsonRpcNotification } from '../../core/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { createServer, type McpServer } from '../../server/index.js';
import { until } from '../../../test/support/client-harness.js';
import { LiveServer, type Changes } from './live.js';

const opened: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const item of opened.splice(0).reverse()) await item.close();
});

function definition(build: (server: McpServer) => void): McpServer {
  const server = createServer({ name: 'demo', version: '1' });
  build(server);
  return server;
}

async function started(
  first: McpServer,
  onChange?: (c: Changes) => void,
): Promise<{ live: LiveServer; url: string }> {
  const live = new LiveServer(first, onChange);
  const served: Served = await serve(live.server, { port: 0, host: '127.0.0.1' });
  opened.push({ close: () => (live.server.closeSubscriptions(), served.close()) });
  return { live, url: served.url };
}

async function client(url: string, era: 'legacy' | 'modern', notifications: string[] = []): Promise<Client> {
  const c = createClient({
    name: 'c',
    version: '1',
    era,
    onNotification: (n: JsonRpcNotification) => void notifications.push(n.method),
  });
  await c.connect(streamableHttp(url));
  opened.push(c);
  return c;
}

function drain(sub: Subscription): string[] {
  const methods: string[] = [];
  void (async () => {
    for await (const n of sub) methods.push(n.method);
  })();
  return methods;
}

const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0]!.text;

describe('mcpkit dev: replacing the definition while clients stay connected', () => {
  it('adds, changes and removes a tool; a legacy session and a modern listen hear each change, and only changes', async () => {
    const v1 = definition((s) => {
      s.tool('keep', { description: 'stays' }, () => 'keep v1');
      s.tool('edit', { description: 'before' }, () => 'edit v1');
      s.tool('drop', { description: 'goes' }, () => 'drop v1');
    });
    const seen: Changes[] = [];
    const { live, url } = await started(v1, (c) => seen.push(c));
    const legacyHeard: string[] = [];
    const legacy = await client(url, 'legacy', legacyHeard);
    expect(legacy.era).toBe('legacy');
    const modern = await client(url, 'modern');
    const sub = modern.listen({ toolsListChanged: true, promptsListChanged: true });
    const modernHeard = drain(sub);
    await sub.acknowledged;
    opened.push({ close: () => sub.close() });
    expect((await legacy.listTools()).map((t) => t.name)).toEqual(['keep', 'edit', 'drop']);

    const v2 = definition((s) => {
      s.tool('keep', { description: 'stays' }, () => 'keep v2');
      s.tool('edit', { description: 'after' }, () => 'edit v2');
      s.tool('added', { description: 'new' }, () => 'added v2');
    });
    expect(live.replace(v2)).toEqual({ tools: { added: ['added'], changed: ['edit'], removed: ['drop'] } });
    await until(() => legacyHeard.includes('notifications/tools/list_changed') && modernHeard.length === 1);
    expect(modernHeard).toEqual(['notifications/tools/list_changed']);

    const tools = await legacy.listTools();
    expect(tools.map((t) => [t.name, t.description])).toEqual([
      ['keep', 'stays'],
      ['edit', 'after'],
      ['added', 'new'],
    ]);
    expect(text(await modern.callTool('keep', {}))).toBe('keep v2');
    expect(text(await legacy.callTool('added', {}))).toBe('added v2');
    await expect(modern.callTool('drop', {})).rejects.toThrow(/Unknown tool: drop/);

    // The same lists again (a handler edited, nothing listed changed): no notification.
    const v3 = definition((s) => {
      s.tool('keep', { description: 'stays' }, () => 'keep v3');
      s.tool('edit', { description: 'after' }, () => 'edit v3');
      s.tool('added', { description: 'new' }, () => 'added v3');
    });
    expect(live.replace(v3)).toEqual({});
    expect(text(await legacy.callTool('keep', {}))).toBe('keep v3');
    // A prompt appears: only the prompts list is announced.
    const v4 = definition((s) => {
      s.tool('keep', { description: 'stays' }, () => 'keep v4');
      s.tool('edit', { description: 'after' }, () => 'edit v4');
      s.tool('added', { description: 'new' }, () => 'added v4');
      s.prompt('hello', {}, () => [{ role: 'user', content: { type: 'text', text: 'hi' } }]);
    });
    live.replace(v4);
    await until(() => modernHeard.length === 2);
    expect(modernHeard).toEqual(['notifications/tools/list_changed', 'notifications/prompts/list_changed']);
    expect(legacyHeard.filter((m) => m === 'notifications/tools/list_changed')).toHaveLength(1);
    expect(seen).toHaveLength(2);
  });

  it('lets a call in flight finish on the definition it started on', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered = 0;
    const v1 = definition((s) =>
      s.tool('slow', {}, async () => {
        entered++;
        await gate;
        return 'old definition';
      }),
    );
    const { live, url } = await started(v1);
    const legacy = await client(url, 'legacy');
    const modern = await client(url, 'modern');
    const calls = [legacy.callTool('slow', {}), modern.callTool('slow', {})];
    await until(() => entered === 2);
    live.replace(definition((s) => s.tool('slow', {}, () => 'new definition')));
    expect(text(await legacy.callTool('slow', {}))).toBe('new definition');
    release();
    expect((await Promise.all(calls)).map(text)).toEqual(['old definition', 'old definition']);
  });

  it('forwards what the definition announces itself: its own registrations and resource updates', async () => {
    const v1 = definition((s) => s.resource('demo://a', { name: 'a' }, (uri) => [{ uri, text: 'A' }]));
    const { url } = await started(v1);
    const heard: string[] = [];
    const legacy = await client(url, 'legacy', heard);
    await legacy.subscribeResource('demo://a');
    v1.notifyResourceUpdated('demo://a');
    v1.tool('late', {}, () => 'registered after load');
    await until(
      () =>
        heard.includes('notifications/resources/updated') &&
        heard.includes('notifications/tools/list_changed'),
    );
    expect(text(await legacy.callTool('late', {}))).toBe('registered after load');
    expect(await legacy.listPrompts()).toEqual([]);
    expect((await legacy.listResources()).map((r) => r.uri)).toEqual(['demo://a']);
  });
});
