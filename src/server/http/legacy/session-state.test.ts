/**
 * What a legacy session keeps: an ended session leaves nothing in the event store or the
 * session table, an idle one stores nothing until something is sent on one of its streams,
 * and DELETE hands the principal its share of the session bound back.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryEventBus, type EventBus } from '../../../core/event-bus.js';
import type { JsonRpcMessage } from '../../../core/jsonrpc.js';
import { createServer } from '../../index.js';
import { createHttpHandler, createMemoryEventStore, type EventStore } from '../index.js';
import { HttpSession } from './session.js';
import { SessionTable } from './sessions.js';
import { SseReader, buildServer, post, readAll } from '../../../../test/support/http-harness.js';

const REV = '2025-11-25';
const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const FROM = { remoteAddress: '10.0.0.7' };

/** The memory store, with the streams that hold events (appended, not yet deleted). */
function recordingStore(): { store: EventStore; live: Set<string>; seen: Set<string>; inner: EventStore } {
  const inner = createMemoryEventStore();
  const live = new Set<string>();
  const seen = new Set<string>();
  const store: EventStore = {
    append(streamId, event, owner) {
      live.add(streamId);
      seen.add(streamId);
      return inner.append(streamId, event, owner);
    },
    since: (streamId, afterSeq) => inner.since(streamId, afterSeq),
    deleteStream(streamId) {
      live.delete(streamId);
      return inner.deleteStream(streamId);
    },
  };
  return { store, live, seen, inner };
}

const call = (id: number, name: string): JsonRpcMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: name === 'echo' ? { text: 'hi' } : {} },
});

/** A legacy client: opens a session on `handler`, then sends and ends it. */
async function openSession(handler: ReturnType<typeof createHttpHandler>) {
  const init = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: REV, capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };
  const response = await handler(post(init, HEADERS), FROM);
  await readAll(response, REV);
  const sessionId = response.headers.get('mcp-session-id') ?? '';
  const headers = { ...HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': REV };
  const send = (body: unknown) => handler(post(body, headers), FROM);
  await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const remove = () =>
    handler(new Request('http://localhost/mcp', { method: 'DELETE', headers }), FROM).then((r) => r.status);
  return { status: response.status, sessionId, send, remove };
}

describe('what a legacy session keeps', () => {
  it('stores no events for a session whose requests are answered with JSON', async () => {
    const { store, seen } = recordingStore();
    const handler = createHttpHandler(buildServer(), { keepAliveMs: 0, eventStore: store });
    const { send, remove } = await openSession(handler);
    for (let id = 1; id <= 3; id++) expect((await send(call(id, 'echo'))).status).toBe(200);
    expect(seen.size).toBe(0);
    expect(await remove()).toBe(200);
  });

  it('leaves nothing of ended sessions in the event store, whatever their streams held', async () => {
    const { store, live, seen, inner } = recordingStore();
    const server = buildServer();
    const handler = createHttpHandler(server, { keepAliveMs: 0, eventStore: store });
    const sessions = [];
    for (let i = 0; i < 5; i++) {
      const session = await openSession(handler);
      // Logging answers on an SSE stream (stored); the list change goes to the GET stream.
      await readAll(await session.send(call(1, 'logger')), REV);
      sessions.push(session);
    }
    server.notifyToolsChanged();
    expect(live.size).toBe(10);
    for (const session of sessions) expect(await session.remove()).toBe(200);
    expect(live.size).toBe(0);
    for (const streamId of seen) expect(await inner.since(streamId, 0)).toEqual([]);
  });

  it('makes the GET stream when it is first needed and resumes it from the store', async () => {
    const { store, seen } = recordingStore();
    const server = buildServer();
    const handler = createHttpHandler(server, { keepAliveMs: 0, eventStore: store });
    const { sessionId } = await openSession(handler);
    const headers = { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': REV };
    const first = new SseReader(await handler(new Request('http://localhost/mcp', { headers }), FROM));
    await first.waitFor(1);
    const primed = first.events[0]?.id ?? '';
    await first.cancel();
    server.notifyToolsChanged();
    expect(seen.size).toBe(1);
    const resumed = new SseReader(
      await handler(
        new Request('http://localhost/mcp', { headers: { ...headers, 'last-event-id': primed } }),
        FROM,
      ),
    );
    await resumed.waitFor(1);
    expect(resumed.events.map((e) => e.data).filter((d) => d !== '')).toEqual([
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }),
    ]);
    await resumed.cancel();
  });

  it('gives a principal its share of the session bound back on DELETE', async () => {
    const handler = createHttpHandler(buildServer(), { keepAliveMs: 0, principals: { maxSessions: 1 } });
    const first = await openSession(handler);
    expect(first.status).toBe(200);
    expect((await openSession(handler)).status).toBe(429);
    expect(await first.remove()).toBe(200);
    expect((await openSession(handler)).status).toBe(200);
  });

  it('forgets a deleted session in the table and its count for the principal', () => {
    const server = buildServer();
    const table = new SessionTable({ idleMs: 60_000, maxPerPrincipal: 1 });
    const settings = { store: createMemoryEventStore(), keepAliveMs: 0 };
    const init = { protocolVersion: REV, clientInfo: undefined, clientCapabilities: {} } as const;
    const ids = [];
    for (let i = 0; i < 20; i++) {
      const session = new HttpSession(server, init, { settings, principal: 'p' });
      expect(table.refusal('p')).toBeUndefined();
      table.add(session);
      expect(table.refusal('p')).toBe('principals.maxSessions');
      expect(table.delete(session.id)).toBe(true);
      ids.push(session.id);
    }
    expect([...table.values()]).toEqual([]);
    expect(new Set(ids).size).toBe(20);
    for (const id of ids) expect(table.get(id)).toBeUndefined();
  });

  it('subscribes to server events once for all its sessions, and lets go on close', async () => {
    const inner = createMemoryEventBus();
    let listeners = 0;
    const eventBus: EventBus = {
      publish: (event) => inner.publish(event),
      subscribe(listener) {
        listeners++;
        const unsubscribe = inner.subscribe(listener);
        return () => {
          listeners--;
          unsubscribe();
        };
      },
    };
    const server = createServer({ name: 'bus', version: '1.0.0', eventBus });
    server.tool('echo', { description: 'Echo' }, () => 'hi');
    const { store, live } = recordingStore();
    const handler = createHttpHandler(server, { keepAliveMs: 0, eventStore: store });
    const before = listeners;
    const sessions = [];
    for (let i = 0; i < 5; i++) sessions.push(await openSession(handler));
    expect(listeners).toBe(before);
    expect(await sessions[0]!.remove()).toBe(200);
    server.notifyToolsChanged();
    // The four sessions left got the change on their GET streams; the ended one did not.
    expect(live.size).toBe(4);
    handler.close();
    expect(listeners).toBe(0);
  });
});
