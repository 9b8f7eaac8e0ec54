/**
 * How the CLI reports failure: one line on stderr (or one JSON object with `--json`), no
 * stack trace, and an exit code that says what kind of failure it was. A {@link CliError}
 * is a message already written for the user; anything else is described from its code.
 */
import { WireError, LocalError } from '../core/index.js';

/**
 * What went wrong, each with its own exit code ({@link EXIT_CODES}): `usage` — the command
 * line is wrong; `connection` — the server could not be started, reached or connected to
 * (HTTP errors, timeouts while connecting, output that is not MCP); `protocol` — the
 * server answered a request with a JSON-RPC error, an invalid result, or not in time;
 * `tool` — a tool reported an error (`isError: true`); `failure` — anything else.
 */
export type FailureKind = 'usage' | 'connection' | 'protocol' | 'tool' | 'failure';

/** The process exit code of each {@link FailureKind}; 130 is an interrupt (SIGINT/SIGTERM). */
export const EXIT_CODES: Readonly<Record<FailureKind | 'interrupted', number>> = {
  tool: 1,
  failure: 1,
  usage: 2,
  connection: 3,
  protocol: 4,
  interrupted: 130,
};

/** A failure whose message is ready to show as is; `kind` defaults to `usage`. */
export class CliError extends Error {
  readonly kind: FailureKind | 'interrupted';
  constructor(message: string, options: { cause?: unknown; kind?: FailureKind | 'interrupted' } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.kind = options.kind ?? 'usage';
  }
}

/** The kind of any error the CLI ends with. */
export function kindOf(error: unknown): FailureKind | 'interrupted' {
  if (error instanceof CliError) return error.kind;
  if (error instanceof WireError) return 'protocol';
  if (error instanceof LocalError) return error.code === 'CONNECTION_CLOSED' ? 'connection' : 'protocol';
  return 'failure';
}

/** The error as the one JSON object `--json` writes to stderr. */
export function errorJson(error: unknown): string {
  const kind = kindOf(error);
  const out: Record<string, unknown> = { kind, message: describeError(error), exitCode: EXIT_CODES[kind] };
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e instanceof WireError) {
      out.code = e.code;
      const status = (e.data as { httpStatus?: unknown } | undefined)?.httpStatus;
      if (typeof status === 'number') out.httpStatus = status;
      break;
    }
  }
  return JSON.stringify({ error: out });
}

/** Folds text onto one line: blank lines dropped, the rest joined with ` | `. */
function oneLine(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' | ');
}

/** The last `count` non-blank lines of `text`, folded onto one line. */
export function tailLines(text: string, count = 3): string {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  return oneLine(lines.slice(-count).join('\n'));
}

/** A one-line description of any error for the user. */
export function describeError(error: unknown): string {
  if (error instanceof CliError) return oneLine(error.message);
  if (error instanceof WireError)
    return `server error ${error.code}: ${oneLine(error.message)}${detailOf(error)}`;
  if (error instanceof LocalError) return oneLine(error.message);
  if (error instanceof Error) return oneLine(error.message);
  return oneLine(String(error));
}

/** Node's error code (`ENOENT`, `EACCES`…) of an error or its cause, if any. */
export function systemCodeOf(error: unknown): string | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  }
  return undefined;
}

/** The parts of an error's data worth a line: what capability or version was at stake. */
function detailOf(error: WireError): string {
  const data = error.data as { requiredCapabilities?: unknown; supported?: unknown } | undefined;
  if (data?.requiredCapabilities !== undefined)
    return ` (needs client capability ${JSON.stringify(data.requiredCapabilities)})`;
  if (Array.isArray(data?.supported)) return ` (server supports ${data.supported.join(', ')})`;
  return '';
}
