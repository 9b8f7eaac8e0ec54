/**
 * A server that keeps notes per caller in `ctx.userState` (./notes-server.ts), and a raw HTTP caller for it that speaks either era with an optional
 * bearer token: what the user-state tests over HTTP, Redis and `mcpkit check` share.
 */
import { MODERN_META } from './http-harness.js';

// The server itself imports no Node module, so a Worker (test/runtimes/facade-worker.ts) bundles it.
export { notesServer } from './notes-server.js';

/** What one call answered: the tool's text, or the JSON-RPC error, and the HTTP status. */
export interface CallOutcome {
  status: number;
  text?: string;
  isError?: boolean;
  error?: { code: number; message: string; data?: unknown };
}

/** Sends one HTTP request: `fetch`, or an endpoint's handler called directly. */
export type Send = (request: Request) => Promise<Response>;

/**
 * How a caller reaches the endpoint: its token, the legacy session it speaks in (else
 * modern), and what sends its requests (default `fetch`).
 */
export interface Caller {
  token?: string | undefined;
  session?: string | undefined;
  via?: Send | undefined;
}

let ids = 0;

/** Calls `name` with `args` at `url` as `caller`, and reads the answer (JSON or one SSE message). */
export async function callTool(
  url: string,
  caller: Caller,
  call: { name: string; args: Record<string, unknown> },
): Promise<CallOutcome> {
  const legacy = caller.session !== undefined;
  const params = legacy
    ? { name: call.name, arguments: call.args }
    : { name: call.name, arguments: call.args, _meta: MODERN_META };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': legacy ? '2025-11-25' : '2026-07-28',
  };
  if (!legacy) Object.assign(headers, { 'mcp-method': 'tools/call', 'mcp-name': call.name });
  if (legacy) headers['mcp-session-id'] = caller.session!;
  if (caller.token) headers.authorization = `Bearer ${caller.token}`;
  const body = JSON.stringify({ jsonrpc: '2.0', id: ++ids, method: 'tools/call', params });
  const response = await (caller.via ?? fetch)(new Request(url, { method: 'POST', headers, body }));
  const message = await messageOf(response);
  if (message.error) return { status: response.status, error: message.error };
  const result = message.result as { content: { text: string }[]; isError?: boolean };
  return { status: response.status, text: result.content[0]?.text ?? '', isError: result.isError === true };
}

/** Opens a legacy session at `url` as the bearer of `token` (none: anonymous) through `via`; resolves with its id. */
export async function openLegacy(url: string, token?: string, via: Send = fetch): Promise<string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (token) headers.authorization = `Bearer ${token}`;
  const init = {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'notes-test', version: '1' },
  };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: init });
  const response = await via(new Request(url, { method: 'POST', headers, body }));
  const id = response.headers.get('mcp-session-id');
  await response.body?.cancel();
  if (!response.ok || id === null) throw new Error(`initialize answered ${response.status}`);
  const done = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const sent = await via(
    new Request(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': id },
      body: done,
    }),
  );
  await sent.body?.cancel();
  return id;
}

async function messageOf(
  response: Response,
): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }> {
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream'))
    return JSON.parse(text) as never;
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { id?: unknown; result?: unknown; error?: never })
    .find((message) => message.id !== undefined);
  if (!data) throw new Error(`no response in the SSE body (status ${response.status})`);
  return data;
}
