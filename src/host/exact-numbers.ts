/**
 * The host relays numbers as it parsed them, so an integer beyond ±(2^53 − 1) (an id such
 * as 1917043659912705296) would reach the other side rounded (1917043659912705300)
 * without a word. The host and the gateway never hand on a number they may have changed:
 * every frame a server sends is screened once, where it arrives (`ServerLink`), before it
 * is parsed for the host; a message carrying such a number is refused, not delivered:
 *
 * - a response: delivered as error -32603 naming the server and where the number is
 *   (`data.unsafeIntegerAt`), so the call that waited for it fails clearly;
 * - a request of the server (elicitation, sampling, roots): answered on the spot with
 *   error -32602 naming where, and never shown to a client;
 * - a notification (progress, logging, list changes, resource updates, task status):
 *   dropped, with a warning naming the server, the method and where.
 *
 * A frame with no run of 16 digits and no exponent cannot hold such a number and is
 * passed on untouched, unparsed.
 * Source: RFC 8259 §6 (interoperable integers are within ±(2^53 − 1)).
 */
import {
  ERROR_TABLE,
  WireError,
  type JsonRpcMessage,
  type RequestId,
  type TransportSink,
} from '../core/index.js';

/**
 * The JSON Pointer of the first number in `value` that is an integer beyond
 * ±(2^53 − 1) — a value JSON.parse may already have rounded —, or undefined. Looks at
 * plain objects and arrays only, depth first; `1e300` counts too (it cannot be told from
 * a rounded integer once parsed).
 */
export function firstUnsafeInteger(value: unknown, path = ''): string | undefined {
  if (typeof value === 'number') {
    return Number.isInteger(value) && !Number.isSafeInteger(value) ? path || '/' : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found = firstUnsafeInteger(child, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The sentence for a refused message: where the number is and why it is not relayed. */
export function unsafeIntegerMessage(what: string, pointer: string): string {
  return (
    `${what} has an integer beyond ±9007199254740991 (2^53 − 1) at '${pointer}', which a JSON ` +
    'number cannot carry exactly; the gateway does not relay a number it may have changed'
  );
}

/**
 * True when `error` is the -32603 the host delivers in place of a server's response that
 * carried an integer beyond ±(2^53 − 1).
 */
export function isUnsafeIntegerError(error: unknown): error is WireError {
  const data =
    error instanceof WireError ? (error.data as { unsafeIntegerAt?: unknown } | undefined) : undefined;
  return typeof data?.unsafeIntegerAt === 'string';
}

/** Where one server's frames go once screened. */
export interface ExactFrameSink {
  /** The server's name, for the messages. */
  readonly server: string;
  /** Delivers a frame (untouched, or with the refused messages replaced or removed). */
  frame(text: string, related?: RequestId): void;
  /** Sends the server the error answering one of its refused requests. */
  reply(message: JsonRpcMessage): void;
  /** Reports a dropped notification. */
  warn(message: string): void;
}

/**
 * `sink` with its frames screened by {@link deliverExact} (a server's transport sink, wrapped
 * once per connection): `reply` sends the server an error, `warn` reports a dropped notification.
 */
export function exactSink(sink: TransportSink, to: Omit<ExactFrameSink, 'frame'>): TransportSink {
  const screened: ExactFrameSink = { ...to, frame: (text, related) => sink.frame(text, related) };
  return { ...sink, frame: (text, related) => deliverExact(text, related, screened) };
}

/** Digits enough to exceed 2^53 − 1, or an exponent: the only ways to spell such a number. */
const MAYBE_UNSAFE = /\d{16}|\d[eE]/;

/**
 * Screens one frame of `to.server` (see the module comment) and delivers what is left.
 * Costs one regular-expression test for a frame without a long digit run or an exponent.
 */
export function deliverExact(text: string, related: RequestId | undefined, to: ExactFrameSink): void {
  if (!MAYBE_UNSAFE.test(text)) return to.frame(text, related);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return to.frame(text, related); // Not JSON: the client reports it as it always does.
  }
  const batch = Array.isArray(parsed);
  const kept: unknown[] = [];
  let changed = false;
  for (const message of batch ? (parsed as unknown[]) : [parsed]) {
    const screened = screen(message, to);
    if (screened !== message) changed = true;
    if (screened !== undefined) kept.push(screened);
  }
  if (!changed) return to.frame(text, related);
  if (kept.length > 0) to.frame(JSON.stringify(batch ? kept : kept[0]), related);
}

/** The message itself, its replacement (a refused response), or undefined (removed). */
function screen(message: unknown, to: ExactFrameSink): unknown {
  if (typeof message !== 'object' || message === null) return message;
  const m = message as {
    id?: RequestId;
    method?: unknown;
    params?: unknown;
    result?: unknown;
    error?: unknown;
  };
  if (typeof m.method === 'string') {
    const at = firstUnsafeInteger(m.params);
    if (at === undefined) return message;
    const text = unsafeIntegerMessage(`server '${to.server}''s ${m.method}`, at);
    if (m.id === undefined) to.warn(`${text} (notification dropped)`);
    else
      to.reply({ jsonrpc: '2.0', id: m.id, error: { code: ERROR_TABLE.InvalidParams.code, message: text } });
    return undefined;
  }
  const part = 'result' in m ? 'result' : 'error';
  const at = firstUnsafeInteger(m[part]);
  if (at === undefined || m.id === undefined) return message;
  const what = `server '${to.server}''s ${part === 'result' ? 'result' : 'error'}`;
  const data = { unsafeIntegerAt: at };
  return {
    jsonrpc: '2.0',
    id: m.id,
    error: { code: ERROR_TABLE.InternalError.code, message: unsafeIntegerMessage(what, at), data },
  };
}
