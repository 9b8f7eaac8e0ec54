/**
 * Our client drives the official memory server (`@modelcontextprotocol/server-memory`, built
 * on the v1 SDK, legacy era) over stdio, with its knowledge graph in a temporary file.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onlyText } from './helpers.js';
import { closeSessions, connectTo } from './reference-session.js';

afterAll(async () => {
  expect(await closeSessions()).toEqual([]);
});

describe('our client against the official memory server', () => {
  let dir: string;
  let file: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcpkit-interop-memory-'));
    file = join(dir, 'memory.jsonl');
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates entities and relations and reads the graph back, also from a second process', async () => {
    const memory = await connectTo('server-memory', [], { env: { MEMORY_FILE_PATH: file } });
    expect(memory.client.era).toBe('legacy');
    expect(memory.client.protocolVersion).toBe('2025-11-25');
    const names = (await memory.client.listTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['create_entities', 'create_relations', 'read_graph']));

    const entities = [
      { name: 'Ada', entityType: 'person', observations: ['wrote the first program'] },
      { name: 'Analytical Engine', entityType: 'machine', observations: ['designed by Babbage'] },
    ];
    const created = await memory.client.callTool('create_entities', { entities });
    expect(created.isError).toBeFalsy();
    await memory.client.callTool('create_relations', {
      relations: [{ from: 'Ada', to: 'Analytical Engine', relationType: 'programmed' }],
    });

    const graph = await memory.client.callTool('read_graph', {});
    expect(JSON.parse(onlyText(graph))).toEqual({
      entities,
      relations: [{ from: 'Ada', to: 'Analytical Engine', relationType: 'programmed' }],
    });
    await memory.client.close();
    expect(existsSync(file)).toBe(true);

    const again = await connectTo('server-memory', [], { env: { MEMORY_FILE_PATH: file } });
    const found = await again.client.callTool('search_nodes', { query: 'first program' });
    expect(JSON.parse(onlyText(found)).entities).toEqual([entities[0]]);
  });
});
