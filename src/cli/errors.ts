/**
 * How the CLI reports failure: one line on stderr, no stack trace. A {@link CliError} is a
 * message already written for the user; anything else is described from its code.
 */
import { McpError, McpkitError } from '../core/index.js';

/** A failure whose message is ready to show as is. */
export class CliError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
  }
}

/** Folds text onto one line: blank lines dropped, the rest joined with ` | `. */
export function oneLine(text: string): string {
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
  if (error instanceof McpError)
    return `server error ${error.code}: ${oneLine(error.message)}${detailOf(error)}`;
  if (error instanceof McpkitError) return oneLine(error.message);
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
function detailOf(error: McpError): string {
  const data = error.data as { requiredCapabilities?: unknown; supported?: unknown } | undefined;
  if (data?.requiredCapabilities !== undefined)
    return ` (needs client capability ${JSON.stringify(data.requiredCapabilities)})`;
  if (Array.isArray(data?.supported)) return ` (server supports ${data.supported.join(', ')})`;
  return '';
}
