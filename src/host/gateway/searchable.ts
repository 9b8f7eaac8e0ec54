/**
 * The gateway's tools when it serves them behind tool search (`GatewayOptions.toolSearch`):
 * held here, forwarded as usual, and offered to `createToolSearch` instead of being listed.
 */
import type { Tool } from '../../core/index.js';
import type { RequestContext } from '../../server/index.js';
import type { SearchableTool, ToolSource } from '../../tool-search/index.js';

/** The forwarding handler of one backend tool. */
type Forwarding = (args: Record<string, unknown>, ctx: RequestContext) => Promise<unknown>;

/** The backend tools a gateway's tool search covers. */
export class SearchableTools implements ToolSource {
  readonly #tools = new Map<string, SearchableTool>();
  /** Rebuilt after a change: a new array tells the search to rebuild its index. */
  #list: SearchableTool[] | undefined;

  set(tool: Tool, forward: Forwarding): void {
    this.#tools.set(tool.name, {
      tool,
      call: (args, ctx) => forward(args as Record<string, unknown>, ctx) as Promise<object>,
    });
    this.#list = undefined;
  }

  delete(name: string): void {
    if (this.#tools.delete(name)) this.#list = undefined;
  }

  tools(): readonly SearchableTool[] {
    return (this.#list ??= [...this.#tools.values()]);
  }
}
