/**
 * The checker's Streamable HTTP channel: one POST per message with the headers the era asks
 * for, the answer read as JSON or as an SSE stream until the response with our id, every
 * read bounded in bytes and time. It keeps the HTTP facts (status, media type, headers)
 * for the transport rules. Source: 2026-07-28 basic/transports/streamable-http "Sending
 * Messages"; 2025-11-25 basic/transports "Session Management".
 */
import { createParser } from 'eventsource-parser';
import { DEFAULT_LIMITS, isResponse, keepJunk, record, type Channel, type ChannelLimits } from './channel.js';
import type { Answer, HttpFacts, Json, WireRecord } from './observations.js';
import {
  checkToolHeaders,
  encodeHeaderValue,
  headerValueOf,
  mcpNameOf,
  valueAtPath,
  withDeadline,
  type HeaderAnnotation,
} from '../core/runtime.js';

/** How the checker reaches an HTTP endpoint: the global fetch, or a handler in process. */
export type FetchLike = (request: Request) => Promise<Response>;

/** Largest response body read, in bytes. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Where and how one HTTP channel posts. */
export interface HttpChannelOptions {
  url: string;
  fetch: FetchLike;
  /** Headers on every POST (`--header`, `--token`). */
  headers?: Record<string, string>;
  limits?: ChannelLimits;
  /** A fetch that sends a given `Host` header (the DNS-rebinding probe); none: no such probe. */
  hostFetch?: FetchLike;
}

/** One POST and what came back: the facts, and the JSON-RPC messages of its body. */
export interface Posted {
  http?: HttpFacts;
  messages: unknown[];
  failure?: string;
}

/** The `x-mcp-header` annotations of the tools a modern `tools/list` listed, by tool name. */
export type ToolAnnotations = ReadonlyMap<string, readonly HeaderAnnotation[]>;

/**
 * The headers a modern request mirrors from its body: Mcp-Method, Mcp-Name, and on a
 * `tools/call` one `Mcp-Param-{Name}` per annotated argument present (names in lower case,
 * values encoded as the spec says). Source: 2026-07-28 basic/transports/streamable-http
 * "Standard Request Headers", "Custom Headers from Tool Parameters", "Value Encoding".
 */
export function mirroredHeaders(request: Json, tools?: ToolAnnotations): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof request.method !== 'string') return out;
  out['mcp-method'] = request.method;
  const params = isJson(request.params) ? request.params : undefined;
  const name = mcpNameOf(request.method, params);
  if (typeof name === 'string') out['mcp-name'] = encodeHeaderValue(name);
  if (request.method !== 'tools/call' || typeof name !== 'string') return out;
  for (const { path, name: header } of tools?.get(name) ?? []) {
    const text = headerValueOf(valueAtPath(params?.arguments, path));
    if (text !== undefined) out[`mcp-param-${header.toLowerCase()}`] = text;
  }
  return out;
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Remembers the valid annotations of each tool a `tools/list` result lists. */
export function rememberAnnotations(tools: Map<string, readonly HeaderAnnotation[]>, result: unknown): void {
  const listed = isJson(result) ? result.tools : undefined;
  if (!Array.isArray(listed)) return;
  for (const tool of listed) {
    if (!isJson(tool) || typeof tool.name !== 'string') continue;
    const check = checkToolHeaders(tool.inputSchema);
    tools.set(tool.name, check.ok ? check.annotations : []);
  }
}

/** POSTs `body` and reads the answer, bounded; never rejects. */
export async function post(
  options: HttpChannelOptions,
  body: unknown,
  headers: Record<string, string>,
): Promise<Posted> {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const wanted = (body as Json | undefined)?.id;
  try {
    return await withDeadline({ url: options.url, ms: limits.timeoutMs }, async (signal) => {
      const response = await options.fetch(
        new Request(options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...options.headers,
            ...headers,
          },
          body: JSON.stringify(body),
          signal,
        }),
      );
      const http = factsOf(response);
      const messages = await readBody(response, http.contentType, wanted);
      return { http, messages };
    });
  } catch (error) {
    const code = (error as { code?: unknown; name?: unknown }).code;
    const timedOut = code === 'TIMEOUT' || (error as { name?: string }).name === 'AbortError';
    return {
      messages: [],
      failure: timedOut
        ? `no answer within ${limits.timeoutMs} ms`
        : `HTTP request failed: ${withCauses(error)}`,
    };
  }
}

/** An error's message and its causes' (fetch says only "fetch failed"; the cause says why). */
function withCauses(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e !== undefined && parts.length < 4; e = (e as { cause?: unknown }).cause) {
    const text = e instanceof Error ? e.message : String(e);
    if (text !== '' && !parts.includes(text)) parts.push(text);
    if (!(e instanceof Error)) break;
  }
  return parts.join(': ');
}

/** The HTTP facts of a response. */
export function factsOf(response: Response): HttpFacts {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  const contentType = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return { status: response.status, contentType, headers };
}

/** Reads up to MAX_BODY_BYTES; an SSE body until the response with id `wanted`. */
async function readBody(response: Response, contentType: string, wanted: unknown): Promise<unknown[]> {
  if (!response.body) return [];
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const messages: unknown[] = [];
  let text = '';
  let size = 0;
  let done = false;
  const parser = createParser({
    onEvent: (event) => {
      const parsed = parseJson(event.data);
      if (parsed === undefined) return;
      messages.push(parsed);
      if (
        typeof parsed === 'object' &&
        parsed !== null &&
        isResponse(parsed as Json) &&
        (parsed as Json).id === wanted
      )
        done = true;
    },
  });
  try {
    while (!done && size <= MAX_BODY_BYTES) {
      const chunk = await reader.read();
      if (chunk.done) break;
      size += chunk.value.byteLength;
      const piece = decoder.decode(chunk.value, { stream: true });
      if (contentType === 'text/event-stream') parser.feed(piece);
      else text += piece;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  if (contentType === 'text/event-stream') return messages;
  if (size > MAX_BODY_BYTES) return [`(body over ${MAX_BODY_BYTES} bytes)`];
  if (text.trim() === '') return [];
  const parsed = parseJson(text);
  return parsed === undefined ? [text] : Array.isArray(parsed) ? parsed : [parsed];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The era-specific headers of an HTTP channel. */
export interface HttpEraHeaders {
  /** Modern: the revision every request names, mirrored in MCP-Protocol-Version. */
  modern?: string;
  /** Legacy: set after initialize (protocol version, session id). */
  legacy?: { version?: string; sessionId?: string };
}

/** The protocol version a modern request names in `_meta`. */
function versionOf(message: Json): string | undefined {
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const version = meta?.['io.modelcontextprotocol/protocolVersion'];
  return typeof version === 'string' ? version : undefined;
}

/** Opens an HTTP channel for one era. */
export function httpChannel(
  options: HttpChannelOptions,
  era: HttpEraHeaders,
): Channel & { exchanges: Answer[] } {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const wire: WireRecord[] = [];
  const junk: string[] = [];
  const exchanges: Answer[] = [];
  const tools = new Map<string, readonly HeaderAnnotation[]>();
  const headersFor = (message: Json): Record<string, string> => {
    if (era.modern !== undefined)
      return { 'mcp-protocol-version': versionOf(message) ?? era.modern, ...mirroredHeaders(message, tools) };
    const out: Record<string, string> = {};
    if (era.legacy?.version !== undefined) out['mcp-protocol-version'] = era.legacy.version;
    if (era.legacy?.sessionId !== undefined) out['mcp-session-id'] = era.legacy.sessionId;
    return out;
  };
  const exchange = async (message: Json, extra: Record<string, string> | undefined): Promise<Answer> => {
    record(wire, limits, { direction: 'sent', message });
    const posted = await post(options, message, { ...headersFor(message), ...extra });
    let response: Json | undefined;
    for (const one of posted.messages) {
      if (typeof one !== 'object' || one === null || Array.isArray(one)) {
        keepJunk(junk, String(one));
        continue;
      }
      record(wire, limits, { direction: 'received', message: one });
      if (isResponse(one as Json) && (one as Json).id === message.id) response = one as Json;
    }
    const answer: Answer = { request: message };
    if (response) answer.response = response;
    if (response && message.method === 'tools/list') rememberAnnotations(tools, response.result);
    if (posted.http) answer.http = posted.http;
    if (posted.failure !== undefined) answer.failure = posted.failure;
    else if (!response && message.id !== undefined)
      answer.failure = `HTTP ${posted.http?.status ?? '?'} without a JSON-RPC response`;
    exchanges.push(answer);
    return answer;
  };
  return {
    wire,
    junk,
    exchanges,
    request: (request, extra) => exchange(request, extra?.headers),
    notify: (notification) => exchange(notification, undefined),
    close: () => Promise.resolve(),
  };
}
