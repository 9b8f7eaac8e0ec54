/**
 * Opens a client on the server a command names, runs one piece of work against it and
 * always closes it again, so a spawned server never outlives the CLI. Failures while
 * starting, connecting or working are rewritten as one-line {@link CliError}s that name
 * the server and, for a server that exited, the tail of its stderr.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createClient, type Client, type EraPreference } from '../client/index.js';
import { ERROR_TABLE, McpError, McpkitError, type Transport } from '../core/index.js';
import { spawnStdio } from '../integrations/stdio/index.js';
import type { ClientFlags, Target } from './args.js';
import { CliError, describeError, systemCodeOf, tailLines } from './errors.js';
import { httpTransport } from './http.js';

/** The compiled everything server, relative to this file in `dist/src/cli/`. */
const EVERYTHING_MAIN = new URL('../../servers/everything/main.js', import.meta.url);
const PACKAGE_JSON = new URL('../../../package.json', import.meta.url);

/** What `use` gets: the connected client and an abort signal tripped by SIGINT/SIGTERM. */
export interface Session {
  client: Client;
  signal: AbortSignal;
}

/** A transport plus what the CLI needs to explain its failures. */
interface Opened {
  transport: Transport;
  label: string;
  stderr: () => string;
}

/** This package's version, from its package.json. */
export function cliVersion(): string {
  try {
    const parsed = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version?: unknown };
    return typeof parsed.version === 'string' ? parsed.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * Connects per `flags`, runs `use`, closes the client whatever happens.
 * @throws CliError describing any failure in one line.
 */
export async function withSession<T>(flags: ClientFlags, use: (session: Session) => Promise<T>): Promise<T> {
  const opened = await open(flags.target);
  const client = createClient({
    name: 'mcpkit-cli',
    version: cliVersion(),
    era: flags.era,
    onWarning: (message) => process.stderr.write(`mcpkit: warning: ${message}\n`),
    ...(flags.timeoutMs === undefined
      ? {}
      : { timeoutMs: flags.timeoutMs, probeTimeoutMs: Math.min(flags.timeoutMs, 5000) }),
  });
  const controller = new AbortController();
  const stop = (): void => {
    controller.abort();
    void opened.transport.close();
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  try {
    await explained(opened, 'connect', () => client.connect(opened.transport));
    return await explained(opened, 'request', () => use({ client, signal: controller.signal }), flags.era);
  } catch (error) {
    throw controller.signal.aborted ? new CliError('interrupted', { cause: error }) : error;
  } finally {
    process.off('SIGINT', stop).off('SIGTERM', stop);
    await client.close().catch(() => undefined);
    await opened.transport.close().catch(() => undefined);
  }
}

async function open(where: Target): Promise<Opened> {
  if (where.kind === 'http') {
    return { transport: await httpTransport(where.url), label: where.url, stderr: () => '' };
  }
  const { command, args } = where.kind === 'stdio' ? where : builtin();
  const transport = spawnStdio({ command, args, env: { ...process.env }, stderr: 'pipe' });
  const label = where.kind === 'stdio' ? `\`${command}\`` : 'the built-in everything server';
  return { transport, label, stderr: () => transport.stderrText() };
}

function builtin(): { command: string; args: string[] } {
  const main = fileURLToPath(EVERYTHING_MAIN);
  if (!existsSync(main)) {
    throw new CliError(`the built-in everything server is missing (${main}); run \`npm run build\``);
  }
  return { command: process.execPath, args: [main] };
}

async function explained<T>(
  opened: Opened,
  phase: 'connect' | 'request',
  work: () => Promise<T>,
  era?: EraPreference,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (era === 'modern' && error instanceof McpError && error.code === ERROR_TABLE.MethodNotFound.code) {
      throw new CliError(`${describeError(error)} (is ${opened.label} a legacy server? try --era auto)`);
    }
    throw explain(error, opened, phase);
  }
}

/** Rewrites a failure as a CliError that says which server and what happened. */
function explain(error: unknown, opened: Opened, phase: 'connect' | 'request'): unknown {
  if (error instanceof CliError) return error;
  if (error instanceof McpkitError && error.code === 'SPAWN_FAILED') {
    return new CliError(`could not start ${opened.label}: ${spawnReason(error)}`, { cause: error });
  }
  if (error instanceof McpkitError && error.code === 'CONNECTION_CLOSED') {
    return new CliError(closedMessage(error, opened, phase), { cause: error });
  }
  if (phase === 'connect') {
    return new CliError(`could not connect to ${opened.label}: ${describeError(error)}`, { cause: error });
  }
  return error;
}

function spawnReason(error: McpkitError): string {
  const code = systemCodeOf(error);
  if (code === 'ENOENT') return 'not found';
  if (code === 'EACCES') return 'permission denied';
  return error.cause instanceof Error ? error.cause.message : error.message;
}

function closedMessage(error: McpkitError, opened: Opened, phase: 'connect' | 'request'): string {
  const when = phase === 'connect' ? 'while connecting' : 'before answering';
  const cause = error.cause instanceof Error ? error.cause.message : error.message;
  const exit = /(exited with code [^;\s]+|was killed by [^;\s]+)/.exec(cause)?.[1];
  if (cause.startsWith('could not reach ')) return cause;
  const what = exit === undefined ? `closed the connection ${when}` : `${exit} ${when}`;
  const tail = tailLines(opened.stderr());
  return `server ${opened.label} ${what}${tail === '' ? '' : `; stderr: ${tail}`}`;
}
