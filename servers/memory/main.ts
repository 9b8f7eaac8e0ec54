/**
 * `node dist/servers/memory/main.js`: the memory server over stdio, configured with the official
 * server's environment (`MEMORY_FILE_PATH`); what `mcpkit serve memory` runs. Exit codes as in
 * ../shared/stdio-main.ts.
 */
import { runStdioServer } from '../shared/stdio-main.js';
import { createReferenceServer } from './server.js';

runStdioServer('memory', createReferenceServer);
