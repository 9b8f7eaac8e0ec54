/**
 * Serves the everything server over stdio. Stdout carries only protocol messages;
 * diagnostics go to stderr. Exits 0 when the client closes the connection.
 */
import { connect } from '../../src/server/index.js';
import { stdioServerTransport } from '../../src/integrations/stdio/index.js';
import { createEverythingServer } from './server.js';

async function main(): Promise<void> {
  const server = createEverythingServer({
    onError: (error, request) => console.error(`[everything] ${request?.method ?? 'message'} failed:`, error),
  });
  const connection = await connect(server, stdioServerTransport());
  await connection.closed;
  // Let queued protocol output drain (pipes are asynchronous on some platforms) before exiting.
  process.stdout.write('', () => process.exit(0));
}

main().catch((error: unknown) => {
  console.error('[everything] fatal:', error);
  process.exit(1);
});
