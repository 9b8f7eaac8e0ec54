/** Defect: tools/list hands out the same nextCursor for ever. */
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ECHO, serve } from './base.mjs';

await serve((server) => {
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [ECHO], nextCursor: 'page-2' }));
});
