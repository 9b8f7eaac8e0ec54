/**
 * Sends a request built for the in-memory HTTP handler to a listening URL instead (fetch
 * sets `Host` itself). Used by the framework adapter tests.
 */
export function sendTo(request: Request, url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(
    new Request(url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      duplex: 'half',
      ...init,
    } as RequestInit),
  );
}

/** The base URL of a node server listening on an ephemeral port. */
export function baseUrl(address: unknown): string {
  const port = (address as { port?: number } | null)?.port;
  if (typeof port !== 'number') throw new Error('server is not listening on a TCP port');
  return `http://127.0.0.1:${port}`;
}
