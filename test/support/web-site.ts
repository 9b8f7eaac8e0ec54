/**
 * A small web site on 127.0.0.1 (port 0) for the fetch server's tests, recording the
 * requests it gets; and a CONNECT proxy in front of it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** One page: status, headers, body; `hang` never answers. */
export interface Route {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  hang?: boolean;
}

/** A running site. */
export interface WebSite {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  readonly routes: Map<string, Route>;
  /** Path and headers of each request, in order. */
  readonly requests: { path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function close(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function track(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return sockets;
}

/** Starts a site serving `routes` (404 for any other path). */
export async function startWebSite(routes: Record<string, Route>): Promise<WebSite> {
  const table = new Map(Object.entries(routes));
  const requests: WebSite['requests'] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push({ path, headers: request.headers });
    const route = table.get(path) ?? { status: 404, body: 'not found' };
    if (route.hang === true) return;
    response.writeHead(route.status ?? 200, route.headers ?? { 'content-type': 'text/html; charset=utf-8' });
    response.end(route.body ?? '');
  });
  const sockets = track(server);
  const port = await listen(server);
  return { origin: `http://127.0.0.1:${port}`, routes: table, requests, close: () => close(server, sockets) };
}

/** A CONNECT proxy on 127.0.0.1 that records each tunnel's target. */
export async function startProxy(): Promise<{ url: string; tunnels: string[]; close(): Promise<void> }> {
  const tunnels: string[] = [];
  const server = createServer((_request, response) => response.writeHead(405).end());
  const sockets = track(server);
  server.on('connect', (request, client: Socket, head: Buffer) => {
    tunnels.push(request.url ?? '');
    const [host, port] = (request.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, tunnels, close: () => close(server, sockets) };
}
