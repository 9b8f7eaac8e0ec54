/**
 * A server file for `mcpkit dev`: its default export is a function returning the server
 * (an McpServer works too). Edit a tool's description, add a tool or a prompt while a client
 * is connected, and the client hears `notifications/tools/list_changed` (or the prompts one)
 * and lists the new definition, without reconnecting.
 *
 * Run: npx mcpkit dev examples/dev-server.ts          (Streamable HTTP, URL printed)
 *      npx mcpkit dev examples/dev-server.ts --ui     (and the inspector on it)
 *      npx mcpkit install claude-code -- npx mcpkit dev examples/dev-server.ts --stdio
 * In your project, import from 'mcpkit/server' instead.
 */
import { z } from 'zod';
import { createServer } from '../src/server/index.js';

export default function devServer() {
  const server = createServer({ name: 'dev-demo', version: '1.0.0' });

  server.tool(
    'greet',
    {
      description: 'Greets someone by name.',
      inputSchema: z.object({ name: z.string().describe('Who to greet') }),
    },
    ({ name }) => `Hello, ${name}!`,
  );

  server.tool(
    'add',
    {
      description: 'Adds two numbers.',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    ({ a, b }) => ({ sum: a + b }),
  );

  server.prompt(
    'review',
    { description: 'Asks for a code review.', argsSchema: z.object({ code: z.string() }) },
    ({ code }) => [{ role: 'user', content: { type: 'text', text: `Please review:\n\n${code}` } }],
  );

  return server;
}
