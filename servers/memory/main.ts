/**
 * `node dist/servers/memory/main.js`: the memory server over stdio, configured like the
 * official one (`MEMORY_FILE_PATH`); what `mcpkit serve memory` runs.
 */
import { serveStdio } from '../../src/integrations/stdio/index.js';
import { createReferenceServer } from './server.js';

createReferenceServer(process.argv.slice(2), process.env)
  .then((server) => serveStdio(server))
  .catch((error: unknown) => {
    console.error(`[memory] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
