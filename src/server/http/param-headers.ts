/**
 * `Mcp-Param-{Name}` headers: tool parameters whose schema carries `x-mcp-header` are
 * mirrored into headers by the client; the server checks each against the body.
 * Source: 2026-07-28 basic/transports/streamable-http "Custom Headers from Tool
 * Parameters", "Value Encoding", "Server Behavior for Custom Headers".
 */
import { runtimeOf, RequestScope } from '../runtime.js';
import { WireError, type JsonRpcRequest, type Params, LATEST_REVISION, META } from '../../core/index.js';
import {
  checkToolHeaders,
  decodeHeaderValue,
  type HeaderAnnotation,
  headerMatches,
  valueAtPath,
} from '../../core/runtime.js';
import type { McpServer } from '../index.js';
import type { HeaderReader } from './exchange.js';

/**
 * Checks the `Mcp-Param-*` headers of a `tools/call` against its arguments.
 * @returns WireError -32020 for a missing, undecodable or mismatching header.
 */
function checkParamHeaders(
  headers: HeaderReader,
  params: Params | undefined,
  annotated: readonly HeaderAnnotation[],
): WireError | undefined {
  for (const { name, path } of annotated) {
    const value = valueAtPath(params?.arguments, path);
    if (value === undefined || value === null) continue;
    const raw = headers.get(`mcp-param-${name}`);
    const decoded = raw === null ? undefined : decodeHeaderValue(raw);
    if (decoded === undefined || !headerMatches(decoded, value))
      return WireError.of(
        'HeaderMismatch',
        `Header mismatch: Mcp-Param-${name} ${raw === null ? 'is missing' : 'does not match the body'}`,
      );
  }
  return undefined;
}

/** The annotations of a listed tool (none when invalid: `server.tool()` refuses those). */
function annotationsOf(inputSchema: unknown): HeaderAnnotation[] {
  const check = checkToolHeaders(inputSchema);
  return check.ok ? check.annotations : [];
}

/** Reads every page of the server's tool list (as a modern client would see it). */
async function listTools(server: McpServer): Promise<Map<string, HeaderAnnotation[]>> {
  const found = new Map<string, HeaderAnnotation[]>();
  const { catalogue } = runtimeOf(server);
  if (catalogue.composed) {
    // Every tool, not one caller's view: per-caller rules must not hide a tool from screening.
    for (const { tool } of catalogue.compiled().catalogue.tools)
      found.set(tool.name, annotationsOf(tool.inputSchema));
    return found;
  }
  const channel = { signal: new AbortController().signal, notify: () => undefined };
  const meta = { [META.protocolVersion]: LATEST_REVISION, [META.clientCapabilities]: {} };
  let cursor: unknown;
  do {
    const params: Params = cursor === undefined ? { _meta: meta } : { cursor, _meta: meta };
    const page =
      (await runtimeOf(server).serve(new RequestScope({ id: 0, method: 'tools/list', params }, channel))) ??
      {};
    for (const tool of (page.tools ?? []) as { name: string; inputSchema?: unknown }[])
      found.set(tool.name, annotationsOf(tool.inputSchema));
    cursor = page.nextCursor;
  } while (typeof cursor === 'string');
  return found;
}

/**
 * The per-handler check of `Mcp-Param-*` headers. Tool annotations are read once and
 * again after each tool list change: an announced one (`toolsListChanged`, possibly from
 * another instance) or a tool added or removed here; `close` stops watching for changes.
 */
export function paramHeaderCheck(server: McpServer): {
  /** The mismatch, if any; a promise only while the tool list is being read. */
  check(
    headers: HeaderReader,
    request: JsonRpcRequest,
  ): WireError | undefined | Promise<WireError | undefined>;
  close(): void;
} {
  let listing: Promise<Map<string, HeaderAnnotation[]>> | undefined;
  let tools: Map<string, HeaderAnnotation[]> | undefined; // once listed: checked without a promise
  let revision = runtimeOf(server).toolsRevision(); // the registry's revision the listing reflects
  const close = runtimeOf(server).eventBus.subscribe((event) => {
    if (event.type === 'toolsListChanged') listing = tools = undefined;
  });
  const checkWith = (
    known: Map<string, HeaderAnnotation[]>,
    headers: HeaderReader,
    params: Params & { name: string },
  ): WireError | undefined => {
    const annotated = known.get(params.name) ?? [];
    return annotated.length === 0 ? undefined : checkParamHeaders(headers, params, annotated);
  };
  return {
    close,
    check(headers, request) {
      const params = request.params;
      if (request.method !== 'tools/call' || typeof params?.name !== 'string') return undefined;
      const named = params as Params & { name: string };
      const now = runtimeOf(server).toolsRevision();
      if (now !== revision) [revision, listing, tools] = [now, undefined, undefined];
      if (tools) return checkWith(tools, headers, named);
      if (!listing) {
        const started = listTools(server).catch(() => new Map<string, HeaderAnnotation[]>());
        listing = started;
        void started.then((listed) => {
          if (listing === started) tools = listed; // not when the list changed meanwhile
        });
      }
      return listing.then((listed) => checkWith(listed, headers, named));
    },
  };
}
