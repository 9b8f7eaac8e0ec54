/**
 * A fetch that sends the `Host` header it is given. The platform fetch cannot: `Host` is
 * set from the URL. The DNS-rebinding probe needs a request that reaches a loopback server
 * while naming a foreign host, as a browser does once an attacker's name resolves to
 * 127.0.0.1. Only plain `http:` URLs (loopback servers); the body is buffered (probes are small).
 */
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import type { FetchLike } from './http-channel.js';

/** Sends `request` over node:http with its headers as given, `Host` included. */
export const hostFetch: FetchLike = async (request) => {
  const url = new URL(request.url);
  if (url.protocol !== 'http:')
    throw new TypeError(`the Host probe speaks plain http only, not ${url.protocol}`);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  if (body) headers['content-length'] = String(body.byteLength);
  return new Promise<Response>((resolve, reject) => {
    const outgoing = httpRequest(
      {
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || 80,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers,
        signal: request.signal,
      },
      (incoming) => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(incoming.headers))
          if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : value);
        const status = incoming.statusCode ?? 502;
        const stream =
          status === 204 || status === 304 ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
        resolve(new Response(stream, { status, headers: answer }));
      },
    );
    outgoing.once('error', reject);
    outgoing.end(body);
  });
};
