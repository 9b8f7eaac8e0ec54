import { describe, expect, it } from 'vitest';
import { Peer } from '../core/peer.js';
import { createLinkedPair } from '../testing/linked-pair.js';
import { connect, createServer, keepInRequestState, type RequestContext } from './index.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** What the server routes with: none of it may be reachable from a handler's ctx. */
const INTERNAL = [
  'enterModern',
  'askThrough',
  'abandon',
  'enterLegacy',
  'chained',
  'chainCtx',
  'rewrite',
  'transportNotify',
  'transportSignal',
  'transportClosing',
  'openSession',
  'remember',
  'schemaLimits',
  'request',
  'binding',
  'session',
  'principal',
  'headers',
  'modern',
  'logLevel',
];

/** RequestContext's members, and nothing else. */
const PUBLIC = [
  'signal',
  'requestId',
  'era',
  'protocolVersion',
  'clientCapabilities',
  'clientInfo',
  'meta',
  'auth',
  'inputResponses',
  'userState',
  'progress',
  'notify',
  'log',
  'elicit',
  'sample',
  'listRoots',
];

/** Every property name reachable on `value`, own and inherited (Object.prototype aside). */
function reachableNames(value: object): string[] {
  const names = new Set<string>();
  for (
    let o: object | null = value;
    o !== null && o !== Object.prototype;
    o = Object.getPrototypeOf(o) as object | null
  )
    for (const name of Object.getOwnPropertyNames(o)) names.add(name);
  names.delete('constructor');
  return [...names].sort();
}

async function serve(handler: (ctx: RequestContext) => Promise<string>) {
  const server = createServer({ name: 'ctx', version: '1' });
  server.tool('probe', {}, (_args, ctx) => handler(ctx));
  const [a, b] = createLinkedPair();
  await connect(server, b);
  const notifications: { method: string; params?: unknown }[] = [];
  const peer = new Peer(a, {
    request: () => Promise.resolve({}),
    notification: (n) => void notifications.push(n),
  });
  await peer.start();
  return { peer, notifications };
}

describe("a handler's ctx", () => {
  it('reaches nothing of the server’s routing: no internal name is in ctx, only RequestContext’s members', async () => {
    let found: { internal: string[]; names: string[] } | undefined;
    const { peer } = await serve(async (ctx) => {
      found = { internal: INTERNAL.filter((name) => name in ctx), names: reachableNames(ctx) };
      return 'ok';
    });
    await peer.request('tools/call', { name: 'probe', _meta: META });
    expect(found?.internal).toEqual([]);
    expect(found?.names).toEqual([...PUBLIC].sort());
    await peer.close();
  });

  it('serves every public member: request facts, progress, notify, and the input calls', async () => {
    const seen: Record<string, unknown> = {};
    const { peer, notifications } = await serve(async (ctx) => {
      Object.assign(seen, {
        signal: ctx.signal instanceof AbortSignal,
        requestId: ctx.requestId,
        era: ctx.era,
        protocolVersion: ctx.protocolVersion,
        clientCapabilities: ctx.clientCapabilities,
        meta: ctx.meta.progressToken,
        auth: ctx.auth,
        inputResponses: ctx.inputResponses,
      });
      ctx.progress(1);
      ctx.notify('notifications/acme/ping', { n: 1 });
      ctx.log('info', 'not sent: no level asked');
      const refused = await Promise.all([
        ctx
          .elicit({ mode: 'form', message: 'name?', requestedSchema: { type: 'object', properties: {} } })
          .catch((e: { code?: number }) => e.code),
        ctx.sample({ messages: [], maxTokens: 1 }).catch((e: { code?: number }) => e.code),
        ctx.listRoots().catch((e: { code?: number }) => e.code),
      ]);
      seen.refused = refused;
      seen.kept = keepInRequestState(ctx, 'k', 1);
      return 'ok';
    });
    const progress: unknown[] = [];
    await peer.request(
      'tools/call',
      { name: 'probe', _meta: META },
      { onprogress: (p) => void progress.push(p) },
    );
    expect(seen).toMatchObject({
      signal: true,
      era: 'modern',
      protocolVersion: '2026-07-28',
      clientCapabilities: {},
      meta: expect.anything(), // the progressToken the peer put in _meta
      auth: undefined,
      inputResponses: {},
      // The client declared no elicitation, sampling or roots: -32021 each (basic/patterns/mrtr).
      refused: [-32021, -32021, -32021],
      kept: true,
    });
    expect(typeof seen.requestId === 'number' || typeof seen.requestId === 'string').toBe(true);
    expect(progress).toHaveLength(1);
    expect(notifications.map((n) => n.method)).toContain('notifications/acme/ping');
    await peer.close();
  });

  it('keepInRequestState keeps nothing for a ctx the server did not make', () => {
    expect(keepInRequestState({} as RequestContext, 'k', 1)).toBe(false);
  });
});
