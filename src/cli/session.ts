/**
 * Opens a client on the server a command names, runs one piece of work against it and
 * always closes it again, so a spawned server never outlives the CLI. Failures while
 * starting, connecting or working are rewritten as one-line {@link CliError}s that name
 * the server and, for a server that exited, the tail of its stderr.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createClient, type Client, type ClientHandlers, type EraPreference } from '../client/index.js';
import { ERROR_TABLE, WireError, LocalError, type Transport } from '../core/index.js';
import { spawnStdio } from '../integrations/stdio/index.js';
import type { ClientFlags, ElicitAnswer } from './args.js';
import { CliError, describeError, systemCodeOf, tailLines } from './errors.js';
import { httpTransport } from './http.js';
import { browserAuth, tokenAuth } from './auth-flow.js';
import { packagePath } from './package-root.js';
import { askOnTerminal, atTerminal } from './ask.js';

/**
 * `setTimeout`'s longest delay (2^31 − 1 ms, about 24.8 days); Node fires a longer one after
 * 1 ms. `--connect-timeout` takes any safe integer, so a longer one waits this long.
 */
const MAX_DELAY_MS = 2_147_483_647;

/** Default longest wait for a connection, in milliseconds (probe and handshake included). */
const CONNECT_TIMEOUT_MS = 15_000;
/** After this long without a connection, a terminal is told what the CLI is waiting for. */
const WAITING_NOTICE_MS = 1000;
/** How long a spawned server gets at each shutdown step (stdin closed, SIGTERM). */
const SHUTDOWN_STEP_MS = 1000;

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
    const parsed = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version?: unknown };
    return typeof parsed.version === 'string' ? parsed.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * Connects per `flags`, runs `use`, closes the client whatever happens.
 * @throws CliError describing any failure in one line.
 */
export async function withSession<T>(
  flags: ClientFlags,
  use: (session: Session) => Promise<T>,
  options: SessionOptions = {},
): Promise<T> {
  const opened = await open(flags);
  const elicitation = elicitationHandler(flags, opened.label, options.ask === true);
  const connectMs =
    flags.connectTimeoutMs ?? Math.min(flags.timeoutMs ?? CONNECT_TIMEOUT_MS, CONNECT_TIMEOUT_MS);
  const client = createClient({
    name: 'mcpkit-cli',
    version: cliVersion(),
    era: flags.era,
    onWarning: (message) => process.stderr.write(`mcpkit: warning: ${message}\n`),
    // The probe gets at most half the connect time, so the handshake has the rest.
    probeTimeoutMs: Math.min(5000, Math.ceil(connectMs / 2)),
    ...(flags.timeoutMs === undefined ? {} : { timeoutMs: flags.timeoutMs }),
    ...(elicitation ? { handlers: { elicitation } } : {}),
  });
  const controller = new AbortController();
  const stop = (): void => {
    controller.abort();
    void opened.transport.close();
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  try {
    await explained(opened, { phase: 'connect', era: flags.era }, () =>
      connectWithin(client, opened, connectMs),
    );
    return await explained(opened, { phase: 'request', era: flags.era }, () =>
      use({ client, signal: controller.signal }),
    );
  } catch (error) {
    throw controller.signal.aborted
      ? new CliError('interrupted', { cause: error, kind: 'interrupted' })
      : error;
  } finally {
    process.off('SIGINT', stop).off('SIGTERM', stop);
    await client.close().catch(() => undefined);
    await opened.transport.close().catch(() => undefined);
  }
}

/** How a command uses its session. */
export interface SessionOptions {
  /**
   * Ask the user for what the server elicits when stdin and stdout are terminals and no
   * `--answer` was given (`call`, `read`, `prompt`); see ask.ts.
   */
  ask?: boolean;
}

/** `--answer`s when given; else, for a command that may ask, the terminal when someone is there. */
function elicitationHandler(
  flags: ClientFlags,
  label: string,
  ask: boolean,
): ClientHandlers['elicitation'] | undefined {
  if (flags.answers !== undefined) return answering(flags.answers);
  return ask && atTerminal() ? askOnTerminal(label) : undefined;
}

/**
 * Answers each elicitation with the next `--answer`, saying on stderr what was asked;
 * once they are used up, declines (and says so).
 */
function answering(answers: readonly ElicitAnswer[]): NonNullable<ClientHandlers['elicitation']> {
  let next = 0;
  return (params) => {
    const answer = answers[next++];
    const asked = JSON.stringify(params.message);
    process.stderr.write(
      answer
        ? `mcpkit: elicitation ${asked}: ${answer.action}${answer.content ? ` ${JSON.stringify(answer.content)}` : ''}\n`
        : `mcpkit: elicitation ${asked}: no --answer left; declined\n`,
    );
    return Promise.resolve(answer ?? { action: 'decline' });
  };
}

/**
 * `client.connect` bounded by `ms` in all (spawn, probe, handshake); on a terminal, a
 * line after {@link WAITING_NOTICE_MS} says what the CLI is waiting for.
 * @throws CliError `connection` when the time runs out; the connect error otherwise.
 */
async function connectWithin(client: Client, opened: Opened, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(connectTimeout(opened, ms)), Math.min(ms, MAX_DELAY_MS));
  });
  const notice = process.stderr.isTTY
    ? setTimeout(
        () => process.stderr.write(`mcpkit: waiting for server ${opened.label}…\n`),
        WAITING_NOTICE_MS,
      )
    : undefined;
  const connecting = client.connect(opened.transport);
  connecting.catch(() => undefined);
  try {
    await Promise.race([connecting, expired]);
  } finally {
    clearTimeout(timer);
    clearTimeout(notice);
  }
}

function connectTimeout(opened: Opened, ms: number): CliError {
  const tail = tailLines(opened.stderr());
  const message =
    `no answer from ${opened.label} within ${ms / 1000} s while connecting ` +
    `(is it an MCP server? --connect-timeout MS waits longer)${tail === '' ? '' : `; stderr: ${tail}`}`;
  return new CliError(message, { kind: 'connection' });
}

async function open(flags: ClientFlags): Promise<Opened> {
  const where = flags.target;
  if (where.kind === 'http') {
    const auth = flags.token ? tokenAuth(flags.token) : await browserAuth();
    return {
      transport: await httpTransport(where.url, flags.headers, auth),
      label: where.url,
      stderr: () => '',
    };
  }
  const { command, args } = where.kind === 'stdio' ? where : builtinServer();
  const transport = spawnStdio({
    command,
    args,
    env: { ...process.env },
    // --stderr shows it live; else it is kept to explain a failure.
    stderr: flags.stderr === true ? 'inherit' : 'pipe',
    shutdownTimeoutMs: SHUTDOWN_STEP_MS,
  });
  const label = where.kind === 'stdio' ? `\`${command}\`` : 'the built-in everything server';
  return { transport, label, stderr: () => transport.stderrText() };
}

/** The command line of the built-in everything server. */
export function builtinServer(): { command: string; args: string[] } {
  const main = packagePath('dist', 'servers', 'everything', 'main.js');
  if (!existsSync(main)) {
    throw new CliError(`the built-in everything server is missing (${main}); run \`npm run build\``, {
      kind: 'failure',
    });
  }
  return { command: process.execPath, args: [main] };
}

async function explained<T>(
  opened: Opened,
  { phase, era }: { phase: 'connect' | 'request'; era?: EraPreference | undefined },
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const http = httpFailure(error, opened, era);
    if (http) throw http;
    if (era === 'modern' && looksLegacy(error)) {
      const message = `${describeError(error)} (is ${opened.label} a legacy server? try --era auto)`;
      throw new CliError(message, { kind: 'protocol', cause: error });
    }
    const hint = inputHint(error);
    if (hint) throw new CliError(`${describeError(error)}; ${hint}`, { kind: 'protocol', cause: error });
    throw explain(error, opened, phase);
  }
}

const ANSWER_HINT =
  'it asks for input: give each answer with --answer JSON, in order (e.g. --answer \'{"name":"Ada"}\', or \'{"action":"decline"}\')';

/**
 * What to do when a request failed for want of a client capability: -32021 (modern) names
 * the capabilities; a legacy server's refusal only says "capability". Elicitation is the
 * one the CLI can give, with `--answer`.
 */
function inputHint(error: unknown): string | undefined {
  if (!(error instanceof WireError)) return undefined;
  if (error.code === ERROR_TABLE.MissingRequiredClientCapability.code) {
    const required = (error.data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
    const names = typeof required === 'object' && required !== null ? Object.keys(required) : [];
    if (names.length === 0 || names.includes('elicitation')) return ANSWER_HINT;
    return `it needs client capabilities mcpkit's CLI does not offer (${names.join(', ')})`;
  }
  return /capabilit/i.test(error.message) ? `if ${ANSWER_HINT}` : undefined;
}

/** The codes a modern server answers a modern request with when something is off. */
const MODERN_CODES = new Set<number>(
  (['HeaderMismatch', 'MissingRequiredClientCapability', 'UnsupportedProtocolVersion'] as const).map(
    (name) => ERROR_TABLE[name].code,
  ),
);

/**
 * How a legacy server answers a modern request: an unknown method (stdio), or an
 * implementation-defined error of its own such as the official SDK's -32000 "Server not
 * initialized" over HTTP (2026-07-28 basic/versioning.mdx "Compatibility Matrix").
 */
function looksLegacy(error: unknown): boolean {
  if (error instanceof LocalError) return error.code === 'UNSUPPORTED_ERA';
  if (!(error instanceof WireError)) return false;
  if (error.code === ERROR_TABLE.MethodNotFound.code) return true;
  return isServerErrorCode(error.code) && !MODERN_CODES.has(error.code);
}

/** JSON-RPC 2.0 §5.1: -32000 to -32099 are reserved for implementation-defined server errors. */
function isServerErrorCode(code: number): boolean {
  return code <= -32000 && code >= -32099;
}

/** Rewrites a failure as a CliError that says which server and what happened. */
function explain(error: unknown, opened: Opened, phase: 'connect' | 'request'): unknown {
  if (error instanceof CliError) return error;
  const kind = 'connection';
  if (error instanceof LocalError && error.code === 'SPAWN_FAILED') {
    return new CliError(`could not start ${opened.label}: ${spawnReason(error)}`, { cause: error, kind });
  }
  if (error instanceof LocalError && error.code === 'CONNECTION_CLOSED') {
    return new CliError(closedMessage(error, opened, phase), { cause: error, kind });
  }
  if (phase === 'connect') {
    const message = `could not connect to ${opened.label}: ${describeError(error)}`;
    return new CliError(message, { cause: error, kind });
  }
  return error;
}

/**
 * An HTTP error status without a JSON-RPC answer (the transport's error carries
 * `data.httpStatus`) reported as what it is, with a hint, instead of as a JSON-RPC code.
 */
function httpFailure(error: unknown, opened: Opened, era: EraPreference | undefined): CliError | undefined {
  if (!(error instanceof WireError)) return undefined;
  const data = error.data as
    { httpStatus?: unknown; statusText?: unknown; disconnected?: unknown } | undefined;
  // The HTTP exchange itself failed (network, authorization, a cut stream): local, not an answer.
  if (data?.disconnected === true) {
    return new CliError(`${opened.label}: ${error.message}`, { cause: error, kind: 'connection' });
  }
  if (typeof data?.httpStatus !== 'number') return undefined;
  const status = `HTTP ${data.httpStatus}${typeof data.statusText === 'string' && data.statusText ? ` ${data.statusText}` : ''}`;
  const detail = error.message.startsWith(`${status}: `)
    ? ` (${error.message.slice(status.length + 2)})`
    : '';
  const legacyHint = era === 'modern' && data.httpStatus === 400 ? '; a legacy server? try --era auto' : '';
  const message = `${opened.label} answered ${status}${detail}${httpHint(data.httpStatus)}${legacyHint}`;
  return new CliError(message, { cause: error, kind: 'connection' });
}

function httpHint(status: number): string {
  if (status === 404 || status === 405) {
    return '; no MCP endpoint at this path — check the URL (servers often use /mcp)';
  }
  if (status === 401 || status === 403)
    return "; the server wants credentials (--header 'Authorization: Bearer …')";
  if (status === 406 || status === 415) return '; the URL does not look like an MCP endpoint';
  return '';
}

function spawnReason(error: LocalError): string {
  const code = systemCodeOf(error);
  if (code === 'ENOENT') return 'not found';
  if (code === 'EACCES') return 'permission denied';
  return error.cause instanceof Error ? error.cause.message : error.message;
}

function closedMessage(error: LocalError, opened: Opened, phase: 'connect' | 'request'): string {
  const when = phase === 'connect' ? 'while connecting' : 'before answering';
  const cause = error.cause instanceof Error ? error.cause.message : error.message;
  const exit = /(exited with code [^;\s]+|was killed by [^;\s]+)/.exec(cause)?.[1];
  if (cause.startsWith('could not reach ')) return cause;
  if (cause.includes('not JSON-RPC')) return `server ${opened.label} is not speaking MCP: ${cause}`;
  const what = exit === undefined ? `closed the connection ${when}` : `${exit} ${when}`;
  const tail = tailLines(opened.stderr());
  return `server ${opened.label} ${what}${tail === '' ? '' : `; stderr: ${tail}`}`;
}
