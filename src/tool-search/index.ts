/**
 * `mcpkit/tool-search`: a big tool list behind two tools, `search_tools` (ranked full-text
 * search through MiniSearch, a dependency of mcpkit) and `call_tool`, filtered by what each
 * caller may use. On one server, or over a host's registry of many servers.
 */
export {
  createToolSearch,
  type SearchableTool,
  type ToolHit,
  type ToolSearch,
  type ToolSearchOptions,
  type ToolSource,
} from './search.js';
export { hostToolSource, installToolSearch, type HostLike } from './serve.js';
export { toolSearch } from './transform.js';
