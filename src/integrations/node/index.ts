/**
 * `mcpkit/node`: run the Streamable HTTP handler on node:http.
 */
export { serve, type ServeOptions, type Served } from './serve.js';
export {
  toNodeListener,
  toWebRequest,
  writeWebResponse,
  type FetchHandler,
  type NodeListener,
} from './listener.js';
export { toEndpointListener, writeResponse } from './endpoint.js';
