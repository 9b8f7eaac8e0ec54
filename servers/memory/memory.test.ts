/**
 * The memory server in-process: concurrent writes lose nothing (the official server's
 * read-modify-write per call can), a failed call leaves the file as it was, inputs are
 * bounded, and the graph resource tells its subscribers when the graph changes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { connect } from '../../src/server/index.js';
import { createLinkedPair } from '../../src/testing/index.js';
import { parseGraph } from './graph.js';
import { createReferenceServer, GRAPH_URI } from './server.js';
import { MAX_ITEMS, MAX_TEXT } from './tools.js';

let dir: string;
let file: string;
let client: Client;
const updated: string[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcpkit-memory-'));
  file = join(dir, 'graph.jsonl');
  const server = await createReferenceServer([], { MEMORY_FILE_PATH: file });
  const [a, b] = createLinkedPair();
  await connect(server, a);
  updated.length = 0;
  client = createClient({
    name: 't',
    version: '0',
    era: 'legacy',
    onNotification: (n) => {
      if (n.method === 'notifications/resources/updated') updated.push((n.params as { uri: string }).uri);
    },
  });
  await client.connect(b);
});

afterEach(async () => {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
});

const entity = (name: string) => ({ name, entityType: 't', observations: [] });

describe('the memory server', () => {
  it('keeps every one of many concurrent writes', async () => {
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        client.callTool('create_entities', { entities: [entity(`e${i}`)] }),
      ),
    );
    expect(parseGraph(readFileSync(file, 'utf8')).entities).toHaveLength(40);
  });

  it('leaves the file as it was when a call fails half way', async () => {
    await client.callTool('create_entities', { entities: [entity('a')] });
    const before = readFileSync(file, 'utf8');
    const failed = await client.callTool('add_observations', {
      observations: [
        { entityName: 'a', contents: ['kept?'] },
        { entityName: 'missing', contents: ['x'] },
      ],
    });
    expect(failed).toMatchObject({
      isError: true,
      content: [{ text: 'Entity with name missing not found' }],
    });
    expect(readFileSync(file, 'utf8')).toBe(before);
    const graph = (await client.callTool('read_graph', {})).structuredContent;
    expect(graph).toEqual({ entities: [entity('a')], relations: [] });
  });

  it('refuses a string or an array over the bounds, without touching the graph', async () => {
    const long = await client.callTool('create_entities', {
      entities: [{ name: 'x'.repeat(MAX_TEXT + 1), entityType: 't', observations: [] }],
    });
    expect(long).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^Input too large/) }],
    });
    const many = await client.callTool('open_nodes', {
      names: Array.from({ length: MAX_ITEMS + 1 }, () => 'n'),
    });
    expect(many.isError).toBe(true);
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
  });

  it('never overwrites a file it cannot parse', async () => {
    writeFileSync(file, 'not json\n');
    const answer = await client.callTool('create_entities', { entities: [entity('a')] });
    expect(answer.isError).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('not json\n');
  });

  it('serves the graph as a resource and notifies its subscribers of changes', async () => {
    await client.subscribeResource(GRAPH_URI);
    await client.callTool('create_entities', { entities: [entity('a')] });
    await client.callTool('read_graph', {});
    const read = await client.readResource(GRAPH_URI);
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({
      entities: [entity('a')],
      relations: [],
    });
    expect(updated).toEqual([GRAPH_URI]);
  });
});
