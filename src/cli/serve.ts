/**
 * `mcpkit serve NAME`: a reference server (everything, filesystem, memory,
 * sequential-thinking, time, git, fetch) on stdio, or on Streamable HTTP (both eras) with
 * `--port`. HTTP mode prints the endpoint URL to stderr and stops on SIGINT or SIGTERM.
 * Each server is loaded from its built entry point (dist/servers/NAME/server.js), as
 * `inspect` spawns its built main.js: the CLI uses the reference servers, not their sources.
 */
import { existsSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { serveStdio } from '../integrations/stdio/index.js';
import type { McpServer, ServerOptions } from '../server/index.js';
import { LocalError } from '../core/index.js';
import type { UpstreamFlags } from './serve-upstream.js';
import { CliError } from './errors.js';
import { packagePath } from './package-root.js';
import type { ReferenceServeCommand } from './serve-args.js';
import { signalled } from './signals.js';

/** The everything server's reverse-DNS name on its Server Card (its serverInfo name after the slash). */
const EVERYTHING_CARD_NAME = 'io.github.mcpkit/mcpkit-everything';

/** What the built reference server's entry exports (servers/everything/server.ts). */
interface EverythingEntry {
  createEverythingServer(options: Pick<ServerOptions, 'onError'>): McpServer;
}

/**
 * What the built entry of every other reference server exports (servers/NAME/server.ts):
 * `argv` is the official server's command line, `env` its environment.
 * @throws LocalError `INVALID_ARGUMENT` for bad arguments (its message holds a usage line).
 */
interface ReferenceEntry {
  createReferenceServer(
    argv: readonly string[],
    env: Readonly<Record<string, string | undefined>>,
  ): Promise<McpServer>;
}

/** The everything server's factory, from the package's build. @throws LocalError `NOT_READY` before `npm run build`. */
function loadEverything(): Promise<EverythingEntry> {
  return loadBuilt<EverythingEntry>('everything');
}

/** A reference server's built entry module. @throws LocalError `NOT_READY` when it is not built. */
async function loadBuilt<T>(name: string): Promise<T> {
  const entry = packagePath('dist', 'servers', name, 'server.js');
  if (!existsSync(entry))
    throw new LocalError(
      'NOT_READY',
      `the built-in ${name} server is missing (${entry}); run \`npm run build\``,
    );
  return (await import(pathToFileURL(entry).href)) as T;
}

/**
 * Serves a reference server other than everything until the client goes away (stdio) or a
 * signal arrives (HTTP: both eras, its Server Card named `io.github.mcpkit/mcpkit-NAME`).
 * @throws LocalError `NOT_READY` when the server is not built; `INVALID_ARGUMENT` for bad server arguments.
 */
export async function serveReference(command: ReferenceServeCommand): Promise<void> {
  const { createReferenceServer } = await loadBuilt<ReferenceEntry>(command.server);
  const server = await createReferenceServer(command.serverArgs, process.env).catch((error: unknown) => {
    // A bad server argument is a usage error of this command line (exit code 2).
    if (error instanceof LocalError && error.code === 'INVALID_ARGUMENT') throw new CliError(error.message);
    throw error;
  });
  if (command.port === undefined) {
    await serveStdio(server);
    return;
  }
  const { serve } = await import('../integrations/node/index.js');
  const serverCard = {
    name: `io.github.mcpkit/mcpkit-${command.server}`,
    description: `mcpkit's ${command.server} reference server (a drop-in for the official one)`,
  };
  const host = command.host ?? '127.0.0.1';
  const served = await serve(server, { port: command.port, host, http: { serverCard } });
  process.stderr.write(`mcpkit: serving ${command.server} at ${served.url} (Ctrl-C to stop)\n`);
  await signalled();
  await served.close();
}

/**
 * Serves until the client goes away (stdio) or a signal arrives (HTTP); `authIssuer` protects it.
 * HTTP and authorization load only when asked for: a host that spawns the stdio server waits
 * for neither node:http nor the JWT libraries.
 */
export async function serveEverything(options: {
  port?: number;
  host?: string;
  authIssuer?: string;
  upstream?: UpstreamFlags;
}): Promise<void> {
  const { createEverythingServer } = await loadEverything();
  const server = createEverythingServer({
    onError: (error, request) => console.error(`[everything] ${request?.method ?? 'message'} failed:`, error),
  });
  if (options.port === undefined) {
    await serveStdio(server);
    return;
  }
  const host = options.host ?? '127.0.0.1';
  const guarded = options.authIssuer !== undefined || options.upstream !== undefined;
  const port = guarded && options.port === 0 ? await freePort(host) : options.port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`;
  const auth = options.upstream
    ? await facade(url, options.upstream)
    : options.authIssuer
      ? await protect(url, options.authIssuer)
      : undefined;
  const { serve } = await import('../integrations/node/index.js');
  const serverCard = { name: EVERYTHING_CARD_NAME };
  const served = await serve(server, { port, host, http: { serverCard, ...(auth ? { auth } : {}) } });
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

/**
 * The guard of `--upstream-issuer`: the authorization server façade in front of that provider
 * (GitHub's preset for https://github.com, OpenID discovery otherwise).
 * @throws LocalError `INVALID_ARGUMENT` when the secret's variable is unset or empty.
 */
async function facade(url: string, flags: UpstreamFlags) {
  const { authorizationFacade, githubUpstream, oidcUpstream } = await import('../auth/index.js');
  const clientSecret = process.env[flags.secretEnv];
  if (!clientSecret)
    throw new LocalError('INVALID_ARGUMENT', `--upstream-client-secret-env: $${flags.secretEnv} is not set`);
  const client = { clientId: flags.clientId, clientSecret };
  const upstream =
    new URL(flags.issuer).origin === 'https://github.com'
      ? githubUpstream(client)
      : oidcUpstream({ ...client, issuer: flags.issuer });
  const guard = authorizationFacade({ resource: url, upstream });
  process.stderr.write(`mcpkit: register ${guard.callbackUrl} as the redirect URI at ${flags.issuer}\n`);
  return guard;
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
