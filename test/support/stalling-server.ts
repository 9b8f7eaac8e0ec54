/**
 * A loopback HTTP server that accepts each request and then stalls (or crashes) at a chosen
 * point, for the tests that prove every HTTP exchange of ours is bounded as a whole:
 * - `headers`: reads the request, never answers;
 * - `body`: sends 200 JSON headers (a Content-Length of 200), never the body;
 * - `half`: sends the headers and half a JSON body, then nothing;
 * - `sse`: sends 200 `text/event-stream` headers and one comment, then nothing;
 * - `reset`: sends the headers and half a body, then destroys the socket (a crashed peer).
 * Binds 127.0.0.1 on a random port; `close()` destroys every socket it holds.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where the server stops. */
export type Stall = 'headers' | 'body' | 'half' | 'sse' | 'reset';

/** The stall points that leave the connection open. */
export const STALLS = ['headers', 'body', 'half', 'sse'] as const;

/** A running stalling server. */
export interface StallingServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly base: string;
  /** Requests that reached their stall point (headers written where the mode writes them). */
  readonly stalled: number;
  close(): Promise<void>;
}

/** Does what `stall` says to `res`; `reached` is called once the stall point is reached. */
export function stallOn(stall: Stall, res: ServerResponse, reached: () => void): void {
  if (stall === 'headers') return reached();
  if (stall === 'sse') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    return void res.write(': open\n\n', reached);
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
  if (stall === 'body') {
    res.flushHeaders();
    return reached();
  }
  res.write('{"resource":"http://127.0.0.1/","pad":"', () => {
    if (stall === 'reset') res.socket?.destroy();
    reached();
  });
}

/**
 * Starts a server; each request goes to `route` first, and stalls as `stall` says when
 * `route` returns false (or is not given).
 */
export async function stallingServer(
  stall: Stall,
  route?: (req: IncomingMessage, res: ServerResponse) => boolean,
): Promise<StallingServer> {
  let stalled = 0;
  const server = createServer((req, res) => {
    req.resume();
    if (route?.(req, res)) return;
    stallOn(stall, res, () => stalled++);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    get stalled() {
      return stalled;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
