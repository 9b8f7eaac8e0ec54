/**
 * `node dist/servers/filesystem/main.js`: the filesystem server over stdio, configured with the
 * official server's command line (`DIR…`); what `mcpkit serve filesystem` runs. Exit codes as in
 * ../shared/stdio-main.ts.
 */
import { runStdioServer } from '../shared/stdio-main.js';
import { createReferenceServer } from './server.js';

runStdioServer('filesystem', createReferenceServer);
