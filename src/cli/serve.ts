/**
 * `mcpkit serve everything`: the reference server on stdio, or on Streamable HTTP with
 * `--port`. HTTP mode prints the endpoint URL to stderr and stops on SIGINT or SIGTERM.
 */
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { serveStdio } from '../integrations/stdio/index.js';
import { createEverythingServer } from '../../servers/everything/server.js';
import { signalled } from './signals.js';

/**
 * Serves until the client goes away (stdio) or a signal arrives (HTTP); `authIssuer` protects it.
 * HTTP and authorization load only when asked for: a host that spawns the stdio server waits
 * for neither node:http nor the JWT libraries.
 */
export async function serveEverything(options: {
  port?: number;
  host?: string;
  authIssuer?: string;
}): Promise<void> {
  const server = createEverythingServer({
    onError: (error, request) => console.error(`[everything] ${request?.method ?? 'message'} failed:`, error),
  });
  if (options.port === undefined) {
    await serveStdio(server);
    return;
  }
  const host = options.host ?? '127.0.0.1';
  const port = options.authIssuer && options.port === 0 ? await freePort(host) : options.port;
  const auth = options.authIssuer
    ? await protect(`http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`, options.authIssuer)
    : undefined;
  const { serve } = await import('../integrations/node/index.js');
  const served = await serve(server, { port, host, ...(auth ? { http: { auth } } : {}) });
  process.stderr.write(`mcpkit: serving everything at ${served.url} (Ctrl-C to stop)\n`);
  await signalled();
  await served.close();
}

/** The guard of `--auth-issuer`: JWT access tokens from `issuer` for exactly `url`. */
async function protect(url: string, issuer: string) {
  const { jwtVerifier, protectedResource } = await import('../auth/index.js');
  return protectedResource({
    resource: url,
    authorizationServers: [issuer],
    verifier: jwtVerifier({ issuer, audience: url }),
  });
}

/** A free TCP port on `host` (the resource URL must be known before listening). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
