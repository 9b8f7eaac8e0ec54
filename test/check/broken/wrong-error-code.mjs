/** Defect: a call of an unknown tool answered with -32601 (Method not found) instead of -32602. */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { CALL_TOOL, callEcho, serve } from './base.mjs';

await serve((server) => {
  server.setRequestHandler(CALL_TOOL, (request) => {
    if (request.params.name === 'echo') return callEcho(request);
    throw new McpError(ErrorCode.MethodNotFound, `No tool ${request.params.name}`);
  });
});
