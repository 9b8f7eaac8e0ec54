/**
 * Failing fast on a server that does not speak JSON-RPC. A stdio server MUST NOT write
 * anything to stdout that is not a valid MCP message; when the first thing a server says
 * is not a JSON object at all, waiting for the handshake to time out only hides the reason.
 * Source: 2026-07-28 basic/transports/stdio; 2025-11-25 basic/transports "stdio".
 */
import { LocalError, type Transport, type TransportSink } from '../core/index.js';

/** Longest quote of the offending output, in characters. */
const QUOTE_CHARS = 200;

/**
 * Wraps `transport` so that a first frame that is not a JSON object or array closes the channel at once with
 * an error quoting it (pending requests then fail with `CONNECTION_CLOSED` naming it).
 * Once one JSON frame has arrived the server speaks JSON-RPC, and later junk is left to
 * the Peer (which reports it without answering).
 */
export function guardFirstFrame(transport: Transport): Transport {
  let heard = false;
  return {
    send: (message, options) => transport.send(message, options),
    close: () => transport.close(),
    start: (sink) =>
      transport.start({
        ...sink,
        frame: (text, related) => {
          if (heard || isJsonStructure(text)) {
            heard = true;
            return sink.frame(text, related);
          }
          const quote = quoteOf(text.trim());
          sink.closed(
            new LocalError(
              'CONNECTION_CLOSED',
              `the server wrote output that is not JSON-RPC before any message: ${quote} (a stdio server must log to stderr: console.error, not console.log)`,
            ),
          );
          void transport.close().catch(() => undefined);
        },
      } satisfies TransportSink),
  };
}

/** The output, shortened; markup (an HTML error page, say) is named, not dumped. */
function quoteOf(text: string): string {
  if (/^<(!doctype|html|\?xml)/i.test(text)) return 'an HTML or XML document';
  return JSON.stringify(text.slice(0, QUOTE_CHARS));
}

/** A JSON object or array: what a JSON-RPC message or batch is, valid or not. */
function isJsonStructure(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

/**
 * A server that prints anything but protocol on stdout usually fails the handshake: the
 * handshake's LocalError `error`, with `junk` (the first non-JSON-RPC output) quoted.
 */
export function explainJunk(error: unknown, junk: string | undefined): unknown {
  if (junk === undefined || !(error instanceof LocalError)) return error;
  if (error.message.includes('not JSON-RPC')) return error;
  const hint = `; the server wrote output that is not JSON-RPC: ${JSON.stringify(junk)}`;
  return new LocalError(error.code, `${error.message}${hint}`, { cause: error });
}
