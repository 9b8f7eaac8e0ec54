/**
 * node:http ⇄ web `Request`/`Response` conversion, so a fetch-style handler serves on
 * `http.createServer`. Bodies stream both ways without buffering; a client that goes
 * away aborts the `Request`'s signal.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** A web-standard handler, such as the one `createHttpHandler` returns. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** A node:http request listener. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (!name.startsWith(':')) headers.append(name, raw[i + 1] ?? '');
  }
  return headers;
}

/**
 * Builds the web `Request` for a node request. The URL's origin comes from the `Host`
 * header (falling back to `localhost`); `signal` is aborted when the client disconnects.
 * @throws TypeError for a request line or header the web platform rejects.
 */
export function toWebRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers: toHeaders(req), signal };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  return new Request(url, init);
}

function writeHead(res: ServerResponse, response: Response): void {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, response.statusText, headers);
  res.flushHeaders();
}

async function pipeBody(
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
      if (!res.write(value))
        await new Promise<void>((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/** Writes a web `Response` to a node response, streaming the body chunk by chunk. */
export async function writeWebResponse(
  response: Response,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  writeHead(res, response);
  if (response.body) await pipeBody(response.body, res, signal).catch(() => undefined);
  if (signal.aborted) await response.body?.cancel().catch(() => undefined);
  res.end();
}

/**
 * Adapts a fetch-style handler to node:http. A request the web platform cannot represent
 * gets 400; a handler that throws gets 500 (no details, nothing logged).
 */
export function toNodeListener(handler: FetchHandler): NodeListener {
  return (req, res) => {
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new Error('client disconnected'));
    });
    void respond(handler, req, res, controller.signal);
  };
}

async function respond(
  handler: FetchHandler,
  req: IncomingMessage,
  res: ServerResponse,
  signal: AbortSignal,
): Promise<void> {
  let request: Request;
  try {
    request = toWebRequest(req, signal);
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
