/**
 * A running server under test and the clients the load generator opens on it, one per
 * mode: stdio or HTTP, modern (stateless, `_meta` on every request) or legacy
 * (`initialize` first; over HTTP a session id on every request, DELETE at the end).
 */
import { HttpPeer } from './http-peer.js';
import {
  INITIALIZE,
  INITIALIZED,
  LEGACY,
  modern,
  modernHeaders,
  type Call,
  type Era,
  type Reply,
} from './protocol.js';
import {
  readyUrl,
  spawnServer,
  stopServer,
  type Impl,
  type ServerProcess,
  type SpawnOptions,
} from './servers.js';
import { StdioPeer } from './stdio-peer.js';

/** Which wire and era a figure is measured on. */
export interface Mode {
  wire: 'stdio' | 'http';
  era: Era;
}

/** `stdio modern`, `http legacy`, … */
export function modeName(mode: Mode): string {
  return `${mode.wire === 'http' ? 'HTTP' : 'stdio'} ${mode.era}`;
}

/** A started server process; `url` is set for HTTP. */
export interface Running {
  impl: Impl;
  wire: 'stdio' | 'http';
  child: ServerProcess;
  pid: number;
  url?: string;
}

/** Sends requests in one mode and resolves with each reply. */
export interface Client {
  call(call: Call): Promise<Reply>;
  close(): Promise<void>;
}

/** Starts `impl` on `wire`; for HTTP, resolves once it announced its URL. */
export async function start(
  impl: Impl,
  wire: 'stdio' | 'http',
  options: SpawnOptions = {},
): Promise<Running> {
  const child = spawnServer(impl, wire, options);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start ${impl}`);
  if (wire === 'stdio') return { impl, wire, child, pid };
  return { impl, wire, child, pid, url: await readyUrl(child) };
}

/** Stops a server started by {@link start}. */
export function stop(running: Running): Promise<void> {
  return stopServer(running.child);
}

/**
 * Opens a client in `era` on `running` (stdio: the one connection, so open one client per
 * process). `maxSockets` bounds HTTP connections. @throws when the handshake fails.
 */
export async function connect(running: Running, era: Era, maxSockets = 64): Promise<Client> {
  if (running.wire === 'stdio') return stdioClient(new StdioPeer(running.child), era);
  const peer = new HttpPeer(running.url ?? '', maxSockets);
  return era === 'modern' ? httpModern(peer) : httpLegacy(peer);
}

async function stdioClient(peer: StdioPeer, era: Era): Promise<Client> {
  if (era === 'legacy') {
    checked(await peer.request(INITIALIZE));
    peer.send(INITIALIZED);
  }
  const wrap = era === 'modern' ? modern : (c: Call): Call => c;
  return { call: (c) => peer.request(wrap(c)), close: async () => undefined };
}

let nextId = 1;

function replyTo(id: number, messages: Reply[], status: number): Reply {
  const reply = messages.find((m) => m.id === id);
  if (!reply) throw new Error(`HTTP ${status}: no reply to request ${id}`);
  return reply;
}

function httpModern(peer: HttpPeer): Client {
  return {
    async call(c) {
      const id = nextId++;
      const { status, messages } = await peer.post({ jsonrpc: '2.0', id, ...modern(c) }, modernHeaders(c));
      return replyTo(id, messages, status);
    },
    close: async () => peer.close(),
  };
}

/**
 * Opens a legacy session over `peer` (`initialize`, then `notifications/initialized`);
 * resolves with the headers its later requests carry. @throws when no session id comes back.
 */
export async function legacySession(peer: HttpPeer): Promise<Record<string, string>> {
  const init = await peer.post({ jsonrpc: '2.0', id: nextId++, ...INITIALIZE }, {});
  const session = init.headers['mcp-session-id'];
  if (typeof session !== 'string') throw new Error(`initialize: HTTP ${init.status}, no Mcp-Session-Id`);
  const headers = { 'mcp-protocol-version': LEGACY, 'mcp-session-id': session };
  const ack = await peer.post(INITIALIZED, headers);
  if (ack.status !== 202 && ack.status !== 200) throw new Error(`initialized: HTTP ${ack.status}`);
  return headers;
}

async function httpLegacy(peer: HttpPeer): Promise<Client> {
  const headers = await legacySession(peer);
  return {
    async call(c) {
      const id = nextId++;
      const { status, messages } = await peer.post({ jsonrpc: '2.0', id, ...c }, headers);
      return replyTo(id, messages, status);
    },
    async close() {
      await peer.exchange('DELETE', undefined, headers);
      peer.close();
    },
  };
}

/** `reply` unless it is an error. @throws Error carrying the JSON-RPC error. */
export function checked(reply: Reply): Reply {
  if (reply.error) throw new Error(`JSON-RPC error ${reply.error.code}: ${reply.error.message}`);
  return reply;
}
