/**
 * A protected MCP server: every request needs an access token from the authorization
 * server ISSUER, issued for this endpoint (a JWT with `aud` = the endpoint URL). `notes`
 * answers anyone with a valid token, `add-note` needs scope `notes:write` (callers
 * without it get 403 insufficient_scope and step up). The caller is `ctx.auth`.
 *
 * Run: npm run build && node dist/examples/protected-server.js ISSUER [PORT]
 *      (try it with `node dist/examples/dev-issuer.js`, which prints an ISSUER)
 * In your project, import from 'mcpkit/server', 'mcpkit/node' and 'mcpkit/auth' instead.
 */
import { jwtVerifier, protectedResource } from '../src/auth/index.js';
import { serve } from '../src/integrations/node/index.js';
import { createServer } from '../src/server/index.js';

const [issuer = process.env.MCPKIT_ISSUER ?? 'http://127.0.0.1:4000', port = '3000'] = process.argv.slice(2);
const url = `http://127.0.0.1:${port}/mcp`;
const notes: string[] = [];

const server = createServer({ name: 'notes', version: '1.0.0' });
server.tool('notes', { description: 'Lists the notes' }, (_args, ctx) => ({
  content: [{ type: 'text', text: `${ctx.auth?.subject} sees: ${notes.join('; ') || '(none)'}` }],
}));
server.tool(
  'add-note',
  {
    description: 'Adds a note',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    scopes: ['notes:write'],
  },
  ({ text }, ctx) => {
    notes.push(`${String(text)} (by ${ctx.auth?.subject})`);
    return { content: [{ type: 'text', text: 'added' }] };
  },
);

const auth = protectedResource({
  resource: url,
  authorizationServers: [issuer],
  scopesSupported: ['notes:read'],
  verifier: jwtVerifier({ issuer, audience: url }),
});
const served = await serve(server, { port: Number(port), http: { auth } });
console.log(`protected server at ${served.url} (tokens from ${issuer})`);
