import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../client/index.js';
import { streamableHttp } from '../../client/http/index.js';
import { serve } from '../../integrations/node/index.js';
import { modernBody, modernHeaders } from '../../../test/support/http-harness.js';
import { until } from '../../../test/support/wait.js';
import { createServer, visibleByTags, visibleTo, type McpServer } from '../index.js';
import type { HttpAuthGuard } from '../http/index.js';

/** What each caller's token grants: the tags of the tools it may use. */
const SCOPES: Record<string, string[]> = { alice: ['read'], bob: ['read', 'admin'] };

/** An HTTP auth guard whose bearer token is the subject. */
const guard: HttpAuthGuard = {
  paths: [],
  serve: () => undefined,
  authenticate: (request) => {
    const subject = /^Bearer (\w+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
    return Promise.resolve({ auth: { subject, scopes: SCOPES[subject] ?? [] } });
  },
  insufficientScope: () => ({ status: 403, headers: {}, body: null }),
};

/** Subjects let into the beta tool, changed while clients listen. */
const beta = new Set<string>();

function catalogueServer(): McpServer {
  const server = createServer({ name: 'per-caller', version: '1' });
  server.tool('read_notes', { tags: ['read'] }, () => 'notes');
  server.tool('drop_notes', { tags: ['admin'] }, () => 'dropped');
  server.tool('beta', {}, (_a, ctx) => `beta for ${ctx.auth?.subject}`);
  server.transform(
    visibleByTags((caller) => caller.auth?.scopes ?? []),
    visibleTo(
      (entry, caller) =>
        !('tool' in entry) || entry.tool.name !== 'beta' || beta.has(caller.auth?.subject ?? ''),
    ),
  );
  return server;
}

const opened: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const c of opened.splice(0).reverse()) await c.close();
  beta.clear();
});

async function clientOf(url: string, subject: string, era: 'modern' | 'legacy'): Promise<Client> {
  const client = createClient({ name: `${subject}-${era}`, version: '1', era });
  await client.connect(streamableHttp(url, { headers: { authorization: `Bearer ${subject}` } }));
  opened.push(client);
  return client;
}

describe('per-caller catalogues (several identities at once, both eras)', () => {
  it('lists and calls per caller, privately cached; hidden tools are not callable', async () => {
    const served = await serve(catalogueServer(), { port: 0, http: { auth: guard } });
    opened.push(served);
    const callers = await Promise.all(
      (['alice', 'bob'] as const).flatMap((s) =>
        (['modern', 'legacy'] as const).map((e) => clientOf(served.url, s, e)),
      ),
    );
    const lists = await Promise.all(callers.map(async (c) => (await c.listTools()).map((t) => t.name)));
    expect(lists).toEqual([
      ['read_notes'],
      ['read_notes'],
      ['read_notes', 'drop_notes'],
      ['read_notes', 'drop_notes'],
    ]);
    const [aliceModern, aliceLegacy, bobModern] = callers;
    await expect(aliceModern!.callTool('drop_notes', {})).rejects.toThrow(/Unknown tool/);
    await expect(aliceLegacy!.callTool('drop_notes', {})).rejects.toThrow(/Unknown tool/);
    expect((await bobModern!.callTool('drop_notes', {})).content).toEqual([
      { type: 'text', text: 'dropped' },
    ]);
    const body = modernBody('tools/list');
    const raw = await fetch(served.url, {
      method: 'POST',
      headers: { ...modernHeaders(body), authorization: 'Bearer alice' },
      body: JSON.stringify(body),
    });
    expect(((await raw.json()) as { result: { cacheScope?: string } }).result.cacheScope).toBe('private');
  });

  it('announces a list change only to the callers whose view changed', async () => {
    const server = catalogueServer();
    const served = await serve(server, { port: 0, http: { auth: guard } });
    opened.push(served);
    const heard = new Map<string, number>();
    const callers = await Promise.all(
      (['alice', 'bob'] as const).flatMap((s) =>
        (['modern', 'legacy'] as const).map((e) => clientOf(served.url, s, e)),
      ),
    );
    await Promise.all(
      callers.map(async (client, i) => {
        const key = ['alice-modern', 'alice-legacy', 'bob-modern', 'bob-legacy'][i]!;
        heard.set(key, 0);
        await client.listTools();
        const sub = client.listen({ toolsListChanged: true });
        await sub.acknowledged;
        opened.push({ close: () => Promise.resolve(sub.close()) });
        void (async () => {
          try {
            for await (const n of sub)
              if (n.method === 'notifications/tools/list_changed') heard.set(key, heard.get(key)! + 1);
          } catch {
            // the connection closed at the end of the test
          }
        })();
      }),
    );
    beta.add('alice');
    server.notifyToolsChanged(); // only alice's view changed
    await until(() => heard.get('alice-modern')! >= 1 && heard.get('alice-legacy')! >= 1);
    expect((await callers[0]!.listTools()).map((t) => t.name)).toContain('beta');
    expect((await callers[0]!.callTool('beta', {})).content).toEqual([
      { type: 'text', text: 'beta for alice' },
    ]);
    await expect(callers[2]!.callTool('beta', {})).rejects.toThrow(/Unknown tool/);
    server.tool('for_everyone', {}, () => 'hi'); // everyone's view changed
    await until(() => [...heard.values()].every((n) => n >= 1) && heard.get('alice-modern')! >= 2);
    await until(() => heard.get('alice-legacy')! >= 2);
    // Events arrive in order on each stream: bob's one notification is the second change's.
    expect(heard.get('bob-modern')).toBe(1);
    expect(heard.get('bob-legacy')).toBe(1);
  });
});
