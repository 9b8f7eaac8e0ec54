/**
 * Tool search as a catalogue transform (`server.transform(toolSearch())`, also on a mount):
 * the catalogue's tools are replaced by `search_tools` and `call_tool`, which search and call
 * the tools the transform received. Each tool's per-caller `visible` rule still applies, on
 * search and on call. The index is built when the catalogue changes, never per request.
 */
import type { ToolEntry, Transform } from '../server/index.js';
import { createToolSearch, type ToolSearchOptions } from './search.js';

/** The transform; prompts, resources and templates pass through unchanged. */
export function toolSearch(options: ToolSearchOptions = {}): Transform {
  return (catalogue) => {
    const tools = catalogue.tools;
    const search = createToolSearch({ tools: () => tools }, options);
    const entries = search.tools.map((t): ToolEntry => ({
      tool: t.tool,
      tags: [],
      call: t.call as ToolEntry['call'],
    }));
    return { ...catalogue, tools: entries };
  };
}
