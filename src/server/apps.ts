/**
 * MCP Apps on the server: a `ui://` resource holding the view's HTML, and tools linked to
 * it through `_meta.ui` (and the deprecated flat key, which the spec still asks for), with
 * a text fallback for hosts that did not negotiate the extension (read from the request's
 * client capabilities: per request on modern, per session on legacy).
 * Source: ext-apps specification 2026-01-26 "UI Resource Format", "Resource Discovery",
 * "Server Behavior" (graceful degradation); the draft's "Metadata Location".
 */
import { LocalError, WireError } from '../core/index.js';
import {
  APP_MIME_TYPE,
  FLAT_RESOURCE_URI_KEY,
  UI_EXTENSION,
  negotiatesUi,
  toolUiOf,
  type AppResourceUi,
  type AppVisibility,
} from '../core/apps.js';
import {
  isVisible,
  type Caller,
  type CatalogueEntry,
  type ToolEntry,
  type Transform,
} from './catalogue/types.js';
import type { RequestContext } from './context.js';
import { defineExtension, type ServerExtension } from './extension.js';
import type { McpServer } from './server.js';
import type { ResourceMetadata } from './resources.js';
import type { ToolArgs, ToolDefinition, ToolHandler, ToolResult } from './tool-types.js';
import type { SchemaInput } from '../validation/index.js';

/** Options of {@link appResource}. */
export interface AppResourceOptions extends AppResourceUi {
  /** The view's HTML document: a string, or a function called on every read (a file, your bundler's output). */
  html: string | ((context: RequestContext) => string | Promise<string>);
  name?: string;
  title?: string;
  description?: string;
}

/**
 * Registers the `ui://` resource of an app: read as one `text/html;profile=mcp-app` text
 * content whose `_meta.ui` carries the CSP domains, permissions, domain and border
 * preference; the list entry carries the same `_meta.ui`, so a host can review it before
 * reading. Returns the server.
 * @throws LocalError `INVALID_DEFINITION` when `uri` is not a `ui://` URI (or is taken).
 */
export function appResource(server: McpServer, uri: string, options: AppResourceOptions): McpServer {
  if (!uri.startsWith('ui://'))
    throw new LocalError('INVALID_DEFINITION', `app resource '${uri}' must use the ui:// scheme`);
  const { html, name, title, description, ...settings } = options;
  const ui = { ...settings };
  const metadata: ResourceMetadata = {
    name: name ?? uri,
    mimeType: APP_MIME_TYPE,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(Object.keys(ui).length > 0 ? { _meta: { ui } } : {}),
  };
  return server.resource(uri, metadata, async (read, ctx) => {
    const text = typeof html === 'string' ? html : await html(ctx);
    const meta = Object.keys(ui).length > 0 ? { _meta: { ui } } : {};
    return [{ uri: read, mimeType: APP_MIME_TYPE, text, ...meta }];
  });
}

/** What {@link appTool} takes: a tool definition, its view, who may call it, and its handler. */
export interface AppToolDefinition<
  In extends SchemaInput | undefined,
  Out extends SchemaInput | undefined,
> extends ToolDefinition<In, Out> {
  /** The `ui://` URI of the view that renders this tool's results (an {@link appResource}). */
  resourceUri: string;
  /**
   * `["model", "app"]` (default), `["app"]` for a tool only its app calls (hosts hide it from
   * the model), or `["model"]` for one the app must not call.
   */
  visibility?: AppVisibility[];
  /**
   * The text a host without the UI extension gets as the result's `content` (the
   * `structuredContent` stays). Without it the handler's own `content` is sent as is,
   * which must then read well on its own.
   */
  fallback?: (result: ToolResult, args: ToolArgs<In>) => string;
  handler: ToolHandler<In, Out>;
}

/**
 * Registers a tool linked to an app's view: `_meta.ui.resourceUri` and `visibility`, plus
 * the deprecated `_meta["ui/resourceUri"]` for older hosts. Returns the server.
 * @throws LocalError `INVALID_DEFINITION` for a URI that is not `ui://`, an empty or
 *   unknown visibility, and whatever `server.tool` throws.
 */
export function appTool<
  In extends SchemaInput | undefined = undefined,
  Out extends SchemaInput | undefined = undefined,
>(server: McpServer, name: string, definition: AppToolDefinition<In, Out>): McpServer {
  const { resourceUri, visibility, fallback, handler, ...tool } = definition;
  if (!resourceUri.startsWith('ui://'))
    throw new LocalError('INVALID_DEFINITION', `tool '${name}': resourceUri must be a ui:// URI`);
  if (visibility && (visibility.length === 0 || visibility.some((v) => v !== 'model' && v !== 'app')))
    throw new LocalError('INVALID_DEFINITION', `tool '${name}': visibility must list "model" and/or "app"`);
  const ui = { resourceUri, ...(visibility ? { visibility: [...new Set(visibility)] } : {}) };
  if (visibility && !visibility.includes('model')) serveApps(server);
  const withUi = { ...tool, _meta: { ...tool._meta, ui, [FLAT_RESOURCE_URI_KEY]: resourceUri } };
  const structured = tool.outputSchema !== undefined;
  const run = async (args: ToolArgs<In>, ctx: RequestContext) => {
    const value = (await handler(args, ctx)) as unknown;
    if (!fallback || negotiatesUi(ctx.clientCapabilities)) return value;
    return textFallback(value, { structured, text: (r) => fallback(r, args) });
  };
  return server.tool(name, withUi as never, run as never);
}

/** The handler's value with its content replaced by the fallback text (input requests pass). */
function textFallback(
  value: unknown,
  options: { structured: boolean; text: (result: ToolResult) => string },
): unknown {
  if (typeof value === 'string') value = { content: [{ type: 'text', text: value }] };
  const object = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  if (object?.resultType === 'input_required') return value;
  const result: ToolResult =
    object && Array.isArray(object.content)
      ? (object as unknown as ToolResult)
      : options.structured
        ? { content: [], structuredContent: value as Record<string, unknown> }
        : { content: [] };
  return { ...result, content: [{ type: 'text', text: options.text(result) }] };
}

const SERVED = new WeakSet<McpServer>();

/**
 * Serves the UI extension on `server` (once; {@link appTool} does it for its tools):
 * declares `io.modelcontextprotocol/ui` and keeps every app-only tool (`_meta.ui.visibility`
 * without `"model"`, whoever registered or mounted it) away from a client that did not
 * negotiate the extension: left out of its `tools/list` (per request on modern, per session
 * on legacy; lists carry `cacheScope: "private"`) and its `tools/call` refused with -32602.
 * Such a host has no app, so only its model could be asking. The spec puts the rule on the
 * host ("Visibility"); a server may offer different tools by host capabilities ("Graceful
 * Degradation"), and this one does. Returns the server.
 */
export function serveApps(server: McpServer): McpServer {
  if (SERVED.has(server)) return server;
  SERVED.add(server);
  return server.use(uiExtension());
}

/** The UI extension on the seam: declared, no methods of its own, app-only tools per caller. */
function uiExtension(): ServerExtension {
  // The app-only tool names of the catalogue last built, for the clearer refusal below.
  let appOnly = new Set<string>();
  // Only app-only tools become per-caller: other lists stay shared (and announced to all).
  const made = new WeakMap<ToolEntry, ToolEntry>();
  const restrict = (e: ToolEntry): ToolEntry => {
    let out = made.get(e);
    const visible = (caller: Caller) => isVisible(e, caller) && negotiatesUi(caller.clientCapabilities);
    if (!out) made.set(e, (out = { ...e, visible }));
    return out;
  };
  const hide: Transform = (c) => ({ ...c, tools: c.tools.map((e) => (isAppOnlyEntry(e) ? restrict(e) : e)) });
  const track: Transform = (catalogue) => {
    appOnly = new Set(catalogue.tools.filter(isAppOnlyEntry).map((e) => e.tool.name));
    return catalogue;
  };
  return defineExtension({
    id: UI_EXTENSION,
    // Stable: MCP Apps (SEP-1865) is a stable extension (SEP-3392 stages).
    stage: 'stable',
    setup: (server) => void server.transform(track, hide),
    intercept: ({ method, params }, ctx) => {
      if (method !== 'tools/call' || typeof params.name !== 'string' || !appOnly.has(params.name))
        return undefined;
      if (negotiatesUi(ctx.clientCapabilities)) return undefined;
      const why = `Tool ${params.name} is callable only from its app (the client did not negotiate ${UI_EXTENSION})`;
      return Promise.reject(WireError.of('InvalidParams', why));
    },
  });
}

function isAppOnlyEntry(entry: CatalogueEntry): entry is ToolEntry {
  return 'tool' in entry && !toolUiOf(entry.tool).visibility.includes('model');
}
