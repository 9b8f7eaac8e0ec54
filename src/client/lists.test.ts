import { describe, expect, it } from 'vitest';
import type { Params } from '../core/jsonrpc.js';
import { connectFake, legacy, modern, until } from '../../test/support/client-harness.js';
import { ListViews } from './lists.js';

const cacheHints = { ttlMs: 0, cacheScope: 'public' };

/** A list method serving `pages` in order; page i points at cursor `cursors[i]`. */
function paged(key: string, pages: unknown[][], cursors: (string | undefined)[]) {
  return (params: Params): Params => {
    const index = params.cursor === undefined ? 0 : cursors.indexOf(params.cursor as string) + 1;
    const next = cursors[index];
    const result: Params = { resultType: 'complete', [key]: pages[index] ?? [], ...cacheHints };
    if (next !== undefined) result.nextCursor = next;
    return result;
  };
}

const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

describe('auto-pagination', () => {
  it('fetches every page, treating an empty-string cursor as a cursor', async () => {
    const fake = await connectFake(
      modern({ 'tools/list': paged('tools', [[tool('a')], [tool('b')], [tool('c')]], ['', 'p3']) }),
    );
    const tools = await fake.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['a', 'b', 'c']);
    expect(fake.received.slice(1).map((r) => r.params?.cursor)).toEqual([undefined, '', 'p3']);
  });

  it.each([
    ['listResources', 'resources/list', 'resources'],
    ['listResourceTemplates', 'resources/templates/list', 'resourceTemplates'],
    ['listPrompts', 'prompts/list', 'prompts'],
  ] as const)('%s concatenates the pages of %s', async (call, method, key) => {
    const fake = await connectFake(
      modern({ [method]: paged(key, [[{ name: 'x' }], [{ name: 'y' }]], ['2']) }),
    );
    const items = await fake.client[call]();
    expect(items).toEqual([{ name: 'x' }, { name: 'y' }]);
  });

  it('fails with INVALID_RESULT when the server repeats a cursor', async () => {
    const loop = () => ({ resultType: 'complete', tools: [], nextCursor: 'again', ...cacheHints });
    const fake = await connectFake(modern({ 'tools/list': loop }));
    await expect(fake.client.listTools()).rejects.toMatchObject({
      code: 'INVALID_RESULT',
      message: /repeated cursor/,
    });
  });

  it('fails with INVALID_RESULT past maxListPages', async () => {
    let n = 0;
    const endless = () => ({ resultType: 'complete', tools: [], nextCursor: String(n++), ...cacheHints });
    const fake = await connectFake(modern({ 'tools/list': endless }), { maxListPages: 3 });
    await expect(fake.client.listTools()).rejects.toMatchObject({
      code: 'INVALID_RESULT',
      message: /more than 3 pages/,
    });
    expect(fake.received).toHaveLength(4);
  });

  it('returns the raw page from listToolsPage', async () => {
    const fake = await connectFake(
      modern({ 'tools/list': paged('tools', [[tool('a')], [tool('b')]], ['next']) }),
    );
    const first = await fake.client.listToolsPage();
    expect(first).toMatchObject({ tools: [tool('a')], nextCursor: 'next', ttlMs: 0 });
    await expect(fake.client.listToolsPage('next')).resolves.toMatchObject({ tools: [tool('b')] });
  });

  it('rejects a page whose items are not an array', async () => {
    const fake = await connectFake(
      modern({ 'prompts/list': () => ({ resultType: 'complete', prompts: {}, ...cacheHints }) }),
    );
    await expect(fake.client.listPrompts()).rejects.toMatchObject({ code: 'INVALID_RESULT' });
  });

  it('paginates legacy results without resultType', async () => {
    const pages = (params: Params) =>
      params.cursor ? { tools: [tool('b')] } : { tools: [tool('a')], nextCursor: 'n' };
    const fake = await connectFake(legacy({ 'tools/list': pages }), { era: 'legacy' }, '2025-11-25');
    expect((await fake.client.listTools()).map((t) => t.name)).toEqual(['a', 'b']);
  });
});

describe('structuredContent validation against outputSchema', () => {
  const weather = {
    name: 'weather',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
  };
  const serve = (result: Params) =>
    modern({
      'tools/list': () => ({ resultType: 'complete', tools: [weather, tool('plain')], ...cacheHints }),
      'tools/call': () => ({ resultType: 'complete', content: [], ...result }),
    });

  it('accepts structuredContent that matches, listing the tools once first', async () => {
    const fake = await connectFake(serve({ structuredContent: { celsius: 21 } }));
    await expect(fake.client.callTool('weather', { city: 'Paris' })).resolves.toMatchObject({
      structuredContent: { celsius: 21 },
    });
    await fake.client.callTool('weather');
    expect(fake.received.map((r) => r.method)).toEqual([
      'server/discover',
      'tools/list',
      'tools/call',
      'tools/call',
    ]);
    expect(fake.received[2]?.params).toMatchObject({ name: 'weather', arguments: { city: 'Paris' } });
  });

  it('rejects structuredContent that does not match with INVALID_RESULT', async () => {
    const fake = await connectFake(serve({ structuredContent: { celsius: 'warm' } }));
    await expect(fake.client.callTool('weather')).rejects.toMatchObject({
      code: 'INVALID_RESULT',
      message: /celsius/,
    });
  });

  it('rejects a missing structuredContent when an outputSchema is declared', async () => {
    const fake = await connectFake(serve({}));
    await expect(fake.client.callTool('weather')).rejects.toMatchObject({ code: 'INVALID_RESULT' });
  });

  it('does not validate a result marked isError', async () => {
    const fake = await connectFake(serve({ isError: true, content: [{ type: 'text', text: 'no data' }] }));
    await expect(fake.client.callTool('weather')).resolves.toMatchObject({ isError: true });
  });

  it('does not validate tools without an outputSchema', async () => {
    const fake = await connectFake(serve({ structuredContent: { anything: true } }));
    await expect(fake.client.callTool('plain')).resolves.toMatchObject({
      structuredContent: { anything: true },
    });
  });

  it('refuses an outputSchema with a network $ref, naming the tool and the reference, on every call', async () => {
    const hostile = { ...weather, outputSchema: { $ref: 'https://example.com/x.json' } };
    const fake = await connectFake(
      modern({
        'tools/list': () => ({ resultType: 'complete', tools: [hostile], ...cacheHints }),
        'tools/call': () => ({ resultType: 'complete', content: [], structuredContent: { celsius: 1 } }),
      }),
    );
    for (let i = 0; i < 2; i++)
      await expect(fake.client.callTool('weather')).rejects.toMatchObject({
        code: 'INVALID_DEFINITION',
        message: expect.stringMatching(/^tool weather outputSchema: .*"https:\/\/example.com\/x.json"/),
      });
  });

  it('refuses an outputSchema that only fails on first use, naming the tool', async () => {
    const hostile = { ...weather, outputSchema: { type: 'object', properties: { a: { minLength: 'x' } } } };
    const fake = await connectFake(
      modern({
        'tools/list': () => ({ resultType: 'complete', tools: [hostile], ...cacheHints }),
        'tools/call': () => ({ resultType: 'complete', content: [], structuredContent: { a: 'y' } }),
      }),
    );
    await expect(fake.client.callTool('weather')).rejects.toMatchObject({
      code: 'INVALID_DEFINITION',
      message: expect.stringMatching(/^tool weather outputSchema: .*minLength/),
    });
  });

  it('lists the tools again after tools/list_changed', async () => {
    let changed = false;
    const fake = await connectFake(serve({ structuredContent: { celsius: 1 } }), {
      onNotification: () => (changed = true),
    });
    await fake.client.callTool('weather');
    fake.server.notify('notifications/tools/list_changed');
    await until(() => changed);
    await fake.client.callTool('weather');
    expect(fake.received.filter((r) => r.method === 'tools/list')).toHaveLength(2);
  });
});

function server(pages: Params[][]) {
  const calls: string[] = [];
  let version = 0;
  const send = async (kind: string, params: Params | undefined) => {
    calls.push(`${kind}:${String(params?.cursor ?? '')}`);
    const list = pages[Math.min(version, pages.length - 1)] ?? [];
    const index = params?.cursor === undefined ? 0 : Number(params.cursor);
    return list[index] ?? {};
  };
  return { send, calls, bump: () => version++ };
}

describe('ListViews', () => {
  it('keeps a list while the smallest page ttlMs says it is fresh', async () => {
    let now = 0;
    const s = server([
      [
        { tools: [{ name: 'a' }], nextCursor: '1', ttlMs: 1000, cacheScope: 'public' },
        { tools: [{ name: 'b' }], ttlMs: 500 },
      ],
    ]);
    const views = new ListViews(s.send, { maxPages: 10, now: () => now });
    const first = await views.get('tools');
    expect(first).toMatchObject({ items: [{ name: 'a' }, { name: 'b' }], ttlMs: 500, cacheScope: 'public' });
    now = 499;
    await views.get('tools');
    expect(s.calls).toEqual(['tools:', 'tools:1']);
    now = 500;
    await views.get('tools');
    expect(s.calls).toHaveLength(4);
  });

  it('treats a missing or negative ttlMs as stale at once', async () => {
    const s = server([[{ prompts: [], ttlMs: -5 }]]);
    const views = new ListViews(s.send, { maxPages: 10, now: () => 0 });
    await views.get('prompts');
    await views.get('prompts');
    expect(s.calls).toEqual(['prompts:', 'prompts:']);
  });

  it('drops a fresh list when its list_changed notification arrives', async () => {
    const s = server([
      [{ tools: [{ name: 'a' }], ttlMs: 60_000 }],
      [{ tools: [{ name: 'b' }], ttlMs: 60_000 }],
    ]);
    const views = new ListViews(s.send, { maxPages: 10, now: () => 0 });
    expect((await views.get('tools')).items).toEqual([{ name: 'a' }]);
    expect(views.invalidate('notifications/prompts/list_changed')).toBe(true);
    expect((await views.get('tools')).items).toEqual([{ name: 'a' }]);
    s.bump();
    views.invalidate('notifications/tools/list_changed');
    expect((await views.get('tools')).items).toEqual([{ name: 'b' }]);
    expect(views.invalidate('notifications/message')).toBe(false);
  });

  it('shares one fetch between concurrent callers', async () => {
    const s = server([[{ resources: [], ttlMs: 10 }]]);
    const views = new ListViews(s.send, { maxPages: 10, now: () => 0 });
    await Promise.all([views.get('resources'), views.get('resources'), views.get('resources')]);
    expect(s.calls).toEqual(['resources:']);
  });
});
