/**
 * mcpkit's memory server: a drop-in for `@modelcontextprotocol/server-memory`, on both eras.
 * A knowledge graph of entities, relations and observations kept in a JSON-lines file
 * (`MEMORY_FILE_PATH`, same format as the official server's), the same nine tools and answers,
 * and the graph as the subscribable resource `memory://knowledge-graph`.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { LocalError } from '../../src/core/index.js';
import { createServer, type McpServer } from '../../src/server/index.js';
import { GraphFile } from './graph.js';
import { registerMemoryTools } from './tools.js';

/** The official server's name and version. */
const MEMORY_NAME = 'memory-server';
const MEMORY_VERSION = '0.6.3';
/** The graph as a resource. */
export const GRAPH_URI = 'memory://knowledge-graph';

const USAGE = 'usage: [MEMORY_FILE_PATH=FILE] mcpkit serve memory';
const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * Creates the memory server. It takes no arguments; `env.MEMORY_FILE_PATH` names the graph's
 * file (relative: to this server's directory, as in the official server; default
 * `memory.jsonl` there, after moving an old `memory.json` to it).
 * @throws LocalError `INVALID_ARGUMENT` for any argument.
 */
export async function createReferenceServer(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<McpServer> {
  try {
    parseArgs({ args: [...argv], options: {}, allowPositionals: false, strict: true });
  } catch (error) {
    throw new LocalError('INVALID_ARGUMENT', `${(error as Error).message}; ${USAGE}`);
  }
  return createMemoryServer(await memoryFilePath(env.MEMORY_FILE_PATH));
}

/** The memory server over the graph in `file`. */
function createMemoryServer(file: string): McpServer {
  const server = createServer({ name: MEMORY_NAME, version: MEMORY_VERSION });
  const graph = new GraphFile(file);
  registerMemoryTools(server, graph, () => server.notifyResourceUpdated(GRAPH_URI));
  server.resource(
    GRAPH_URI,
    {
      name: 'knowledge-graph',
      title: 'Knowledge Graph',
      description: 'The full knowledge graph with all entities and relations',
      mimeType: 'application/json',
    },
    async (uri) => {
      const text = await graph.read((g) => JSON.stringify(g, null, 2));
      return [{ uri, mimeType: 'application/json', text }];
    },
  );
  return server;
}

/** Where the graph lives, as the official server decides it (see {@link createReferenceServer}). */
async function memoryFilePath(configured: string | undefined): Promise<string> {
  if (configured) return path.isAbsolute(configured) ? configured : path.join(HERE, configured);
  const current = path.join(HERE, 'memory.jsonl');
  const old = path.join(HERE, 'memory.json');
  const exists = (file: string) =>
    fs.access(file).then(
      () => true,
      () => false,
    );
  if ((await exists(old)) && !(await exists(current))) {
    console.error('Moving the old memory.json to memory.jsonl (same content, JSON-lines name)');
    await fs.rename(old, current);
  }
  return current;
}
