/**
 * The reference "everything" server: every fixture the official conformance suite calls,
 * on both wires, plus `echo` for benchmarks. See scripts/conformance/README.md
 * "What the server under test must provide".
 */
import { createServer, type McpServer, type ServerOptions } from '../../src/server/index.js';
import { registerClientTools } from './client-tools.js';
import { registerActivityTools, registerContentTools, registerSchemaTools } from './content-tools.js';
import { registerInputRequired } from './input-required.js';
import { PNG_DATA_URI } from './media.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { registerTaskTools } from './tasks.js';
import { registerSkills } from './skills.js';

/** The server's name in discover and initialize. */
export const EVERYTHING_NAME = 'mcpkit-everything';
/** The server's version. */
export const EVERYTHING_VERSION = '0.1.0';

/** Options of {@link createEverythingServer}: any server option except the identity. */
export type EverythingOptions = Partial<Omit<ServerOptions, 'name' | 'version'>>;

/** Creates the everything server with every fixture registered. */
export function createEverythingServer(options: EverythingOptions = {}): McpServer {
  const server = createServer({
    title: 'mcpkit everything',
    description: 'Reference server exercising every MCP feature (conformance fixtures).',
    icons: [{ src: PNG_DATA_URI, mimeType: 'image/png', sizes: ['1x1'] }],
    ...options,
    name: EVERYTHING_NAME,
    version: EVERYTHING_VERSION,
  });
  registerContentTools(server);
  registerActivityTools(server);
  registerSchemaTools(server);
  registerClientTools(server);
  registerInputRequired(server);
  registerTaskTools(server);
  registerResources(server);
  registerPrompts(server);
  registerSkills(server);
  return server;
}
