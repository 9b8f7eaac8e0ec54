/**
 * `node dist/servers/filesystem/main.js DIR…`: the filesystem server over stdio with the
 * official server's command line (what `mcpkit serve filesystem DIR…` runs). Stdout carries
 * only protocol messages; diagnostics go to stderr.
 */
import { serveStdio } from '../../src/integrations/stdio/index.js';
import { createReferenceServer } from './server.js';

createReferenceServer(process.argv.slice(2), process.env)
  .then((server) => serveStdio(server))
  .catch((error: unknown) => {
    console.error(`[filesystem] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
