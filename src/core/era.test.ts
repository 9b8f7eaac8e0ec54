import { describe, expect, it } from 'vitest';
import type { Params } from './jsonrpc.js';
import type { Era } from './revisions.js';
import { eraOf, revisionOf } from './era.js';
import { Peer } from './peer.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { connect, createServer } from '../server/index.js';
import { createHttpHandler } from '../server/http/index.js';

const VERSION = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const SESSION = { protocolVersion: '2025-11-25' };

/** The odd `_meta` protocol versions: each case's era and revision, with and without a session. */
const CASES: { name: string; meta: Params | undefined; era: Era | undefined; revision?: string }[] = [
  { name: 'a modern revision', meta: { [VERSION]: '2026-07-28' }, era: 'modern', revision: '2026-07-28' },
  { name: 'a number', meta: { [VERSION]: 20260728 }, era: 'modern' },
  { name: 'null', meta: { [VERSION]: null }, era: 'modern' },
  { name: 'an empty string', meta: { [VERSION]: '' }, era: 'modern', revision: '' },
  { name: 'an unknown revision', meta: { [VERSION]: '1900-01-01' }, era: 'modern', revision: '1900-01-01' },
  { name: 'a legacy revision', meta: { [VERSION]: '2025-11-25' }, era: 'modern', revision: '2025-11-25' },
  { name: 'no protocol version', meta: { progressToken: 1 }, era: undefined },
  { name: 'no _meta', meta: undefined, era: undefined },
];

const paramsOf = (meta: Params | undefined): Params =>
  meta === undefined ? { name: 'echo' } : { name: 'echo', _meta: { [CAPS]: {}, ...meta } };

describe('eraOf', () => {
  for (const c of CASES) {
    it(`reads ${c.name} in _meta the same with and without a session`, () => {
      const message = { method: 'tools/call', params: paramsOf(c.meta) };
      expect(eraOf(message, {})).toBe(c.era);
      expect(eraOf(message, { session: SESSION })).toBe(c.era ?? 'legacy');
      expect(revisionOf(message, c.era ?? 'modern')).toBe(c.revision);
      if (c.era === undefined) expect(revisionOf(message, 'legacy', { session: SESSION })).toBe('2025-11-25');
    });
  }

  it('takes the era the transport established, then a modern header, before the message', () => {
    const initialize = { method: 'initialize', params: {} };
    expect(eraOf(initialize, {})).toBe('legacy');
    expect(eraOf(initialize, { era: 'modern' })).toBe('modern');
    const headers = (value: string) => ({
      get: (n: string) => (n === 'mcp-protocol-version' ? value : null),
    });
    expect(eraOf(initialize, { headers: headers(' 2026-07-28 ') })).toBe('modern');
    expect(eraOf(initialize, { headers: headers('2025-11-25') })).toBe('legacy');
    expect(eraOf(undefined, { headers: headers('2026-07-28') })).toBe('modern');
    expect(eraOf(undefined, {})).toBeUndefined();
  });

  it('reads unchecked input without throwing', () => {
    for (const value of [null, 7, 'x', [], { params: 5 }, { params: { _meta: 'x' } }] as const)
      expect(eraOf(value as never, {})).toBeUndefined();
  });
});

/** A server whose middleware records the era it was shown, with one tool. */
function recordingServer() {
  const seen: (Era | undefined)[] = [];
  const sessions: (string | undefined)[] = [];
  const server = createServer({ name: 'era', version: '1' });
  server.use((next) => (message, ctx) => {
    if (message.method === 'tools/call') {
      seen.push(ctx.era);
      sessions.push(ctx.sessionId);
    }
    return next(message, ctx);
  });
  server.tool('echo', {}, () => 'ok');
  return { server, seen, sessions };
}

/** The era the server answered a request in: modern results carry `resultType`. */
function answeredEra(outcome: { result?: Params; error?: { code: number; message: string } }): Era {
  if (outcome.result) return typeof outcome.result.resultType === 'string' ? 'modern' : 'legacy';
  const { code, message } = outcome.error ?? { code: 0, message: '' };
  // -32020 and -32022 exist only on the modern wire; -32602 names the malformed `_meta`.
  return code === -32020 || code === -32022 || message.includes('_meta') ? 'modern' : 'legacy';
}

async function overStream(meta: Params | undefined, withSession: boolean) {
  const { server, seen } = recordingServer();
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const peer = new Peer(a, { request: () => Promise.resolve({}) });
  await peer.start();
  if (withSession) {
    await peer.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    peer.notify('notifications/initialized');
  }
  const outcome = await peer.request('tools/call', paramsOf(meta)).then(
    (result) => ({ result }),
    (error: { code: number; message: string }) => ({ error }),
  );
  await peer.close();
  return { dispatch: answeredEra(outcome), middleware: seen[0] };
}

const URL_ = 'http://127.0.0.1:3000/mcp';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function overHttp(meta: Params | undefined) {
  const { server, seen, sessions } = recordingServer();
  const handler = createHttpHandler(server);
  const post = (body: object, headers: Record<string, string> = {}) =>
    handler(
      new Request(URL_, { method: 'POST', body: JSON.stringify(body), headers: { ...HEADERS, ...headers } }),
    );
  const opened = await post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  });
  const id = opened.headers.get('mcp-session-id') ?? '';
  const session = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: paramsOf(meta) };
  const response = await post(call, session);
  const text = await response.text();
  const body = JSON.parse(text.startsWith('{') ? text : (/data: (.*)/.exec(text)?.[1] ?? '{}')) as {
    result?: Params;
    error?: { code: number; message: string };
  };
  handler.close?.();
  // The edge chose its legacy path when the request reached the server in the session; on
  // its modern path the header checks may answer before the server sees the request.
  const reached = sessions.length > 0;
  const edge: Era = reached ? (sessions[0] === id ? 'legacy' : 'modern') : answeredEra(body);
  return { dispatch: reached ? answeredEra(body) : edge, middleware: seen[0] ?? edge, edge };
}

describe('dispatch, the middleware ctx and the HTTP edge agree on the era', () => {
  for (const c of CASES) {
    it(`with ${c.name} in _meta, outside a session (stdio)`, async () => {
      const { dispatch, middleware } = await overStream(c.meta, false);
      expect(dispatch).toBe(c.era ?? 'modern');
      expect(middleware).toBe(dispatch);
    });
    it(`with ${c.name} in _meta, in a legacy session (stdio)`, async () => {
      const { dispatch, middleware } = await overStream(c.meta, true);
      expect(dispatch).toBe(c.era ?? 'legacy');
      expect(middleware).toBe(dispatch);
    });
    it(`with ${c.name} in _meta, in a legacy session (Streamable HTTP)`, async () => {
      const { dispatch, middleware, edge } = await overHttp(c.meta);
      expect(dispatch).toBe(c.era ?? 'legacy');
      expect(middleware).toBe(dispatch);
      expect(edge).toBe(dispatch);
    });
  }
});
