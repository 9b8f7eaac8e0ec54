/**
 * The everything server served through a mount: an empty server definition mounts it with
 * the prefix '' (names and URIs unchanged) and serves it over Streamable HTTP, both eras. The
 * conformance script runs the official server suite against it (`npm run conformance mount`).
 *
 * Run: npm run build && node dist/examples/mounted-everything.js --port 3000
 * In your project, import from 'mcpkit/server' and 'mcpkit/node' instead.
 */
import { createServer } from '../src/server/index.js';
import { serve } from '../src/integrations/node/index.js';
import { createEverythingServer } from '../servers/everything/server.js';
import { portArgument } from './port-argument.js';

const front = createServer({
  name: 'mcpkit-everything-mounted',
  version: '0.1.0',
  onError: (error, request) => console.error(`[mounted] ${request?.method ?? 'message'} failed:`, error),
});
front.mount('', createEverythingServer());

void serve(front, { port: portArgument() }).then((served) => {
  console.error(`mounted: serving everything at ${served.url}`);
  process.once('SIGTERM', () => void served.close());
});
