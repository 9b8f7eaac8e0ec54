/**
 * The flags of `mcpkit serve everything`: `--port`, `--host`, `--auth-issuer`, and
 * `--upstream-issuer URL --upstream-client-id ID --upstream-client-secret-env VAR` (the
 * authorization server façade in front of a provider).
 */
import { CliError } from './errors.js';
import { OFFERED } from './serve-args.js';

/** `mcpkit serve everything` as parsed. */
export interface EverythingServeCommand {
  name: 'serve';
  server: 'everything';
  port?: number;
  host?: string;
  authIssuer?: string;
  upstream?: UpstreamFlags;
}

/**
 * The `serve everything` command of parsed `positionals` and `values`.
 * @throws CliError for another server name, a command after `--`, or flags that need `--port`.
 */
export function everythingServeCommand(
  positionals: readonly string[],
  values: Record<string, unknown>,
  serverArgv: readonly string[],
): EverythingServeCommand {
  if (positionals[0] !== 'everything') {
    throw new CliError(`unknown server \`${positionals[0] ?? ''}\`; \`serve\` offers: ${OFFERED}`);
  }
  if (serverArgv.length > 0) throw new CliError('`serve` takes no command after `--`');
  const command: EverythingServeCommand = { name: 'serve', server: 'everything' };
  if (typeof values.port === 'string') command.port = port(values.port);
  if (typeof values.host === 'string') {
    if (command.port === undefined) throw new CliError('--host needs --port');
    command.host = values.host;
  }
  if (typeof values['auth-issuer'] === 'string') {
    if (command.port === undefined) throw new CliError('--auth-issuer needs --port');
    command.authIssuer = values['auth-issuer'];
  }
  const upstream = upstreamFlags(values, command);
  return upstream ? { ...command, upstream } : command;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new CliError(`--port must be 0 to 65535, not \`${value}\``);
  return n;
}

/** The façade's upstream provider as flags give it (the secret is read from the named variable). */
export interface UpstreamFlags {
  issuer: string;
  clientId: string;
  secretEnv: string;
}

/** The `util.parseArgs` options of the upstream flags. */
export const UPSTREAM_OPTIONS = {
  'upstream-issuer': { type: 'string' },
  'upstream-client-id': { type: 'string' },
  'upstream-client-secret-env': { type: 'string' },
} as const;

/**
 * The upstream flags of `values`, checked with the rest of the serve command (`port`, `authIssuer`).
 * @throws CliError when only some are given, without `--port`, or with `--auth-issuer`.
 */
function upstreamFlags(
  values: Record<string, unknown>,
  command: { port?: number; authIssuer?: string },
): UpstreamFlags | undefined {
  const issuer = values['upstream-issuer'];
  const clientId = values['upstream-client-id'];
  const secretEnv = values['upstream-client-secret-env'];
  if (issuer === undefined && clientId === undefined && secretEnv === undefined) return undefined;
  if (typeof issuer !== 'string' || typeof clientId !== 'string' || typeof secretEnv !== 'string')
    throw new CliError(
      '--upstream-issuer, --upstream-client-id and --upstream-client-secret-env go together',
    );
  if (command.port === undefined) throw new CliError('--upstream-issuer needs --port');
  if (command.authIssuer) throw new CliError('--upstream-issuer and --auth-issuer exclude each other');
  return { issuer, clientId, secretEnv };
}
