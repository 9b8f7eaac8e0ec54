/**
 * The replay on Streamable HTTP (loopback): a POST of a request is answered with JSON, or
 * with an SSE stream when the recording has notifications or server requests before the
 * answer; a POST of the client's answers or notifications gets 202. `initialize` gets a
 * fresh `Mcp-Session-Id`. Host and Origin must name this listener (DNS rebinding).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WireError } from '../../core/index.js';
import { CliError } from '../errors.js';
import type { Front } from '../host-args.js';
import { parseBoundedJson } from '../json-file.js';
import { type ReplayBook, type Step } from './book.js';
import { Asks, frameOf, play } from './play.js';

/** Largest request body, in bytes. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A running HTTP replay. */
export interface ServedReplay {
  url: string;
  close(): Promise<void>;
}

/** Listens on `front` (default 127.0.0.1, a random port) and answers from `book`. */
export async function serveReplayHttp(book: ReplayBook, front: Front): Promise<ServedReplay> {
  const asks = new Asks();
  const sessions = new Sessions();
  const host = front.host ?? '127.0.0.1';
  let self = '';
  const server = createServer((req, res) => {
    const refused = refusal(req, self);
    if (refused) return void res.writeHead(403, { 'content-type': 'text/plain' }).end(refused);
    if (new URL(req.url ?? '/', 'http://replay').pathname !== '/mcp')
      return void res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end('Not found: the replay serves /mcp');
    if (req.method === 'DELETE') return void res.writeHead(204).end();
    if (req.method === 'GET' && sessions.open(req, res)) return;
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
    if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? ''))
      return void res
        .writeHead(415, { 'content-type': 'text/plain' })
        .end('Unsupported Media Type: a POST body must be application/json');
    readBody(req).then(
      (body) => answer(body, { req, res }, { book, asks, sessions }),
      (error: unknown) =>
        void res.writeHead(413, { 'content-type': 'text/plain' }).end((error as Error).message),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(new CliError(`cannot listen on ${host}: ${error.message}`, { kind: 'connection' })),
    );
    server.listen(front.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  self = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: `http://${self}/mcp`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function refusal(req: IncomingMessage, self: string): string | undefined {
  const port = self.slice(self.lastIndexOf(':'));
  const allowed = new Set([self, `localhost${port}`, `127.0.0.1${port}`]);
  if (!allowed.has(req.headers.host ?? '')) return 'Host not allowed';
  const origin = req.headers.origin;
  if (origin !== undefined && ![...allowed].some((h) => origin === `http://${h}`))
    return 'Origin not allowed';
  return undefined;
}

/** What {@link answer} answers with. */
interface Answering {
  book: ReplayBook;
  asks: Asks;
  sessions: Sessions;
}

function answer(body: string, http: { req: IncomingMessage; res: ServerResponse }, on: Answering): void {
  const { res } = http;
  let parsed: unknown;
  try {
    parsed = parseBoundedJson(body);
  } catch (error) {
    const refusal = WireError.of('ParseError', `replay: the body is ${(error as Error).message}`);
    return void res
      .writeHead(400, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', error: refusal.toJSON() }));
  }
  const frame = frameOf(parsed, on.asks);
  const request = frame.requests[0];
  if (!request && frame.refusals.length > 0) {
    const body = Array.isArray(parsed) ? frame.refusals : frame.refusals[0];
    return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
  if (!request) return void res.writeHead(202).end();
  const all = on.book.answer(request);
  const steps = all.filter((step) => step.kind !== 'after');
  const session = request.method === 'initialize' ? randomUUID() : header(http.req, 'mcp-session-id');
  const after = (): void =>
    on.sessions.deliver(
      session,
      all.filter((step) => step.kind === 'after'),
    );
  const headers: Record<string, string> =
    request.method === 'initialize' ? { 'mcp-session-id': session ?? '' } : {};
  if (steps.length === 1 && steps[0]?.kind === 'reply') {
    res
      .writeHead(200, { ...headers, 'content-type': 'application/json' })
      .end(JSON.stringify(steps[0].message));
    return after();
  }
  res.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  const send = (message: Record<string, unknown>): void =>
    void res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  // A listen stream with no recorded answer stays open until the client closes it.
  const answered = steps.some((step) => step.kind === 'reply');
  void play(steps, send, on.asks).finally(() => {
    if (!answered) return;
    res.end();
    after();
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Legacy sessions' GET streams: the notifications a recording has outside any request are
 * written there, or kept until the client opens one.
 */
class Sessions {
  readonly #streams = new Map<string, { stream?: ServerResponse; queue: Record<string, unknown>[] }>();

  /** Opens the GET stream of a known session; false when `req` names none. */
  open(req: IncomingMessage, res: ServerResponse): boolean {
    const id = header(req, 'mcp-session-id');
    const session = id === undefined ? undefined : this.#streams.get(id);
    if (!session) return false;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    session.stream = res;
    res.once('close', () => {
      if (session.stream === res) delete session.stream;
    });
    for (const message of session.queue.splice(0)) write(res, message);
    return true;
  }

  /** Sends `steps` on the session's GET stream, or keeps them for it. */
  deliver(id: string | undefined, steps: readonly Step[]): void {
    if (id === undefined) return;
    const session = this.#streams.get(id) ?? { queue: [] };
    this.#streams.set(id, session);
    for (const { message } of steps) {
      if (session.stream) write(session.stream, message);
      else session.queue.push(message);
    }
  }
}

function write(res: ServerResponse, message: Record<string, unknown>): void {
  res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`request body over ${MAX_BODY_BYTES} bytes`));
        req.resume();
      } else chunks.push(chunk);
    });
    req.once('error', reject);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
