/**
 * Test support for the everything server: serves it on the in-memory linked pair and
 * drives it with a raw core {@link Peer}, validating every frame in both directions
 * against the official schema of the revision under test.
 */
import { Peer, type RequestOptions } from '../../src/core/peer.js';
import type { JsonRpcNotification, JsonRpcRequest, Params } from '../../src/core/jsonrpc.js';
import type { Transport } from '../../src/core/transport.js';
import { connect, type McpServer } from '../../src/server/index.js';
import { createLinkedPair, wireValidator, type WireRevision } from '../../src/testing/index.js';

/** One frame seen by the client: `out` was sent by the client, `in` received from the server. */
export interface Frame {
  direction: 'in' | 'out';
  message: Record<string, unknown>;
}

/** A raw client connected to a server, with everything it saw. */
export interface Harness {
  readonly peer: Peer;
  readonly frames: Frame[];
  /** Schema violations, one string per invalid frame (expected to stay empty). */
  readonly violations: string[];
  readonly notifications: JsonRpcNotification[];
  /** Server-to-client requests the client answered. */
  readonly requests: JsonRpcRequest[];
  close(): Promise<void>;
}

/** Answers server-to-client requests (sampling, elicitation, roots). */
export type ClientAnswers = (request: JsonRpcRequest) => Params;

/** Wraps a transport so every frame in and out is seen first. */
function tap(transport: Transport, see: (frame: Frame) => void): Transport {
  return {
    start: (sink) =>
      transport.start({
        frame: (text) => {
          see({ direction: 'in', message: JSON.parse(text) as Record<string, unknown> });
          sink.frame(text);
        },
        closed: (error) => sink.closed(error),
      }),
    send: (message, options) => {
      see({ direction: 'out', message: JSON.parse(JSON.stringify(message)) as Record<string, unknown> });
      transport.send(message, options);
    },
    close: () => transport.close(),
  };
}

/** Connects `server` to a raw client over the linked pair. */
export async function openHarness(
  server: McpServer,
  revision: WireRevision,
  answer: ClientAnswers = () => ({}),
): Promise<Harness> {
  const [serverEnd, clientEnd] = createLinkedPair();
  const validate = wireValidator(revision);
  const frames: Frame[] = [];
  const violations: string[] = [];
  const notifications: JsonRpcNotification[] = [];
  const requests: JsonRpcRequest[] = [];
  const see = (frame: Frame): void => {
    frames.push(frame);
    const errors = validate(frame.message);
    if (errors.length > 0)
      violations.push(`${frame.direction} ${JSON.stringify(frame.message)}: ${errors.join('; ')}`);
  };
  await connect(server, serverEnd);
  const peer = new Peer(tap(clientEnd, see), {
    request: async (request) => {
      requests.push(request);
      return answer(request);
    },
    notification: (n) => notifications.push(n),
  });
  await peer.start();
  return { peer, frames, violations, notifications, requests, close: () => peer.close() };
}

/** The `_meta` of a modern request declaring `capabilities`. */
function modernMeta(capabilities: Record<string, unknown> = {}, extra: Params = {}): Params {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    ...extra,
  };
}

/** Sends a modern request: `params` plus the required `_meta`. */
export function modernRequest(
  h: Harness,
  method: string,
  params: Params = {},
  options: RequestOptions & { capabilities?: Record<string, unknown>; meta?: Params } = {},
): Promise<Params> {
  const { capabilities, meta, ...requestOptions } = options;
  return h.peer.request(method, { ...params, _meta: modernMeta(capabilities, meta) }, requestOptions);
}

/** Resolves with the error a request was answered with (fails when it succeeded). */
export async function errorOf(promise: Promise<unknown>): Promise<{ code: number; data: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; data: unknown };
  }
  throw new Error('expected the request to fail');
}

/** The only content item of a tool result. */
export function onlyContent(result: Params): Record<string, unknown> {
  const content = result.content as Record<string, unknown>[];
  if (content.length !== 1) throw new Error(`expected one content item, got ${JSON.stringify(content)}`);
  return content[0]!;
}

/** What the test client declares on the legacy wire. */
const LEGACY_CAPABILITIES = { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } };

const KNOWN: Record<string, string> = { name: 'Alice', username: 'alice', email: 'alice@example.com' };

interface Property {
  type?: string;
  default?: unknown;
  enum?: unknown[];
  oneOf?: { const?: unknown }[];
  anyOf?: { const?: unknown }[];
  items?: Property;
}

/** Form content that satisfies `schema`: defaults, first choices, Alice's details, `true`, `1`. */
function contentFor(schema: unknown): Params {
  const properties = (schema as { properties?: Record<string, Property> } | undefined)?.properties ?? {};
  return Object.fromEntries(Object.entries(properties).map(([key, p]) => [key, valueFor(key, p)]));
}

function valueFor(key: string, p: Property): unknown {
  const choice = p.enum?.[0] ?? (p.oneOf ?? p.anyOf)?.[0]?.const;
  if (p.default !== undefined) return p.default;
  if (choice !== undefined) return choice;
  if (p.type === 'array') return p.items ? [valueFor(key, p.items)] : [];
  if (p.type === 'boolean') return true;
  if (p.type === 'number' || p.type === 'integer') return 1;
  return KNOWN[key] ?? `some ${key}`;
}

/** The test client's answers to sampling, elicitation and roots. */
function answerClientRequest(request: { method: string; params?: Params | undefined }): Params {
  switch (request.method) {
    case 'sampling/createMessage':
      return {
        role: 'assistant',
        content: { type: 'text', text: 'Paris' },
        model: 'test-model',
        stopReason: 'endTurn',
      };
    case 'elicitation/create':
      return { action: 'accept', content: contentFor(request.params?.requestedSchema) };
    case 'roots/list':
      return { roots: [{ uri: 'file:///home/alice', name: 'home' }] };
    default:
      return {};
  }
}

/** Opens a 2025-11-25 session: `initialize` then `notifications/initialized`. */
export async function openLegacy(
  server: McpServer,
  capabilities: Record<string, unknown> = LEGACY_CAPABILITIES,
): Promise<Harness & { initialized: Params }> {
  const h = await openHarness(server, '2025-11-25', answerClientRequest);
  const initialized = await h.peer.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities,
    clientInfo: { name: 'everything-test', version: '1.0.0' },
  });
  h.peer.notify('notifications/initialized');
  return { ...h, initialized };
}
