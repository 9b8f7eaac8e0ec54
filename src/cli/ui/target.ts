/**
 * What the inspector connects to, and the transport for it: a spawned stdio command, a
 * Streamable HTTP URL (with the OAuth client of {@link InspectorLogin} unless the person typed
 * an Authorization header), or the built-in everything server.
 */
import { existsSync } from 'node:fs';
import { streamableHttp } from '../../client/index.js';
import type { Transport } from '../../core/index.js';
import { spawnStdio } from '../../integrations/stdio/index.js';
import { tokenAuth } from '../auth-flow.js';
import { packagePath } from '../package-root.js';
import type { InspectorLogin } from './login.js';

/**
 * Where to connect: a command to spawn, a Streamable HTTP URL with headers (and, for its
 * OAuth login, a pre-registered client id), or the built-in server.
 */
export type InspectorTarget =
  | { kind: 'stdio'; command: string; args: string[]; env?: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: string; headers: Record<string, string>; clientId?: string }
  | { kind: 'builtin' };

/** How HTTP targets are authorized: the OAuth login, and a bearer token (`--token`) for one URL. */
export interface TargetAuth {
  login?: InspectorLogin | undefined;
  bearer?: { url: string; token: string } | undefined;
}

/** What watches the transport: the fetch of an HTTP one, the skipped stdout lines of a stdio one. */
export interface TransportWatch {
  fetch?: typeof fetch;
  onNonProtocolLine?: (line: string) => void;
}

/**
 * Opens the transport to `target`. An Authorization header the person typed wins, then the
 * `--token` of that very URL, then the OAuth login.
 * @throws Error when the built-in server is not built.
 */
export function openTransport(
  target: InspectorTarget,
  auth: TargetAuth = {},
  watch: TransportWatch = {},
): Transport {
  const { onNonProtocolLine } = watch;
  if (target.kind === 'http') {
    const typed = Object.keys(target.headers).some((name) => name.toLowerCase() === 'authorization');
    const fixed = auth.bearer?.url === target.url ? tokenAuth(auth.bearer.token) : undefined;
    const chosen = typed ? undefined : (fixed ?? auth.login?.authFor(target.url, target.clientId));
    return streamableHttp(target.url, {
      headers: target.headers,
      ...(chosen ? { auth: chosen } : {}),
      ...(watch.fetch ? { fetch: watch.fetch } : {}),
    });
  }
  const builtin = packagePath('dist', 'servers', 'everything', 'main.js');
  if (target.kind === 'builtin' && !existsSync(builtin))
    throw new Error(`the built-in everything server is missing (${builtin}); run \`npm run build\``);
  const { command, args } = target.kind === 'stdio' ? target : { command: process.execPath, args: [builtin] };
  const own = target.kind === 'stdio' ? target : undefined;
  return spawnStdio({
    command,
    args,
    env: { ...process.env, ...own?.env },
    ...(own?.cwd === undefined ? {} : { cwd: own.cwd }),
    stderr: 'pipe',
    ...(onNonProtocolLine ? { onNonProtocolLine } : {}),
  });
}
