/** Defect: an inputSchema that is no valid JSON Schema (`integr` is not a type). */
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ECHO, serve } from './base.mjs';

const COUNT = { name: 'count', inputSchema: { type: 'object', properties: { n: { type: 'integr' } } } };

await serve((server) => {
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [ECHO, COUNT] }));
});
