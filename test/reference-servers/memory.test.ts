/**
 * mcpkit's memory server against the official `@modelcontextprotocol/server-memory`, each a
 * child process over stdio: the same tools/list, the same answer to every call of a corpus
 * (errors included), the same resource, and byte-for-byte the same JSONL file afterwards;
 * each server reads the other's file; and a server killed while writing leaves a whole graph.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Client } from '../../src/client/index.js';
import { parseGraph } from '../../servers/memory/graph.js';
import {
  comparableAnswer,
  comparableTool,
  officialEntry,
  ourEntry,
  settle,
  startServer,
  withoutEraFraming,
} from '../support/reference-servers.js';

const SLOW = { timeout: 120_000 };
const dir = mkdtempSync(join(tmpdir(), 'mcpkit-memory-diff-'));
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  rmSync(dir, { recursive: true, force: true });
});

const ada = { name: 'Ada', entityType: 'person', observations: ['wrote the first program', 'likes engines'] };
const engine = { name: 'Analytical Engine', entityType: 'machine', observations: [] };

/** One call: tool, arguments, and whether they break the schema. */
type Call = [tool: string, args: Record<string, unknown>, schemaInvalid?: boolean];

const CORPUS: Call[] = [
  ['read_graph', {}],
  ['create_entities', { entities: [ada, { ...engine, extra: 'dropped' }] }],
  [
    'create_entities',
    { entities: [ada, { name: 'Babbage', entityType: 'person', observations: ['designed it'] }] },
  ],
  ['create_relations', { relations: [{ from: 'Ada', to: 'Analytical Engine', relationType: 'programmed' }] }],
  [
    'create_relations',
    {
      relations: [
        { from: 'Ada', to: 'Analytical Engine', relationType: 'programmed' },
        { from: 'Babbage', to: 'Analytical Engine', relationType: 'designed' },
      ],
    },
  ],
  ['add_observations', { observations: [{ entityName: 'Ada', contents: ['likes engines', 'born 1815'] }] }],
  ['add_observations', { observations: [{ entityName: 'Nobody', contents: ['x'] }] }],
  ['search_nodes', { query: 'ENGINE' }],
  ['search_nodes', { query: '1815' }],
  ['search_nodes', { query: 'zzz' }],
  ['open_nodes', { names: ['Babbage', 'Missing'] }],
  ['read_graph', {}],
  [
    'delete_observations',
    {
      deletions: [
        { entityName: 'Ada', observations: ['likes engines'] },
        { entityName: 'Nobody', observations: ['x'] },
      ],
    },
  ],
  [
    'delete_relations',
    { relations: [{ from: 'Babbage', to: 'Analytical Engine', relationType: 'designed' }] },
  ],
  ['delete_entities', { entityNames: ['Babbage', 'Nobody'] }],
  ['read_graph', {}],
  ['create_entities', { entities: [{ name: 1 }] }, true],
  ['add_observations', {}, true],
  ['search_nodes', { query: 7 }, true],
];

async function run(entry: string, era: 'legacy' | 'modern', file: string) {
  const client = await startServer({ entry, era, env: { MEMORY_FILE_PATH: file } });
  clients.push(client);
  const tools = (await client.listTools()).map((t) =>
    comparableTool(t as unknown as Record<string, unknown>),
  );
  const answers: unknown[] = [];
  for (const [tool, args, invalid = false] of CORPUS)
    answers.push({ tool, answer: comparableAnswer(await settle(client, tool, args), invalid) });
  const resource = withoutEraFraming(await client.readResource('memory://knowledge-graph'));
  const resources = await client.listResources();
  return { tools, answers, resource, resources, file: readFileSync(file, 'utf8') };
}

describe('the memory server against the official one', () => {
  let official: Awaited<ReturnType<typeof run>>;

  it(
    'lists the same tools, answers the same and writes the same file on a legacy session',
    SLOW,
    async () => {
      official = await run(officialEntry('server-memory'), 'legacy', join(dir, 'official.jsonl'));
      const ours = await run(ourEntry('memory'), 'legacy', join(dir, 'ours-legacy.jsonl'));
      expect(ours.tools).toEqual(official.tools);
      expect(ours.answers).toEqual(official.answers);
      expect(ours.resource).toEqual(official.resource);
      expect(ours.resources).toEqual(official.resources);
      expect(ours.file).toBe(official.file);
    },
  );

  it('answers the same on the modern era', SLOW, async () => {
    const ours = await run(ourEntry('memory'), 'modern', join(dir, 'ours-modern.jsonl'));
    expect(ours.tools).toEqual(official.tools);
    expect(ours.answers).toEqual(official.answers);
    expect(ours.file).toBe(official.file);
  });

  it('reads a file the official server wrote, and the official server reads ours', SLOW, async () => {
    const graphs: unknown[] = [];
    for (const [entry, file] of [
      [ourEntry('memory'), join(dir, 'official.jsonl')],
      [officialEntry('server-memory'), join(dir, 'ours-legacy.jsonl')],
    ] as const) {
      const client = await startServer({ entry, era: 'legacy', env: { MEMORY_FILE_PATH: file } });
      clients.push(client);
      graphs.push((await client.callTool('read_graph', {})).structuredContent);
    }
    expect(graphs[0]).toEqual(graphs[1]);
    expect(graphs[0]).toMatchObject({ entities: [{ name: 'Ada' }, { name: 'Analytical Engine' }] });
  });

  it('sees a change another process made to the file', SLOW, async () => {
    const file = join(dir, 'shared.jsonl');
    const client = await startServer({
      entry: ourEntry('memory'),
      era: 'legacy',
      env: { MEMORY_FILE_PATH: file },
    });
    clients.push(client);
    await client.callTool('create_entities', { entities: [ada] });
    writeFileSync(file, '{"type":"entity","name":"Other","entityType":"t","observations":[]}');
    expect((await client.callTool('read_graph', {})).structuredContent).toEqual({
      entities: [{ name: 'Other', entityType: 't', observations: [] }],
      relations: [],
    });
  });

  it('leaves a whole graph when killed in the middle of writes', SLOW, async () => {
    const file = join(dir, 'killed.jsonl');
    const child = spawn(process.execPath, [ourEntry('memory')], {
      env: { ...process.env, MEMORY_FILE_PATH: file },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'k', version: '0' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const big = 'x'.repeat(60_000);
    for (let i = 1; i <= 200; i++)
      send({
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: {
          name: 'create_entities',
          arguments: { entities: [{ name: `e${i}`, entityType: 't', observations: [big] }] },
        },
      });
    // Kill it once some writes have completed (answers 1..20 came back) and others are under way.
    await new Promise<void>((resolve) => {
      let seen = '';
      child.stdout.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('"id":20,')) resolve();
      });
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const graph = parseGraph(readFileSync(file, 'utf8'));
    expect(graph.entities.length).toBeGreaterThanOrEqual(20);
    graph.entities.forEach((e, i) =>
      expect(e).toEqual({ name: `e${i + 1}`, entityType: 't', observations: [big] }),
    );
    expect(readdirSync(dir).filter((f) => f.startsWith('killed.jsonl.') && !f.endsWith('.tmp'))).toEqual([]);
  });
});
