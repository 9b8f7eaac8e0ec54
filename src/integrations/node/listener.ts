/**
 * `toNodeListener`: a node:http request listener for a server definition (straight to the
 * endpoint's internal shapes, no web objects per call) or for any web-standard handler
 * (through a web `Request` and `Response`). Both go through the one node request
 * conversion (request.ts) and the one writer (response.ts); the adapters only convert.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_TABLE } from '../../core/index.js';
import { errorResponse } from '../../core/runtime.js';
import type { McpServer } from '../../server/index.js';
import type { HttpHandlerOptions } from '../../server/http/index.js';
import { DEFAULT_MAX_BODY_BYTES, createHttpEndpoint, type HttpEndpoint } from '../../server/http/runtime.js';
import { NodeRequest } from './request.js';
import { fromWebResponse, writeResponse } from './response.js';

/** A web-standard handler, such as the one `createHttpHandler` returns. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** A node:http request listener. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** A node:http listener; `close()` shuts down the endpoint built for it (if any). */
export interface McpNodeListener extends NodeListener {
  /**
   * For a server definition: closes its endpoint (every listen gets its completion result,
   * see `HttpHandler.close`) and resolves once every response it started has been written
   * out, so the host's `http.Server.close()` then finishes. For a web handler: resolves at
   * once (close that handler yourself).
   */
  close(): Promise<void>;
}

/**
 * Adapts `target` to node:http: a server definition (its endpoint is built here, once, with
 * `options`), or a web handler (of `options` only `maxBodyBytes` applies: a larger body gets
 * 413 before the handler runs). A request the web platform cannot represent gets 400; a
 * handler that fails gets 500 (no details, nothing logged). A body a framework's parser
 * already consumed is taken from `req.body`.
 */
export function toNodeListener(
  target: McpServer | FetchHandler,
  options: HttpHandlerOptions = {},
): McpNodeListener {
  if (typeof target === 'function') {
    const listener = webListener(target, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    return Object.assign(listener, { close: () => Promise.resolve() });
  }
  const endpoint = createHttpEndpoint(target, options);
  const writes = new Writes();
  const close = async (): Promise<void> => {
    await endpoint.close();
    await writes.drained();
  };
  return Object.assign(endpointListener(endpoint, writes), { close });
}

/**
 * The responses started and not yet handed to node (a JSON body is handed over by one `end()`;
 * a stream when its last event is written), so `close()` can wait for them. No listener is
 * added per response: `close()` listens, on the ones still here, for their end or their
 * connection's.
 */
class Writes {
  readonly #open = new Set<ServerResponse>();

  start(res: ServerResponse): void {
    this.#open.add(res);
  }

  done(res: ServerResponse): void {
    this.#open.delete(res);
  }

  /** Settles once every response started so far has been written out or lost its connection. */
  drained(): Promise<void> {
    return Promise.all([...this.#open].map(written)).then(() => undefined);
  }
}

/** Settles once `res` has been written out or its connection went away. */
function written(res: ServerResponse): Promise<void> {
  if (res.writableFinished || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    res.once('finish', resolve);
    res.once('close', resolve);
  });
}

function failed(res: ServerResponse): void {
  if (!res.headersSent) res.writeHead(500);
  res.end();
}

function endpointListener(endpoint: HttpEndpoint, writes: Writes): NodeListener {
  return (req, res) => {
    writes.start(res);
    const request = new NodeRequest(req, res);
    endpoint.handle(request).then(
      (response) => {
        request.answered();
        let streaming: Promise<void> | undefined;
        try {
          streaming = writeResponse(response, res, request);
        } catch {
          failed(res);
        }
        if (streaming) void streaming.catch(() => failed(res)).finally(() => writes.done(res));
        else writes.done(res);
      },
      () => {
        failed(res);
        writes.done(res);
      },
    );
  };
}

interface WebTarget {
  readonly handler: FetchHandler;
  readonly maxBodyBytes: number;
}

function webListener(handler: FetchHandler, maxBodyBytes: number): NodeListener {
  const target: WebTarget = { handler, maxBodyBytes };
  return (req, res) => void answerWeb(target, new NodeRequest(req, res), res);
}

const TOO_LARGE = JSON.stringify(
  errorResponse(undefined, { code: ERROR_TABLE.InvalidRequest.code, message: 'Request body too large' }),
);

async function answerWeb(
  { handler, maxBodyBytes }: WebTarget,
  request: NodeRequest,
  res: ServerResponse,
): Promise<void> {
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const body = hasBody ? await request.bytes(maxBodyBytes) : undefined;
  if (hasBody && body === undefined) {
    if (!res.destroyed) res.writeHead(413, { 'content-type': 'application/json' }).end(TOO_LARGE);
    return;
  }
  let web: Request;
  try {
    web = toWebRequest(request, body);
  } catch {
    res.writeHead(400).end();
    return;
  }
  try {
    await writeResponse(await fromWebResponse(await handler(web)), res, request);
  } catch {
    failed(res);
  }
}

/**
 * The web `Request` for a node request whose body was read (`body`; none for GET/HEAD).
 * @throws TypeError for a request line or header the web platform rejects.
 */
function toWebRequest(request: NodeRequest, body: Uint8Array | undefined): Request {
  const headers: [string, string][] = [];
  const raw = request.req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (!name.startsWith(':')) headers.push([name, raw[i + 1] ?? '']);
  }
  const init: RequestInit = { method: request.method, headers, signal: request.signal };
  if (body !== undefined) init.body = body as Uint8Array<ArrayBuffer>;
  return new Request(request.url, init);
}
