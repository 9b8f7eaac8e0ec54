/**
 * `node dist/servers/sequential-thinking/main.js`: the sequential-thinking server over stdio,
 * configured with the official server's environment (`DISABLE_THOUGHT_LOGGING`); what `mcpkit
 * serve sequential-thinking` runs. Exit codes as in ../shared/stdio-main.ts.
 */
import { runStdioServer } from '../shared/stdio-main.js';
import { createReferenceServer } from './server.js';

runStdioServer('sequential-thinking', createReferenceServer);
