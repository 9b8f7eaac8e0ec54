/**
 * Tool search: a large tool list replaced by two tools, `search_tools` (ranked full-text
 * search, BM25+ through MiniSearch, over names, titles, descriptions and argument names) and
 * `call_tool` (calls a tool found that way). Both honour per-caller visibility: a caller never
 * finds, and cannot call, a tool it may not see. The index is built once per version of the
 * tool list, not per request.
 * Source: MCP 2026-07-28 server/tools.
 */
import type MiniSearch from 'minisearch';
import type { Tool } from '../core/index.js';
import { loadOptional } from '../core/runtime.js';
import { errorResult, type RequestContext, type ToolResult } from '../server/index.js';
import { compileSchema, type CompiledSchema } from '../validation/index.js';

/** A tool as tool search sees it: its definition, who may use it, and how to call it. */
export interface SearchableTool {
  readonly tool: Tool;
  /** Whether this caller may see and call it; absent: everyone. Evaluated per request. */
  readonly visible?: ((context: RequestContext) => boolean) | undefined;
  /** Runs the tool (arguments are checked by the tool, not by tool search). */
  call(args: unknown, context: RequestContext): Promise<ToolResult | object>;
}

/** Where the tools come from. */
export interface ToolSource {
  /** The tools now. An array that is the same object as last time is taken as unchanged. */
  tools(): readonly SearchableTool[];
  /** Calls `listener` whenever `tools()` changes; returns the unsubscribe (optional). */
  onChange?(listener: () => void): () => void;
}

/** Options of {@link createToolSearch}. */
export interface ToolSearchOptions {
  /** Per-caller rule on top of each tool's own `visible`. */
  allow?: (tool: Tool, context: RequestContext) => boolean;
  /** Results of a search when the caller gives no `limit`; default 10. */
  defaultLimit?: number;
  /** Most results a caller may ask for; default 50. */
  maxLimit?: number;
  /** Names of the two tools; default `search_tools` and `call_tool`. */
  names?: { search?: string; call?: string };
}

/** One search hit. */
export interface ToolHit {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Tool['inputSchema'];
  outputSchema?: Tool['outputSchema'];
  /** BM25+ relevance (higher is better); only the order means anything. */
  score: number;
}

/** A tool search over a {@link ToolSource}: its two tools and the search itself. */
export interface ToolSearch {
  /** `search_tools` and `call_tool`, as `SearchableTool`s (register them, or put them in a catalogue). */
  readonly tools: readonly [SearchableTool, SearchableTool];
  /**
   * The best `limit` tools for `query` among those `context` may use. A promise: the first
   * search loads MiniSearch (an optional peer dependency of mcpkit).
   * @throws LocalError `MISSING_DEPENDENCY` when the package minisearch is not installed;
   *   otherwise never: an empty or unmatched query gives no hits.
   */
  search(query: string, context: RequestContext, limit?: number): Promise<ToolHit[]>;
  /** Stops following the source's changes. */
  close(): void;
}

/** Longest query accepted, in characters. */
const MAX_QUERY = 500;

/** Splits `getPetById`, `list_files`, `fs.read` into their words (lower-cased by MiniSearch). */
function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

/** Words too common to tell tools apart: a query "in a file" must not match every tool by "in" and "a". */
const STOP_WORDS = new Set(
  'a an and are as at be by for from in into is it its of on or that the this to with'.split(' '),
);

/** Lower-cases a word and drops stop words (applied to tools and queries alike). */
function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  return STOP_WORDS.has(word) ? null : word;
}

interface Indexed {
  tools: readonly SearchableTool[];
  byName: Map<string, SearchableTool>;
  index: MiniSearch<{ id: number; name: string; title: string; description: string; args: string }>;
}

/** Builds the search over `source`. */
export function createToolSearch(source: ToolSource, options: ToolSearchOptions = {}): ToolSearch {
  const searchName = options.names?.search ?? 'search_tools';
  const callName = options.names?.call ?? 'call_tool';
  const maxLimit = options.maxLimit ?? 50;
  const defaultLimit = Math.min(options.defaultLimit ?? 10, maxLimit);
  let indexed: Indexed | undefined;
  let dirty = true;
  const off = source.onChange?.(() => (dirty = true));
  const current = async (): Promise<Indexed> => {
    const Index = await loadMiniSearch();
    const tools = source.tools();
    if (!indexed || indexed.tools !== tools || (dirty && source.onChange))
      indexed = build(Index, tools, [searchName, callName]);
    dirty = false;
    return indexed;
  };
  const usable = (entry: SearchableTool, context: RequestContext): boolean =>
    (entry.visible === undefined || entry.visible(context)) &&
    (options.allow === undefined || options.allow(entry.tool, context));
  const search = async (query: string, context: RequestContext, limit = defaultLimit): Promise<ToolHit[]> => {
    const { index, byName } = await current();
    const wanted = Math.max(1, Math.min(Math.floor(limit), maxLimit));
    const hits: ToolHit[] = [];
    for (const result of index.search(query.slice(0, MAX_QUERY))) {
      const entry = byName.get(result.name as string);
      if (!entry || !usable(entry, context)) continue;
      hits.push(hitOf(entry.tool, result.score));
      if (hits.length === wanted) break;
    }
    return hits;
  };
  const call = async (args: unknown, context: RequestContext): Promise<ToolResult | object> => {
    const { name, arguments: inner } = args as { name: string; arguments?: Record<string, unknown> };
    const entry = (await current()).byName.get(name);
    // A hidden tool answers exactly as a missing one: its existence is not disclosed.
    if (!entry || !usable(entry, context))
      return errorResult(`Unknown tool: ${name}. Use ${searchName} to find tools.`);
    return entry.call(inner ?? {}, context);
  };
  return {
    tools: [searchTool(searchName, { search, defaultLimit, maxLimit }), callTool(callName, searchName, call)],
    search,
    close: () => off?.(),
  };
}

type MiniSearchClass = typeof MiniSearch;
let loading: Promise<MiniSearchClass> | undefined;

/** Loads MiniSearch once (an optional peer dependency: only tool search uses it). */
function loadMiniSearch(): Promise<MiniSearchClass> {
  loading ??= loadOptional('minisearch', 'mcpkit/tool-search', () => import('minisearch')).then(
    (module) => module.default,
  );
  return loading;
}

function build(Index: MiniSearchClass, tools: readonly SearchableTool[], own: readonly string[]): Indexed {
  const byName = new Map<string, SearchableTool>();
  const index = new Index<{
    id: number;
    name: string;
    title: string;
    description: string;
    args: string;
  }>({
    fields: ['name', 'title', 'description', 'args'],
    storeFields: ['name'],
    tokenize,
    processTerm,
    searchOptions: {
      boost: { name: 3, title: 2, args: 0.5 },
      prefix: (term) => term.length > 2,
      fuzzy: (term) => (term.length > 4 ? 0.2 : false),
      combineWith: 'OR',
    },
  });
  const docs = [];
  for (const entry of tools) {
    const { tool } = entry;
    if (own.includes(tool.name) || byName.has(tool.name)) continue;
    byName.set(tool.name, entry);
    docs.push({
      id: docs.length,
      name: tool.name,
      title: tool.title ?? '',
      description: tool.description ?? '',
      args: argumentText(tool),
    });
  }
  index.addAll(docs);
  return { tools, byName, index };
}

/** Argument names and their descriptions, for matching "a tool that takes a city". */
function argumentText(tool: Tool): string {
  const properties =
    (tool.inputSchema as { properties?: Record<string, { description?: unknown }> }).properties ?? {};
  return Object.entries(properties)
    .map(([name, schema]) => `${name} ${typeof schema?.description === 'string' ? schema.description : ''}`)
    .join(' ');
}

function hitOf(tool: Tool, score: number): ToolHit {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.description ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    score: Math.round(score * 1000) / 1000,
  };
}

/** `call` behind a check of its arguments against `tool.inputSchema` (a catalogue entry checks its own). */
function checked(tool: Tool, call: SearchableTool['call']): SearchableTool {
  let schema: CompiledSchema | undefined;
  return {
    tool,
    call: async (args, context) => {
      schema ??= compileSchema(tool.inputSchema as Record<string, unknown>);
      const outcome = await schema.validate(args ?? {});
      if (!outcome.ok)
        return errorResult(`Invalid arguments for tool ${tool.name}: ${outcome.issues.join('; ')}`);
      return call(outcome.value, context);
    },
  };
}

function searchTool(
  name: string,
  how: { search: ToolSearch['search']; defaultLimit: number; maxLimit: number },
): SearchableTool {
  const tool: Tool = {
    name,
    title: 'Search tools',
    description: `Finds tools by what they do. Returns the best matches with their input schemas; call one with the call tool.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_QUERY,
          description: 'What the tool should do, in a few words',
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: how.maxLimit,
          description: `How many tools to return (default ${how.defaultLimit})`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
  return checked(tool, async (args, context) => {
    const { query, limit } = args as { query: string; limit?: number };
    const tools = await how.search(query, context, limit);
    return { content: [{ type: 'text', text: JSON.stringify({ tools }) }], structuredContent: { tools } };
  });
}

function callTool(name: string, searchName: string, call: SearchableTool['call']): SearchableTool {
  return checked(
    {
      name,
      title: 'Call a tool',
      description: `Calls a tool found with ${searchName}, by its name, with arguments matching its input schema.`,
      inputSchema: {
        type: 'object',
        properties: {
          name: {
            type: 'string',
            minLength: 1,
            maxLength: 256,
            description: `The tool's name, as ${searchName} gave it`,
          },
          arguments: { type: 'object', description: "The tool's arguments" },
        },
        required: ['name'],
        additionalProperties: false,
      },
    },
    call,
  );
}
