/**
 * `behaviour.session-state`: `mcpkit check` finds a server that keeps data on the legacy
 * session which the modern era loses (a new session starts empty while the first one
 * remembers, and modern requests keep nothing): over HTTP, data that follows the session id.
 * It says nothing of a server that keeps data per user in `ctx.userState`, of a stateless
 * one, nor of a stdio-like server that keeps data per connection or process, which its
 * modern era keeps too (one connection per client).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpHandler, type HttpHandler } from '../server/http/index.js';
import { connect, createServer, type McpServer } from '../server/index.js';
import { startRealm, type TokenRealm } from '../../test/support/token-realm.js';
import { notesServer } from '../../test/support/user-state.js';
import { checkServer, type CheckReport, type SafeCall } from './index.js';
import { createLinkedPair } from '../testing/index.js';

const RULE = 'behaviour.session-state';
const READ_THEN_WRITE: SafeCall[] = [
  { tool: 'note_get', args: { key: 'k' } },
  { tool: 'note_set', args: { key: 'k', value: 'kept' } },
];

/** A transport target whose every connection is served by `serverFor()` (a new process each, as stdio is). */
function overStreams(serverFor: () => McpServer) {
  return {
    kind: 'transport' as const,
    label: 'in memory',
    open: () => {
      const [near, far] = createLinkedPair();
      void connect(serverFor(), far);
      return near;
    },
  };
}

/** A notes server that keeps its notes in the process (so, on stdio, in the connection, on both eras). */
function processNotes(): McpServer {
  return mapNotes(() => true);
}

/**
 * A notes server that keeps notes for its legacy session only: its modern requests stand
 * alone, even on one connection (as a server that keeps its data on the session would).
 */
function legacyOnlyNotes(): McpServer {
  return mapNotes((era) => era === 'legacy');
}

function mapNotes(keeps: (era: string) => boolean): McpServer {
  const notes = new Map<string, unknown>();
  const server = createServer({ name: 'map-notes', version: '1' });
  server.tool('note_get', { inputSchema: { type: 'object' } }, (args) =>
    JSON.stringify(notes.get(String(args.key)) ?? null),
  );
  server.tool('note_set', { inputSchema: { type: 'object' } }, (args, ctx) => {
    if (keeps(ctx.era)) notes.set(String(args.key), args.value);
    return 'kept';
  });
  return server;
}

const hits = (report: CheckReport) => report.findings.filter((finding) => finding.rule === RULE);

describe('the session-state check', () => {
  it('says nothing of data kept per connection on a stream transport (stdio): its modern era keeps it too', async () => {
    const report = await checkServer(overStreams(processNotes), { calls: READ_THEN_WRITE });
    expect(report.eras.map((e) => e.era).sort()).toEqual(['legacy', 'modern']);
    expect(hits(report)).toEqual([]);
    expect(
      hits(await checkServer(overStreams(processNotes), { era: 'legacy', calls: READ_THEN_WRITE })),
    ).toEqual([]);
  });

  it('finds data a stream transport keeps on the legacy session but not on one modern connection', async () => {
    const report = await checkServer(overStreams(legacyOnlyNotes), { calls: READ_THEN_WRITE });
    expect(hits(report)).toHaveLength(1);
    expect(hits(report)[0]!.message).toContain(
      'the modern era kept nothing between two runs (one connection)',
    );
  });

  it('says nothing of a stateless server, nor without calls to compare', async () => {
    const stateless = () => {
      const server = createServer({ name: 'stateless', version: '1' });
      server.tool('note_get', { inputSchema: { type: 'object' } }, () => 'null');
      server.tool('note_set', { inputSchema: { type: 'object' } }, () => 'kept');
      return server;
    };
    expect(hits(await checkServer(overStreams(stateless), { calls: READ_THEN_WRITE }))).toEqual([]);
    expect(hits(await checkServer(overStreams(processNotes), { era: 'legacy' }))).toEqual([]);
  });

  it('says nothing of a server keeping the data per user in ctx.userState (stream, auth middleware)', async () => {
    const shared = notesServer();
    shared.use((next) => (message, ctx) => next(message, { ...ctx, auth: { subject: 'alice', scopes: [] } }));
    const report = await checkServer(
      overStreams(() => shared),
      { era: 'legacy', calls: READ_THEN_WRITE },
    );
    expect(report.eras.map((e) => e.era)).toEqual(['legacy']);
    expect(hits(report)).toEqual([]);
  });

  describe('over HTTP (anonymous, or with a bearer token)', () => {
    const URL = 'http://127.0.0.1:9/mcp';
    let realm: TokenRealm;
    let handler: HttpHandler;
    beforeAll(async () => {
      realm = await startRealm();
      handler = createHttpHandler(notesServer(), { auth: realm.guard(URL) });
    });
    afterAll(async () => {
      handler?.close();
      await realm?.close();
    });

    it('finds data that follows the legacy session id, naming the call, the spec section and ctx.userState', async () => {
      const anonymous = createHttpHandler(notesServer());
      const target = { kind: 'http' as const, label: 'notes', url: URL, fetch: (r: Request) => anonymous(r) };
      try {
        const report = await checkServer(target, { calls: READ_THEN_WRITE });
        expect(report.eras.map((e) => e.era).sort()).toEqual(['legacy', 'modern']);
        expect(hits(report)).toHaveLength(1);
        const [finding] = hits(report);
        expect(finding).toMatchObject({
          severity: 'warning',
          section: '2026-07-28 server/tools "Stateful Tools"',
        });
        expect(finding!.message).toContain(
          'call 1 (note_get) answered "null" in a session, "\\"kept\\"" when repeated in that session, and "null" again in a new one, and the modern era kept nothing between two runs (requests)',
        );
        expect(finding!.message).toContain('ctx.userState');
        // Checking the legacy era alone: nothing says the modern era keeps it, and over HTTP it cannot.
        expect(hits(await checkServer(target, { era: 'legacy', calls: READ_THEN_WRITE }))).toHaveLength(1);
      } finally {
        anonymous.close();
      }
    });

    it('says nothing of ctx.userState: a new session of the same user sees the first one’s note', async () => {
      const token = await realm.token(URL, { sub: 'alice' });
      const target = {
        kind: 'http' as const,
        label: 'notes',
        url: URL,
        fetch: (request: Request) => handler(request),
        headers: { authorization: `Bearer ${token}` },
      };
      const report = await checkServer(target, { calls: READ_THEN_WRITE });
      expect(report.eras.map((e) => e.era).sort()).toEqual(['legacy', 'modern']);
      expect(hits(report)).toEqual([]);
    });
  });
});
