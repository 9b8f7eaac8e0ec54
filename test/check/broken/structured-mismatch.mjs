/** Defect: structuredContent that does not match the tool's outputSchema (a string for a number). */
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CALL_TOOL, ECHO, callEcho, serve } from './base.mjs';

const WEATHER = {
  name: 'weather',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
};

await serve((server) => {
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [ECHO, WEATHER] }));
  server.setRequestHandler(CALL_TOOL, (request) =>
    request.params.name === 'weather'
      ? { content: [{ type: 'text', text: '{"celsius":"warm"}' }], structuredContent: { celsius: 'warm' } }
      : callEcho(request),
  );
});
