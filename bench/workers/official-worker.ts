/**
 * The cold-start benchmark's official SDK v2 Worker, as its documentation gives it for
 * fetch-native runtimes: `createMcpHandler(factory)` as the default export's `fetch`, one
 * `echo` tool (zod-validated `text`). Bundled with the `workerd` export condition, the SDK
 * picks its Workers shims (the cfworker JSON Schema validator) by itself.
 */
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'bench-official-worker', version: '0.0.0' });
  server.registerTool(
    'echo',
    { description: 'Returns the given text unchanged.', inputSchema: z.object({ text: z.string() }) },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
});

export default { fetch: (request: Request): Promise<Response> => handler.fetch(request) };
