/**
 * node:http ⇄ web `Request`/`Response` conversion, so a fetch-style handler serves on
 * `http.createServer`. Bodies stream both ways without buffering; a client that goes
 * away aborts the `Request`'s signal.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

const TOO_LARGE = JSON.stringify({
  jsonrpc: '2.0',
  error: { code: -32600, message: 'Request body too large' },
});

/** A web-standard handler, such as the one `createHttpHandler` returns. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** A node:http request listener. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Default cap on a request body read by the adapter (matches the handler's default). */
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

function toHeaders(req: IncomingMessage): HeadersInit {
  const headers: [string, string][] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (!name.startsWith(':')) headers.push([name, raw[i + 1] ?? '']);
  }
  return headers;
}

/**
 * Builds the web `Request` for a node request whose body was already read (`body`; none
 * for GET/HEAD). The URL's origin comes from the `Host` header (falling back to
 * `localhost`); `signal` is aborted when the client disconnects.
 * @throws TypeError for a request line or header the web platform rejects.
 */
export function toWebRequest(req: IncomingMessage, signal: AbortSignal, body?: Uint8Array): Request {
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
  const method = req.method ?? 'GET';
  const init: RequestInit = { method, headers: toHeaders(req), signal };
  if (body !== undefined && method !== 'GET' && method !== 'HEAD')
    init.body = body as Uint8Array<ArrayBuffer>;
  return new Request(url, init);
}

/**
 * Reads a request body whole. MCP messages are single JSON documents, and reading them in
 * one piece is much cheaper than a web stream. Resolves undefined when the body is larger
 * than `maxBytes` (the caller answers 413) or the client goes away.
 */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = Number(req.headers['content-length']);
  if (declared > maxBytes) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners('data');
        req.resume();
        return resolve(undefined);
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    req.once('error', () => resolve(undefined));
  });
}

function headerRecord(response: Response): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return headers;
}

/** Streams a web body into a node response with backpressure; stops when `signal` aborts. */
export async function pipeBody(
  body: ReadableStream<Uint8Array>,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  const reader = body.getReader();
  const stop = (): void => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await drained(res);
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/** Resolves on the response's next `drain` or its `close`, removing both listeners either way. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes a web `Response` to a node response. An event stream is streamed chunk by chunk
 * (headers flushed first); any other body is read whole and sent in one write with a
 * `Content-Length`, which costs far fewer syscalls for the usual single JSON reply.
 */
export async function writeWebResponse(
  response: Response,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  const headers = headerRecord(response);
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
    if (body) headers['content-length'] = String(body.length);
    res.writeHead(response.status, response.statusText, headers).end(body);
    return;
  }
  res.writeHead(response.status, response.statusText, headers);
  res.flushHeaders();
  await pipeBody(response.body, res, signal).catch(() => undefined);
  if (signal.aborted) await response.body.cancel().catch(() => undefined);
  res.end();
}

/**
 * Adapts a fetch-style handler to node:http. A request the web platform cannot represent
 * gets 400; a handler that throws gets 500 (no details, nothing logged).
 */
export function toNodeListener(handler: FetchHandler, options: { maxBodyBytes?: number } = {}): NodeListener {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return (req, res) => {
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new Error('client disconnected'));
    });
    void respond(handler, req, res, { signal: controller.signal, maxBodyBytes });
  };
}

async function respond(
  handler: FetchHandler,
  req: IncomingMessage,
  res: ServerResponse,
  options: { signal: AbortSignal; maxBodyBytes: number },
): Promise<void> {
  const { signal } = options;
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const body = hasBody ? await readBody(req, options.maxBodyBytes) : undefined;
  if (hasBody && body === undefined) {
    if (!res.destroyed) res.writeHead(413, { 'content-type': 'application/json' }).end(TOO_LARGE);
    return;
  }
  let request: Request;
  try {
    request = toWebRequest(req, signal, body);
  } catch {
    res.writeHead(400).end();
    return;
  }
  let response: Response;
  try {
    response = await handler(request);
  } catch {
    if (!res.headersSent) res.writeHead(500);
    res.end();
    return;
  }
  await writeWebResponse(response, res, signal);
}
