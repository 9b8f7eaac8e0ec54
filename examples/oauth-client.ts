/**
 * A client for a protected MCP server: on the server's 401 it discovers the authorization
 * server, registers itself (Dynamic Client Registration), and sends you to the
 * authorization URL; paste the URL your browser was redirected to (it need not load).
 * Then it lists the notes, and adding one steps up to scope `notes:write` on the 403.
 *
 * Run: npm run build && node dist/examples/oauth-client.js http://127.0.0.1:3000/mcp
 * In your project, import from 'mcpkit/client' and 'mcpkit/auth' instead.
 */
import { createInterface } from 'node:readline/promises';
import { oauthClient } from '../src/auth/index.js';
import { createClient, streamableHttp } from '../src/client/index.js';

const url = process.argv[2] ?? 'http://127.0.0.1:3000/mcp';
const input = createInterface({ input: process.stdin, output: process.stderr });

const auth = oauthClient({
  clientName: 'mcpkit example',
  redirectUri: 'http://127.0.0.1:8976/callback',
  redirect: async (authorizationUrl) => {
    console.log(`open: ${authorizationUrl.href}`);
    return input.question('paste the URL you were redirected to: ');
  },
});
const client = createClient({ name: 'oauth-example', version: '1.0.0' });
await client.connect(streamableHttp(url, { auth }));
console.log((await client.callTool('notes', {})).content);
console.log((await client.callTool('add-note', { text: 'hello' })).content);
console.log((await client.callTool('notes', {})).content);
await client.close();
input.close();
