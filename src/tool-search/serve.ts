/**
 * Putting a tool search to work: on a server definition ({@link installToolSearch}) and over
 * a host's merged registry ({@link hostToolSource}), so one search covers every backend.
 */
import { type Tool } from '../core/index.js';
import { toolUiOf } from '../core/apps.js';
import type { McpServer, RequestContext, ToolResult } from '../server/index.js';
import type { SearchableTool, ToolSearch, ToolSource } from './search.js';

/**
 * Registers the search's two tools on `server`.
 * @throws LocalError `INVALID_DEFINITION` when `server` has tools of those names already.
 */
export function installToolSearch(server: McpServer, search: ToolSearch): McpServer {
  for (const { tool, call } of search.tools) {
    const definition = {
      ...(tool.title ? { title: tool.title } : {}),
      ...(tool.description ? { description: tool.description } : {}),
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      inputSchema: tool.inputSchema as Record<string, unknown>,
    };
    server.tool(tool.name, definition, (args, ctx) => call(args, ctx) as Promise<ToolResult>);
  }
  return server;
}

/** The part of `Host` (mcpkit/host) a host tool source uses. */
export interface HostLike {
  tools(): ReadonlyArray<{ readonly name: string; readonly definition: Tool }>;
  callTool(name: string, args: Record<string, unknown>, options: { signal?: AbortSignal }): Promise<object>;
  on(event: 'change', listener: (payload: { kinds: readonly string[] }) => void): () => void;
}

/**
 * Every tool of a host's registry that a model may see (all its connected servers, under
 * their qualified names; app-only tools left out), called through the host with the
 * request's cancellation.
 */
export function hostToolSource(host: HostLike): ToolSource {
  let tools: SearchableTool[] | undefined;
  const listeners = new Set<() => void>();
  host.on('change', ({ kinds }) => {
    if (!kinds.includes('tools')) return;
    tools = undefined;
    for (const listener of listeners) listener();
  });
  return {
    tools: () =>
      (tools ??= host.tools().flatMap(({ name, definition }) =>
        // An app-only tool is for its app, never for the model that searches.
        toolUiOf(definition).visibility.includes('model')
          ? [
              {
                tool: definition,
                call: (args: unknown, ctx: RequestContext) =>
                  host.callTool(name, (args ?? {}) as Record<string, unknown>, { signal: ctx.signal }),
              },
            ]
          : [],
      )),
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
