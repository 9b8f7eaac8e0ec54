import { describe, expect, it } from 'vitest';
import type { Params } from '../core/jsonrpc.js';
import { ListViews } from './views.js';

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
