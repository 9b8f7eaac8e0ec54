/**
 * The gateway with `toolSearch`: the official filesystem server (stdio, legacy) and our
 * everything server (HTTP, modern) behind `search_tools` and `call_tool`, one search over
 * both, to mcpkit clients of both eras.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../client/index.js';
import { serve, type Served } from '../../integrations/node/index.js';
import { connect } from '../../server/index.js';
import { createLinkedPair } from '../../testing/index.js';
import { createEverythingServer } from '../../../servers/everything/server.js';
import { referenceEntry } from '../../../test/interop/helpers.js';
import { createGateway, createHost, type Gateway, type Host } from '../index.js';

describe('the gateway serving every backend behind tool search', () => {
  let dir: string;
  let ours: Served;
  let host: Host;
  let gateway: Gateway;

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'mcpkit-search-')));
    writeFileSync(join(dir, 'note.txt'), 'found through tool search\n');
    ours = await serve(createEverythingServer({ eras: ['modern'] }), { port: 0 });
    host = createHost({
      servers: {
        filesystem: { command: process.execPath, args: [referenceEntry('server-filesystem'), dir] },
        ours: { url: ours.url },
      },
    });
    await host.start();
    gateway = createGateway(host, {
      toolSearch: { allow: (tool) => tool.name !== 'filesystem__write_file' },
    });
  });

  afterAll(async () => {
    gateway?.close();
    await host?.close();
    await ours?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['modern', 'legacy'] as const)('finds and calls tools of both backends (%s)', async (era) => {
    const [a, b] = createLinkedPair();
    await connect(gateway.server, b);
    const client = createClient({ name: 'c', version: '1', era });
    await client.connect(a);
    expect((await client.listTools()).map((t) => t.name)).toEqual(['search_tools', 'call_tool']);
    const search = async (query: string) =>
      (
        (await client.callTool('search_tools', { query, limit: 5 })).structuredContent as {
          tools: Array<{ name: string }>;
        }
      ).tools.map((t) => t.name);
    expect(await search('read text file contents')).toContain('filesystem__read_text_file');
    expect(await search('echo a message')).toContain('ours__echo');
    expect(await search('write file')).not.toContain('filesystem__write_file');
    const read = await client.callTool('call_tool', {
      name: 'filesystem__read_text_file',
      arguments: { path: join(dir, 'note.txt') },
    });
    expect(JSON.stringify(read.content)).toContain('found through tool search');
    const echoed = await client.callTool('call_tool', { name: 'ours__echo', arguments: { text: 'hi' } });
    expect(JSON.stringify(echoed.content)).toContain('hi');
    const refused = await client.callTool('call_tool', {
      name: 'filesystem__write_file',
      arguments: { path: join(dir, 'x'), content: 'x' },
    });
    expect(refused.isError).toBe(true);
    await client.close();
  });
});
