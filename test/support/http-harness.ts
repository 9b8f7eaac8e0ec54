/**
 * Test harness for the HTTP handler: a small server definition, builders of modern and
 * legacy `Request`s, and an SSE reader. Every JSON-RPC message read from a body is
 * checked against the official schema of the revision. Shared by the tests;
 * its own checks are in the `.test.ts` file beside it.
 */
import { createParser } from 'eventsource-parser';
import { z } from 'zod';
import type { JsonRpcMessage, Params } from '../../src/core/jsonrpc.js';
import { assertWireValid, type WireRevision } from '../../src/testing/wire-schema.js';
import { createServer, type McpServer } from '../../src/server/index.js';
import { turn, until } from './wait.js';

/** What tools observed (cancellation, elicitation answers). */
export interface Observed {
  aborted: boolean;
}

/** A server with tools for each transport rule: plain, progress, logging, eliciting, waiting. */
export function buildServer(observed: Observed = { aborted: false }): McpServer {
  const server = createServer({ name: 'http-test', version: '1.0.0' });
  server.tool(
    'echo',
    { description: 'Echo', inputSchema: z.object({ text: z.string() }) },
    ({ text }) => text,
  );
  server.tool('progress', { description: 'Reports progress' }, async (_args, ctx) => {
    for (const p of [0, 50, 100]) {
      ctx.progress(p, { total: 100 });
      await turn();
    }
    return 'progress done';
  });
  server.tool('logger', { description: 'Logs' }, (_args, ctx) => {
    ctx.log('info', 'first');
    ctx.log('info', 'second');
    return 'logged';
  });
  server.tool('ask', { description: 'Elicits a name' }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      mode: 'form',
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    } as never);
    return `hello ${String((answer.content as { name?: unknown } | undefined)?.name)}`;
  });
  server.tool('sample', { description: 'Needs sampling' }, async (_args, ctx) => {
    await ctx.sample({ messages: [], maxTokens: 1 } as never);
    return 'sampled';
  });
  server.tool('wait', { description: 'Waits until cancelled' }, async (_args, ctx) => {
    ctx.progress(1);
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
    observed.aborted = true;
    return 'cancelled';
  });
  server.tool(
    'sql',
    {
      description: 'Mirrors parameters into headers',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          limit: { type: 'integer', 'x-mcp-header': 'Limit' },
          options: { type: 'object', properties: { dry: { type: 'boolean', 'x-mcp-header': 'Dry' } } },
        },
      },
    },
    () => 'ran',
  );
  server.prompt('greet', { description: 'Greets' }, () => [
    { role: 'user', content: { type: 'text', text: 'hi' } },
  ]);
  return server;
}

/** The `_meta` of a modern request. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

const NAME_FIELD: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** The JSON body of a modern request with `_meta` merged into `params._meta`. */
export function modernBody(method: string, params: Params = {}, id: number | string = 1): JsonRpcMessage {
  const meta = { ...MODERN_META, ...(params._meta as Params | undefined) };
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } };
}

/** The headers a conforming modern client sends for `body`. */
export function modernHeaders(body: JsonRpcMessage): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': '2026-07-28',
  };
  if ('method' in body) {
    headers['mcp-method'] = body.method;
    const field = NAME_FIELD[body.method];
    const value = field ? body.params?.[field] : undefined;
    if (typeof value === 'string') headers['mcp-name'] = value;
  }
  return headers;
}

/** A POST to the endpoint with `body` (JSON-encoded unless a string) and `headers`. */
export function post(body: unknown, headers: Record<string, string>, init: RequestInit = {}): Request {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new Request('http://localhost:3000/mcp', { method: 'POST', body: text, headers, ...init });
}

/** A modern POST of `method`, with conforming headers plus `extra` (null removes one). */
export function modernPost(
  method: string,
  params: Params = {},
  extra: Record<string, string | null> = {},
  init: RequestInit = {},
): Request {
  const body = modernBody(method, params);
  const headers: Record<string, string> = modernHeaders(body);
  for (const [name, value] of Object.entries(extra)) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  return post(body, headers, init);
}

/** An SSE event as read from a body. */
export interface ReadEvent {
  id: string | undefined;
  data: string;
}

/** Reads SSE events from a response body as they arrive. */
export class SseReader {
  readonly events: ReadEvent[] = [];
  readonly comments: string[] = [];
  ended = false;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #done: Promise<void>;

  constructor(response: Response) {
    const parser = createParser({
      onEvent: (e) => this.events.push({ id: e.id, data: e.data }),
      onComment: (c) => this.comments.push(c),
    });
    this.#reader = (response.body as ReadableStream<Uint8Array>).getReader();
    this.#done = this.#pump((text) => parser.feed(text));
  }

  async #pump(feed: (text: string) => void): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await this.#reader.read();
        if (done) break;
        feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // cancelled
    }
    this.ended = true;
  }

  /** Waits until `count` events arrived (or throws after `ms`). */
  async waitFor(count: number, ms = 2000): Promise<ReadEvent[]> {
    await until(() => this.events.length >= count || this.ended, ms);
    if (this.events.length < count) throw new Error(`got ${this.events.length} events, wanted ${count}`);
    return this.events;
  }

  /** Resolves when the body ends. */
  finished(): Promise<void> {
    return this.#done;
  }

  /** Cancels reading (the client goes away). */
  async cancel(): Promise<void> {
    await this.#reader.cancel();
  }
}

export { until };

/** The JSON-RPC messages of an SSE event list (events with empty data are primers, skipped). */
export function messagesOf(events: ReadEvent[], revision: WireRevision): JsonRpcMessage[] {
  return events.filter((e) => e.data !== '').map((e) => checked(JSON.parse(e.data), revision));
}

/** Validates a message against the official schema and returns it. */
export function checked(message: unknown, revision: WireRevision): JsonRpcMessage {
  assertWireValid(message, revision);
  return message as JsonRpcMessage;
}

/** Every message of a response: its JSON body, or all its SSE events until it ends. */
export async function readAll(response: Response, revision: WireRevision): Promise<JsonRpcMessage[]> {
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('application/json'))
    return [(await response.json()) as JsonRpcMessage].flat().map((m) => checked(m, revision));
  const reader = new SseReader(response);
  await reader.finished();
  return messagesOf(reader.events, revision);
}

/** The JSON body of an error response (checked against the schema). */
export async function errorOf(
  response: Response,
  revision: WireRevision,
): Promise<{ id?: unknown; error: { code: number; message: string; data?: unknown } }> {
  const body = (await response.json()) as { id?: unknown; error: { code: number; message: string } };
  checked(body, revision);
  return body;
}
