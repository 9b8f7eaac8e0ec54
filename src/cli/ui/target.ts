/**
 * What the inspector connects to, and the transport for it: a spawned stdio command, a
 * Streamable HTTP URL (with the OAuth client of {@link InspectorLogin} unless the person typed
 * an Authorization header), or the built-in everything server.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AuthError } from '../../auth/index.js';
import { streamableHttp } from '../../client/index.js';
import type { Transport } from '../../core/index.js';
import { spawnStdio } from '../../integrations/stdio/index.js';
import type { InspectorLogin } from './login.js';

/**
 * Where to connect: a command to spawn, a Streamable HTTP URL with headers (and, for its
 * OAuth login, a pre-registered client id), or the built-in server.
 */
export type InspectorTarget =
  | { kind: 'stdio'; command: string; args: string[] }
  | { kind: 'http'; url: string; headers: Record<string, string>; clientId?: string }
  | { kind: 'builtin' };

const EVERYTHING_MAIN = new URL('../../../servers/everything/main.js', import.meta.url);

/** Opens the transport to `target`. @throws Error when the built-in server is not built. */
export function openTransport(target: InspectorTarget, login: InspectorLogin | undefined): Transport {
  if (target.kind === 'http') {
    // An Authorization header the person typed wins over a login.
    const typed = Object.keys(target.headers).some((name) => name.toLowerCase() === 'authorization');
    const auth = login && !typed ? login.clientFor(target.url, target.clientId) : undefined;
    return streamableHttp(target.url, { headers: target.headers, ...(auth ? { auth } : {}) });
  }
  const builtin = fileURLToPath(EVERYTHING_MAIN);
  if (target.kind === 'builtin' && !existsSync(builtin))
    throw new Error(`the built-in everything server is missing (${builtin}); run \`npm run build\``);
  const { command, args } = target.kind === 'stdio' ? target : { command: process.execPath, args: [builtin] };
  return spawnStdio({ command, args, env: { ...process.env }, stderr: 'pipe' });
}

/** Whether `error` came from mcpkit/auth (anywhere in its cause chain). */
export function fromAuthorization(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++)
    if (e instanceof AuthError) return true;
  return false;
}
