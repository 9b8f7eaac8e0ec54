/**
 * `mcpkit/node`: run the Streamable HTTP handler on node:http — `serve()` to listen, or
 * `toNodeListener()` for your own `http.createServer` (and the Express and Fastify adapters).
 */
export { serve, type ServeOptions, type Served } from './serve.js';
export { toNodeListener, type FetchHandler, type McpNodeListener, type NodeListener } from './listener.js';
export { loadSkillFolder, nodeSkillFiles } from './skills.js';
