/**
 * Test harness for the client: a hand-written fake server (a core Peer) over the in-memory
 * linked pair, with every message the client sends checked against the official schema of
 * the revision in use. Shared by the tests;
 * its own checks are in the `.test.ts` file beside it.
 */
import { afterEach, expect } from 'vitest';
import { WireError } from '../../src/core/errors.js';
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, Params } from '../../src/core/jsonrpc.js';
import { Peer, type IncomingContext } from '../../src/core/peer.js';
import { META } from '../../src/core/revisions.js';
import type { Transport } from '../../src/core/transport.js';
import { createLinkedPair } from '../../src/testing/linked-pair.js';
import { assertWireValid, officialSchemaAjv, type WireRevision } from '../../src/testing/wire-schema.js';
import { createClient, type Client, type ClientOptions } from '../../src/client/index.js';

/** Answers one method of the fake server: return a result, throw an WireError. */
export type FakeHandler = (params: Params, context: IncomingContext) => Params | Promise<Params>;

/** A connected fake server and what it saw. */
export interface Fake {
  client: Client;
  server: Peer;
  /** Requests the server received, in order. */
  received: JsonRpcRequest[];
  /** Notifications the server received, in order. */
  notifications: JsonRpcNotification[];
  /** Every message the client sent. */
  sent: JsonRpcMessage[];
}

const defs = new Map<string, (message: unknown) => boolean>();

function checkDef(revision: WireRevision, def: string, message: unknown): void {
  const key = `${revision}#${def}`;
  let validate = defs.get(key);
  if (!validate) {
    const compiled = officialSchemaAjv(revision).compile({ $ref: `mcp#/$defs/${def}` });
    validate = (m) => compiled(m);
    defs.set(key, validate);
  }
  if (!validate(message)) throw new Error(`not a valid ${revision} ${def}: ${JSON.stringify(message)}`);
}

/**
 * Checks one client message: a modern probe or request (it carries the modern protocol
 * version in `_meta`) against 2026-07-28, the legacy handshake against 2025-11-25, anything
 * else against `revision`.
 * @throws Error naming the definition the message breaks.
 */
export function checkClientMessage(message: JsonRpcMessage, revision: WireRevision): void {
  const meta = ('params' in message ? message.params?._meta : undefined) as Params | undefined;
  const handshake = 'method' in message && message.method.includes('initialize');
  const fallback: WireRevision = handshake ? '2025-11-25' : revision;
  const rev: WireRevision = meta?.[META.protocolVersion] === undefined ? fallback : '2026-07-28';
  assertWireValid(message, rev);
  if ('method' in message) checkDef(rev, 'id' in message ? 'ClientRequest' : 'ClientNotification', message);
  else if ('result' in message) checkDef(rev, 'ClientResult', message.result);
}

function tap(transport: Transport, sent: JsonRpcMessage[], revision: WireRevision): Transport {
  return {
    start: (sink) => transport.start(sink),
    close: () => transport.close(),
    send: (message, options) => {
      for (const m of Array.isArray(message) ? message : [message]) {
        try {
          checkClientMessage(m, revision);
        } catch (error) {
          violations.push(String(error));
        }
        sent.push(m);
      }
      transport.send(message, options);
    },
  };
}

const open: Client[] = [];
const violations: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  expect(violations.splice(0), 'client messages that break the official schema').toEqual([]);
});

/** Starts a fake server answering `methods` (others: -32601) and returns it unconnected. */
export async function startFake(
  methods: Record<string, FakeHandler>,
  options: Partial<ClientOptions> = {},
  revision: WireRevision = '2026-07-28',
): Promise<Fake & { transport: Transport }> {
  const [clientEnd, serverEnd] = createLinkedPair();
  const fake = { received: [], notifications: [], sent: [] } as unknown as Fake & { transport: Transport };
  fake.server = new Peer(serverEnd, {
    request: async (request, context) => {
      fake.received.push(request);
      const handler = methods[request.method];
      if (!handler) throw WireError.of('MethodNotFound', `Method not found: ${request.method}`);
      return handler(request.params ?? {}, context);
    },
    notification: (n) => void fake.notifications.push(n),
  });
  await fake.server.start();
  fake.client = createClient({ name: 'test-client', version: '1.0.0', ...options });
  open.push(fake.client);
  fake.transport = tap(clientEnd, fake.sent, revision);
  return fake;
}

/** Starts a fake server and connects a client to it. */
export async function connectFake(
  methods: Record<string, FakeHandler>,
  options: Partial<ClientOptions> = {},
  revision: WireRevision = '2026-07-28',
): Promise<Fake> {
  const fake = await startFake(methods, options, revision);
  await fake.client.connect(fake.transport);
  return fake;
}

/** A modern `server/discover` answer. */
export function discoverResult(extra: Params = {}): Params {
  return {
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities: { tools: {} },
    ttlMs: 0,
    cacheScope: 'public',
    _meta: { [META.serverInfo]: { name: 'fake', version: '0.0.1' } },
    ...extra,
  };
}

/** A modern server: discover plus `methods`. */
export function modern(methods: Record<string, FakeHandler> = {}): Record<string, FakeHandler> {
  return { 'server/discover': () => discoverResult(), ...methods };
}

/** A legacy server: `initialize` (answering `version`) plus `methods`; discover is unknown. */
export function legacy(
  methods: Record<string, FakeHandler> = {},
  version = '2025-11-25',
): Record<string, FakeHandler> {
  return {
    initialize: () => ({
      protocolVersion: version,
      capabilities: { tools: {}, logging: {} },
      serverInfo: { name: 'old', version: '0.1.0' },
    }),
    ...methods,
  };
}

export { until } from './wait.js';
