/**
 * A long-lived stream never outlives the access token that opened it: a modern listen is
 * completed gracefully when its token expires (`exp`), and a legacy GET stream is dropped
 * (the client reconnects and an expired token gets 401), while another principal's streams,
 * opened with a longer-lived token, keep delivering. Real JWT access tokens, alice and bob
 * at once. Source: 2026-07-28 basic/authorization "Token Handling"; basic/transports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { META } from '../../core/index.js';
import { createServer, type McpServer } from '../index.js';
import { createHttpHandler, type HttpHandler } from './index.js';
import {
  messagesOf,
  modernBody,
  modernHeaders,
  post,
  SseReader,
  until,
} from '../../../test/support/http-harness.js';
import { startRealm, type TokenRealm } from '../../../test/support/token-realm.js';

const RESOURCE = 'http://localhost:3000/mcp';
let realm: TokenRealm;
let server: McpServer;
let handler: HttpHandler;

beforeAll(async () => {
  realm = await startRealm();
  server = createServer({ name: 'expiry', version: '1.0.0' });
  server.tool('t', {}, () => 'ok');
  handler = createHttpHandler(server, { auth: realm.guard(RESOURCE) });
});
afterAll(async () => {
  await handler?.close();
  await realm?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function listen(token: string, id: number): Promise<Response> {
  const body = modernBody('subscriptions/listen', { notifications: { toolsListChanged: true } }, id);
  return handler(post(body, { ...modernHeaders(body), ...bearer(token) }));
}

async function legacySession(token: string): Promise<string> {
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const opened = await handler(post(init, { ...headers, ...bearer(token) }));
  await opened.text();
  const id = opened.headers.get('mcp-session-id')!;
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
  const session = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
  await (await handler(post(initialized, { ...headers, ...session, ...bearer(token) }))).text();
  return id;
}

function getStream(token: string, session: string): Promise<Response> {
  return handler(
    new Request(RESOURCE, {
      method: 'GET',
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
        ...bearer(token),
      },
    }),
  );
}

describe('streams end when the token that opened them expires', () => {
  it("a modern listen completes at alice's exp; bob's listen keeps delivering", async () => {
    const [alice, bob] = await Promise.all([
      realm.token(RESOURCE, { sub: 'alice', ttlSec: 2 }),
      realm.token(RESOURCE, { sub: 'bob', ttlSec: 300 }),
    ]);
    const [a, b] = (await Promise.all([listen(alice, 7), listen(bob, 8)])).map((r) => new SseReader(r));
    await Promise.all([a!.waitFor(1), b!.waitFor(1)]);
    await a!.finished();
    expect(messagesOf(a!.events, '2026-07-28').at(-1)).toMatchObject({
      id: 7,
      result: { resultType: 'complete', _meta: { [META.subscriptionId]: 7 } },
    });
    expect(b!.ended).toBe(false);
    server.notifyToolsChanged();
    await until(
      () =>
        messagesOf(b!.events, '2026-07-28').some(
          (m) => 'method' in m && m.method === 'notifications/tools/list_changed',
        ),
      5000,
    );
    // alice's next listen with the expired token is refused at the door.
    expect((await listen(alice, 9)).status).toBe(401);
    await b!.cancel();
  });

  it("a legacy GET stream is dropped at alice's exp; bob's stays open", async () => {
    const [alice, bob] = await Promise.all([
      realm.token(RESOURCE, { sub: 'alice', ttlSec: 2 }),
      realm.token(RESOURCE, { sub: 'bob', ttlSec: 300 }),
    ]);
    const [aliceSession, bobSession] = await Promise.all([legacySession(alice), legacySession(bob)]);
    const [ra, rb] = await Promise.all([getStream(alice, aliceSession), getStream(bob, bobSession)]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    const [a, b] = [new SseReader(ra), new SseReader(rb)];
    await a.finished();
    expect(b.ended).toBe(false);
    server.notifyToolsChanged();
    await until(() => b.events.some((e) => e.data.includes('notifications/tools/list_changed')), 5000);
    expect((await getStream(alice, aliceSession)).status).toBe(401);
    await b.cancel();
  });
});
