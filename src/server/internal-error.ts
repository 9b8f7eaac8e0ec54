/**
 * Where the cause of an internal error goes. The client sees only -32603 "Internal error"
 * (or, for a tool, an `isError` result with the error's message and nothing more), so the
 * cause must reach the operator: `ServerOptions.onError` when set, else one line on
 * stderr (`console.error`, which never touches the stdio transport's stdout) naming the
 * method, the tool when there is one, the error and the frame that threw it.
 * STYLE 13 allows exactly this line; `onError` replaces it.
 */
import type { JsonRpcRequest } from '../core/index.js';
import type { ServerOptions } from './options.js';

/** The longest line written, in characters (a huge message is cut, never spread over lines). */
const MAX_LINE = 1000;

/**
 * Reports `error`, thrown while serving `request` (undefined for a failure tied to no
 * request), to `options.onError`, else as one line on stderr.
 */
export function reportInternalError(
  options: Pick<ServerOptions, 'onError'>,
  error: unknown,
  request: Pick<JsonRpcRequest, 'method' | 'params'> | undefined,
): void {
  if (options.onError) {
    options.onError(error, request as JsonRpcRequest | undefined);
    return;
  }
  // eslint-disable-next-line no-console -- STYLE 13: the one line for a cause that would otherwise be lost
  console.error(internalErrorLine(error, request));
}

/** The stderr line of {@link reportInternalError}: `mcpkit server: internal error in tools/call 'add': TypeError: … (at …)`. */
export function internalErrorLine(
  error: unknown,
  request: Pick<JsonRpcRequest, 'method' | 'params'> | undefined,
): string {
  const name = request?.params?.name ?? request?.params?.uri;
  const what =
    request === undefined ? '' : ` in ${request.method}${typeof name === 'string' ? ` '${name}'` : ''}`;
  const cause =
    error instanceof Error
      ? `${error.name}: ${error.message}${whereThrown(error)}`
      : `thrown ${String(error)}`;
  const line = `mcpkit server: internal error${what}: ${cause}`.replace(/\s*[\r\n]+\s*/g, ' ');
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
}

/** ` (at file:line:col)`: the first frame of the stack, when there is one. */
function whereThrown(error: Error): string {
  const frame = error.stack?.split('\n').find((line) => line.trimStart().startsWith('at '));
  return frame === undefined ? '' : ` (${frame.trim()})`;
}
