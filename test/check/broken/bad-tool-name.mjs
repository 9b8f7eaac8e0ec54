/** Defect: a tool name with a space and a bang (2025-11-25 server/tools "Tool Names"). */
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ECHO, serve } from './base.mjs';

await serve((server) => {
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [ECHO, { ...ECHO, name: 'get weather!' }],
  }));
});
