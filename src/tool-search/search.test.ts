import { describe, expect, it } from 'vitest';
import { createClient, type Client } from '../client/index.js';
import type { Middleware, Params, Tool } from '../core/index.js';
import { connect, createServer, type RequestContext } from '../server/index.js';
import { createLinkedPair } from '../testing/index.js';
import { createToolSearch, installToolSearch, type SearchableTool } from './index.js';

const CALLER = 'example.com/caller';

function entry(
  tool: Partial<Tool> & { name: string },
  visible?: (ctx: RequestContext) => boolean,
): SearchableTool {
  return {
    tool: { inputSchema: { type: 'object' }, ...tool } as Tool,
    ...(visible ? { visible } : {}),
    call: async (args) => ({ content: [{ type: 'text', text: `${tool.name} ${JSON.stringify(args)}` }] }),
  };
}

const adminOnly = (ctx: RequestContext) => ctx.auth?.subject === 'admin';
const CATALOGUE: SearchableTool[] = [
  entry({
    name: 'weather_forecast',
    description: 'Forecast of the weather for a city, by day',
    inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } } },
  }),
  entry({ name: 'send_email', title: 'Send an email', description: 'Sends a message to a recipient' }),
  entry({ name: 'read_file', description: 'Reads a text file from disk' }),
  entry({ name: 'getPetById', description: 'Returns a single pet' }),
  entry({ name: 'delete_user', description: 'Deletes a user account for good' }, adminOnly),
  entry({ name: 'list_users', description: 'Lists user accounts' }),
];
const anyone = { auth: undefined } as RequestContext;
const admin = { auth: { subject: 'admin' } } as RequestContext;

describe('createToolSearch', () => {
  it('ranks tools by name, title, description and argument words (camelCase and snake_case split)', async () => {
    const search = createToolSearch({ tools: () => CATALOGUE });
    expect((await search.search('weather in a city', anyone))[0]!.name).toBe('weather_forecast');
    expect((await search.search('pet by id', anyone))[0]!.name).toBe('getPetById');
    expect((await search.search('email', anyone))[0]).toMatchObject({
      name: 'send_email',
      title: 'Send an email',
    });
    expect((await search.search('forcast', anyone))[0]!.name).toBe('weather_forecast'); // a typo still finds it
    expect(await search.search('zzzqqq', anyone)).toEqual([]);
  });

  it('shows and calls a tool only for the callers it is visible to', async () => {
    const search = createToolSearch({ tools: () => CATALOGUE });
    expect((await search.search('user accounts', anyone)).map((h) => h.name)).toEqual(['list_users']);
    expect((await search.search('user accounts', admin)).map((h) => h.name).sort()).toEqual([
      'delete_user',
      'list_users',
    ]);
    const [, call] = search.tools;
    const hidden = await call.call({ name: 'delete_user', arguments: {} }, anyone);
    const missing = await call.call({ name: 'no_such_tool', arguments: {} }, anyone);
    expect(JSON.stringify(hidden).replace('delete_user', 'X')).toBe(
      JSON.stringify(missing).replace('no_such_tool', 'X'),
    );
    expect(await call.call({ name: 'delete_user', arguments: { id: 1 } }, admin)).toEqual({
      content: [{ type: 'text', text: 'delete_user {"id":1}' }],
    });
  });

  it('bounds the result count, refuses bad arguments, and follows a changed tool list', async () => {
    let tools = CATALOGUE;
    const search = createToolSearch({ tools: () => tools }, { defaultLimit: 2, maxLimit: 3 });
    expect((await search.search('a', anyone)).length).toBeLessThanOrEqual(2);
    expect(await search.search('user account file email weather pet', anyone, 100)).toHaveLength(3);
    const [find] = search.tools;
    expect(await find.call({ query: '' }, anyone)).toMatchObject({ isError: true });
    expect(await find.call({ query: 'x', limit: 4 }, anyone)).toMatchObject({ isError: true });
    expect(await search.search('invoice', anyone)).toEqual([]);
    tools = [...CATALOGUE, entry({ name: 'create_invoice', description: 'Creates an invoice' })];
    expect((await search.search('invoice', anyone))[0]!.name).toBe('create_invoice');
  });
});

/** A client that names its caller in `_meta` and a server middleware that trusts it (as an auth middleware would). */
const identify: Middleware = (next) => (message, ctx) => {
  const subject = (message.params?._meta as Params | undefined)?.[CALLER];
  return typeof subject === 'string'
    ? next(message, { ...ctx, auth: { subject, scopes: [] } })
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

describe.each(['modern', 'legacy'] as const)('tool search on a server (%s)', (era) => {
  async function clientFor(subject: string, server: ReturnType<typeof createServer>): Promise<Client> {
    const [a, b] = createLinkedPair();
    await connect(server, b);
    const client = createClient({ name: subject, version: '1', era, middleware: [as(subject)] });
    await client.connect(a);
    return client;
  }

  it('lists only search_tools and call_tool, and gives each caller its own view at once', async () => {
    const server = createServer({ name: 's', version: '1' }).use(identify);
    installToolSearch(server, createToolSearch({ tools: () => CATALOGUE }));
    const [guest, boss] = await Promise.all([clientFor('guest', server), clientFor('admin', server)]);
    expect((await guest.listTools()).map((t) => t.name)).toEqual(['search_tools', 'call_tool']);
    const [seenByGuest, seenByBoss] = await Promise.all([
      guest.callTool('search_tools', { query: 'delete user account' }),
      boss.callTool('search_tools', { query: 'delete user account' }),
    ]);
    const names = (r: typeof seenByGuest) =>
      (r.structuredContent as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(names(seenByGuest)).not.toContain('delete_user');
    expect(names(seenByBoss)[0]).toBe('delete_user');
    const refused = await guest.callTool('call_tool', { name: 'delete_user', arguments: { id: 1 } });
    expect(refused).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^Unknown tool: delete_user/) }],
    });
    const done = await boss.callTool('call_tool', { name: 'delete_user', arguments: { id: 1 } });
    expect(done.content).toEqual([{ type: 'text', text: 'delete_user {"id":1}' }]);
    await Promise.all([guest.close(), boss.close()]);
  });
});
