/**
 * The everything server on an Express app, at /mcp, next to the app's own JSON routes.
 * The conformance script runs the official server suite against it.
 *
 * Run: npm run build && node dist/examples/express-server.js --port 3000
 * In your project, import from 'mcpkit/express' instead.
 */
import express from 'express';
import { mcpExpress } from '../src/integrations/express/index.js';
import { createEverythingServer } from '../servers/everything/server.js';
import { portArgument } from './port-argument.js';

const mcp = mcpExpress(createEverythingServer(), { maxBodyBytes: 8 * 1024 * 1024 });
const app = express();
// The MCP route comes before express.json(), so the endpoint reads the body with its own limit.
app.all('/mcp', mcp);
app.use(express.json({ limit: '100kb' }));
app.post('/api/notes', (req, res) => void res.json({ received: req.body }));

const listener = app.listen(portArgument(), '127.0.0.1', () => {
  const address = listener.address();
  if (address && typeof address === 'object')
    console.error(`express: serving everything at http://127.0.0.1:${address.port}/mcp`);
});
// Every open listen gets its completion result first; then no stream holds the server open.
process.once('SIGTERM', () => {
  void mcp.close().then(() => listener.close());
});
