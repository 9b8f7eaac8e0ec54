/**
 * The flags of `mcpkit serve everything --upstream-issuer URL --upstream-client-id ID
 * --upstream-client-secret-env VAR`: the authorization server façade in front of a provider.
 */
import { CliError } from './errors.js';

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
export function upstreamFlags(
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
