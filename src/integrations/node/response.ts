/**
 * The one writer of a node response: the endpoint's answer as it is, or a web `Response`
 * turned into the same shape. A whole body goes out in one write with its length; a stream
 * (SSE) as it comes, with backpressure.
 */
import type { ServerResponse } from 'node:http';
import type { HttpResponse } from '../../server/http/runtime.js';

/** What {@link writeResponse} writes: an endpoint response, or a web one converted. */
export interface NodeResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: string | Uint8Array | ReadableStream<Uint8Array> | null;
}

/**
 * Writes `response`; a stream until it ends or `request.signal` aborts (read only for a
 * stream). Returns a promise only for a stream: the usual JSON reply needs none.
 */
export function writeResponse(
  response: NodeResponse | HttpResponse,
  res: ServerResponse,
  request: { readonly signal: AbortSignal },
): Promise<void> | undefined {
  const { body } = response;
  if (body !== null && typeof body !== 'string' && !(body instanceof Uint8Array))
    return writeStream(response, res, request);
  if (body === null) {
    res.writeHead(response.status, response.headers).end();
    return undefined;
  }
  // Object.assign, not a spread with the new key: the cheaper copy of a per-call object.
  const headers: Record<string, string | string[]> = Object.assign({}, response.headers);
  headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(response.status, headers).end(body);
  return undefined;
}

async function writeStream(
  response: NodeResponse | HttpResponse,
  res: ServerResponse,
  request: { readonly signal: AbortSignal },
): Promise<void> {
  const body = response.body as ReadableStream<Uint8Array>;
  res.writeHead(response.status, response.headers);
  res.flushHeaders();
  await pipeBody(body, res, request.signal).catch(() => undefined); // the client went away mid-stream
  const socket = res.socket;
  // A stream ended by a shutdown: close the connection after the last event instead of
  // ending the response for keep-alive, so no client keeps a socket the server is closing.
  if (socket && stopped(socket)) socket.end();
  else res.end(() => closeIfStopped(socket));
}

/** Whether the node:http server of `socket` has stopped listening (is shutting down). */
function stopped(socket: NonNullable<ServerResponse['socket']>): boolean {
  return (socket as { server?: { listening?: boolean } }).server?.listening === false;
}

/**
 * Ends a keep-alive connection whose stream finished as its server stopped listening:
 * `http.Server.close()` closes only the connections idle when it is called, so it would
 * otherwise stay open until the keep-alive timeout.
 */
function closeIfStopped(socket: ServerResponse['socket']): void {
  if (socket && stopped(socket)) socket.end();
}

/** A web `Response` as a {@link NodeResponse}: an event stream stays a stream, any other body is read whole. */
export async function fromWebResponse(response: Response): Promise<NodeResponse> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const stream = response.headers.get('content-type')?.startsWith('text/event-stream') === true;
  const body =
    response.body === null || stream ? response.body : new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers, body };
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
