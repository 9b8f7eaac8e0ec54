/**
 * Serves the git reference server over stdio with the official server's arguments
 * (`node main.js [ARGS…]`). Stdout carries only protocol messages; diagnostics go to stderr.
 * Exits 0 when the client closes the connection, 2 on bad arguments.
 */
import { LocalError } from '../../src/core/index.js';
import { connect } from '../../src/server/index.js';
import { stdioServerTransport } from '../../src/integrations/stdio/index.js';
import { createReferenceServer } from './server.js';

async function main(): Promise<void> {
  const server = await createReferenceServer(process.argv.slice(2), process.env);
  const connection = await connect(server, stdioServerTransport());
  await connection.closed;
  // Let queued protocol output drain (pipes are asynchronous on some platforms) before exiting.
  process.stdout.write('', () => process.exit(0));
}

main().catch((error: unknown) => {
  if (
    error instanceof LocalError &&
    (error.code === 'INVALID_ARGUMENT' || error.code === 'MISSING_DEPENDENCY')
  ) {
    console.error(`[git] ${error.message}`);
    process.exit(2);
  }
  console.error('[git] fatal:', error);
  process.exit(1);
});
