/**
 * Defect: a legacy session gets an array as structuredContent (2025-11-25 wants an object).
 * The SDK's Server checks tools/call results itself, so the handler is installed with the
 * base Protocol's method to let the defect reach the wire.
 */
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CALL_TOOL, ECHO, callEcho, serve } from './base.mjs';

await serve((server) => {
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [ECHO, { name: 'numbers', inputSchema: { type: 'object' } }],
  }));
  Protocol.prototype.setRequestHandler.call(server, CALL_TOOL, (request) =>
    request.params?.name === 'numbers'
      ? { content: [{ type: 'text', text: '[1,2,3]' }], structuredContent: [1, 2, 3] }
      : callEcho(request),
  );
});
