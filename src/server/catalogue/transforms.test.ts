import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, type Client } from '../../client/index.js';
import { createLinkedPair } from '../../testing/linked-pair.js';
import { validateWire } from '../../testing/wire-tap.js';
import {
  connect,
  createServer,
  filterByTags,
  promptsAsTools,
  renameTool,
  resourcesAsTools,
  transformTool,
  type McpServer,
} from '../index.js';

async function open(server: McpServer, era: 'modern' | 'legacy'): Promise<Client> {
  const [a, b] = createLinkedPair();
  validateWire(a, era === 'modern' ? '2026-07-28' : '2025-11-25');
  await connect(server, b);
  const client = createClient({ name: 'c', version: '1', era });
  await client.connect(a);
  return client;
}

/** A search tool whose handler echoes the arguments it received. */
function searchServer(): McpServer {
  const server = createServer({ name: 's', version: '1' });
  server.tool(
    'search',
    {
      description: 'Searches.',
      inputSchema: z.object({
        query: z.string().describe('What to look for'),
        limit: z.number().int().max(50),
        tenant: z.enum(['acme', 'globex']),
      }),
      outputSchema: z.object({ echoed: z.record(z.string(), z.unknown()) }),
      tags: ['read'],
    },
    (args) => ({ echoed: args }),
  );
  server.tool('drop_table', { tags: ['admin'] }, () => 'dropped');
  server.prompt('greet', { argsSchema: z.object({ who: z.string() }) }, ({ who }) => [
    { role: 'user', content: { type: 'text', text: `Hello ${who}` } },
  ]);
  server.resource('notes://today', { name: 'today', mimeType: 'text/plain' }, (uri) => [
    { uri, text: 'buy milk' },
  ]);
  server.resourceTemplate('notes://day/{d}', { name: 'day' }, (uri, { d }) => [
    { uri, text: `notes of ${d}` },
  ]);
  return server;
}

describe.each(['modern', 'legacy'] as const)('transforms (%s)', (era) => {
  it('renames, re-describes, hides arguments behind fixed and computed values, and sets defaults', async () => {
    const server = searchServer().transform(
      transformTool('search', {
        name: 'find',
        description: 'Finds notes.',
        arguments: {
          tenant: { value: 'acme' },
          limit: { default: 5, description: 'How many' },
          query: { description: 'Words to find' },
        },
      }),
    );
    const client = await open(server, era);
    const find = (await client.listTools()).find((t) => t.name === 'find')!;
    expect(find.description).toBe('Finds notes.');
    const props = find.inputSchema.properties as Record<string, { description?: string; default?: unknown }>;
    expect(Object.keys(props)).toEqual(['query', 'limit']);
    expect(props.limit).toMatchObject({ default: 5, description: 'How many' });
    expect(props.query?.description).toBe('Words to find');
    expect(find.inputSchema.required).toEqual(['query']);
    expect(find.outputSchema).toBeDefined();
    const result = await client.callTool('find', { query: 'milk' });
    expect(result.structuredContent).toEqual({ echoed: { query: 'milk', limit: 5, tenant: 'acme' } });
    // The transformed tool checks its own schema (no `tenant` to override, query required).
    expect((await client.callTool('find', { limit: 3 })).isError).toBe(true);
    // …and the original's still applies behind it.
    expect((await client.callTool('find', { query: 'x', limit: 500 })).isError).toBe(true);
    await expect(client.callTool('search', { query: 'x', limit: 1, tenant: 'acme' })).rejects.toThrow(
      /Unknown tool/,
    );
    await client.close();
  });

  it('composes transforms, computes hidden values per call, and filters by tag', async () => {
    const server = searchServer().transform(
      renameTool('search', 'lookup'),
      transformTool('lookup', {
        arguments: { tenant: { compute: (args) => (args.query === 'g' ? 'globex' : 'acme') } },
      }),
      filterByTags({ exclude: ['admin'] }),
    );
    const client = await open(server, era);
    expect((await client.listTools()).map((t) => t.name)).toEqual(['lookup']);
    const result = await client.callTool('lookup', { query: 'g', limit: 1 });
    expect(result.structuredContent).toEqual({ echoed: { query: 'g', limit: 1, tenant: 'globex' } });
    await expect(client.callTool('drop_table', {})).rejects.toThrow(/Unknown tool/);
    await client.close();
  });

  it('offers prompts and resources as tools', async () => {
    const server = searchServer().transform(promptsAsTools(), resourcesAsTools());
    const client = await open(server, era);
    const names = (await client.listTools()).map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['list_prompts', 'get_prompt', 'list_resources', 'read_resource']),
    );
    const prompts = await client.callTool('list_prompts', {});
    expect(JSON.stringify(prompts.content)).toContain('greet');
    const got = await client.callTool('get_prompt', { name: 'greet', arguments: { who: 'Ada' } });
    expect(got.content).toEqual([{ type: 'text', text: 'Hello Ada' }]);
    const read = await client.callTool('read_resource', { uri: 'notes://day/monday' });
    expect(read.content).toEqual([
      { type: 'resource', resource: { uri: 'notes://day/monday', text: 'notes of monday' } },
    ]);
    expect((await client.callTool('read_resource', { uri: 'notes://nowhere' })).isError).toBe(true);
    expect((await client.listPrompts()).map((p) => p.name)).toEqual(['greet']);
    await client.close();
  });
});

describe('transforms refused at definition time', () => {
  it('refuses a fixed value that fails the original schema, and leaves the server as it was', () => {
    const server = searchServer();
    expect(() =>
      server.transform(transformTool('search', { arguments: { tenant: { value: 'initech' } } })),
    ).toThrow(/fixed value of 'tenant' fails its schema/);
    expect(() => server.transform(transformTool('search', { arguments: { limit: { value: 51 } } }))).toThrow(
      /fails its schema/,
    );
    expect(() => server.transform(transformTool('nope', { name: 'x' }))).toThrow(/no tool 'nope'/);
    expect(() => server.transform(transformTool('search', { arguments: { missing: { value: 1 } } }))).toThrow(
      /no argument 'missing'/,
    );
    expect(() => server.transform(renameTool('search', 'drop_table'))).toThrow(/offered twice/);
    server.transform(transformTool('search', { arguments: { tenant: { value: 'globex' } } }));
  });

  it('refuses a new name server.tool() would refuse (empty, over 128 characters, a control character)', () => {
    for (const name of ['', 'x'.repeat(129), 'look\nup'])
      expect(() => renameTool('search', name)).toThrow(
        expect.objectContaining({
          code: 'INVALID_DEFINITION',
          message: expect.stringMatching(/1–128 characters/),
        }),
      );
    const server = searchServer();
    server.transform(renameTool('search', 'x'.repeat(128)));
  });
});
