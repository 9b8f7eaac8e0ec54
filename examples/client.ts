/**
 * A client that launches a server over stdio, detects its era by itself, lists and calls
 * tools, and answers elicitation (legacy requests and modern input_required alike).
 *
 * Run: npm run build && node dist/examples/client.js
 * In your project, import from 'mcpkit/client' and 'mcpkit/stdio' instead.
 */
import { fileURLToPath } from 'node:url';
import { createClient } from '../src/client/index.js';
import { spawnStdio } from '../src/integrations/stdio/index.js';

async function main(): Promise<void> {
  const client = createClient({
    name: 'example-client',
    version: '1.0.0',
    handlers: {
      elicitation: async () => ({ action: 'accept', content: { count: 2, ok: true } }),
    },
  });
  const server = fileURLToPath(new URL('./elicit-tool.js', import.meta.url));
  await client.connect(spawnStdio({ command: process.execPath, args: [server] }));
  console.log(`connected: ${client.serverInfo?.name} (${client.era}, ${client.protocolVersion})`);
  for (const tool of await client.listTools()) console.log(`tool: ${tool.name} — ${tool.description ?? ''}`);
  const result = await client.callTool('book-table', {});
  console.log(result.content);
  await client.close();
}

void main();
