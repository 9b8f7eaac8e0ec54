import { describe, expect, it } from 'vitest';
import { createClient } from '../client/index.js';
import type { Middleware, Params } from '../core/index.js';
import { connect, createServer, visibleByTags, type McpServer } from '../server/index.js';
import { createLinkedPair } from '../testing/index.js';
import { toolSearch } from './index.js';

const CALLER = 'example.com/caller';
const SCOPES: Record<string, string[]> = { reader: ['read'], admin: ['read', 'admin'] };
const identify: Middleware = (next) => (message, ctx) => {
  const subject = (message.params?._meta as Params | undefined)?.[CALLER];
  return typeof subject === 'string'
    ? next(message, { ...ctx, auth: { subject, scopes: SCOPES[subject] ?? [] } })
    : next(message, ctx);
};
const as =
  (subject: string): Middleware =>
  (next) =>
  (message, ctx) =>
    next(
      {
        ...message,
        params: { ...message.params, _meta: { ...(message.params?._meta as Params), [CALLER]: subject } },
      } as typeof message,
      ctx,
    );

/** 200 tools (`note_0`…), plus one admin-only `purge_notes` and one zod-free typed `count_words`. */
function bigServer(): McpServer {
  const server = createServer({ name: 'big', version: '1' }).use(identify);
  for (let i = 0; i < 200; i++)
    server.tool(`note_${i}`, { description: `Reads note number ${i}`, tags: ['read'] }, () => `note ${i}`);
  server.tool('purge_notes', { description: 'Deletes every note for good', tags: ['admin'] }, () => 'purged');
  server.tool(
    'count_words',
    {
      description: 'Counts the words of a text',
      tags: ['read'],
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    (args) => String((args.text as string).split(/\s+/).length),
  );
  return server;
}

describe.each(['modern', 'legacy'] as const)('toolSearch() as a server transform (%s)', (era) => {
  async function clientOf(server: McpServer, subject: string) {
    const [a, b] = createLinkedPair();
    await connect(server, b);
    const client = createClient({ name: subject, version: '1', era, middleware: [as(subject)] });
    await client.connect(a);
    return client;
  }

  it('replaces 202 tools by two, keeps per-caller visibility on search and call, and checks arguments', async () => {
    const server = bigServer().transform(
      visibleByTags((caller) => caller.auth?.scopes ?? []),
      toolSearch(),
    );
    const [reader, admin] = await Promise.all([clientOf(server, 'reader'), clientOf(server, 'admin')]);
    expect((await reader.listTools()).map((t) => t.name)).toEqual(['search_tools', 'call_tool']);
    const found = async (client: typeof reader, query: string) =>
      (
        (await client.callTool('search_tools', { query })).structuredContent as {
          tools: Array<{ name: string }>;
        }
      ).tools.map((t) => t.name);
    expect(await found(reader, 'count words of a text')).toContain('count_words');
    expect(await found(reader, 'delete every note')).not.toContain('purge_notes');
    expect((await found(admin, 'delete every note'))[0]).toBe('purge_notes');
    expect(await reader.callTool('call_tool', { name: 'purge_notes' })).toMatchObject({ isError: true });
    expect(await admin.callTool('call_tool', { name: 'purge_notes' })).toMatchObject({
      content: [{ text: 'purged' }],
    });
    expect(
      await reader.callTool('call_tool', { name: 'count_words', arguments: { text: 'a b c' } }),
    ).toMatchObject({ content: [{ text: '3' }] });
    const bad = await reader.callTool('call_tool', { name: 'count_words', arguments: { text: 3 } });
    expect(bad.isError).toBe(true);
    await Promise.all([reader.close(), admin.close()]);
  });

  it('works on a mount: the child’s tools are searched under their prefixed names', async () => {
    const parent = createServer({ name: 'parent', version: '1' });
    parent.tool('hello', {}, () => 'hi');
    parent.mount('notes', bigServer(), {
      transforms: [toolSearch({ names: { search: 'search_notes', call: 'call_note' } })],
    });
    const client = await clientOf(parent, 'admin');
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).toEqual(['hello', 'notes__search_notes', 'notes__call_note']);
    const hits = (await client.callTool('notes__search_notes', { query: 'note number 42' }))
      .structuredContent as { tools: Array<{ name: string }> };
    expect(hits.tools[0]!.name).toBe('note_42');
    expect(await client.callTool('notes__call_note', { name: 'note_42' })).toMatchObject({
      content: [{ text: 'note 42' }],
    });
    await client.close();
  });
});
