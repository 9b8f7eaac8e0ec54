/**
 * `node dist/servers/sequential-thinking/main.js`: the sequential-thinking server over stdio, configured like the
 * official one (`DISABLE_THOUGHT_LOGGING`); what `mcpkit serve sequential-thinking` runs.
 */
import { serveStdio } from '../../src/integrations/stdio/index.js';
import { createReferenceServer } from './server.js';

createReferenceServer(process.argv.slice(2), process.env)
  .then((server) => serveStdio(server))
  .catch((error: unknown) => {
    console.error(`[sequential-thinking] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
