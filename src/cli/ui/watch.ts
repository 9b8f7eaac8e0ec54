/**
 * What the inspector watches on one connection besides the JSON-RPC history: the network
 * (network.ts), the stdio server's console (its stderr live, the stdout lines that are not
 * JSON-RPC, and how it ended), and why the era was chosen. It reads the transport through
 * its public surface only (the `fetch` option, `StdioClientTransport.stderr` and
 * `exitStatus`, the sink's `closed`).
 */
import { listChangedFilter, type Client, type EraPreference } from '../../client/index.js';
import { ERROR_TABLE, type Transport, type TransportSink } from '../../core/index.js';
import type { StdioClientTransport } from '../../integrations/stdio/index.js';
import { errorClasses, NetworkLog, type NetworkEntry } from './network.js';
import type { RecordedFrame } from './recorder.js';

/** One line of the server's console. */
export interface ConsoleLine {
  at: number;
  /** `stderr`, or `stdout` for a line that is not JSON-RPC (the client skipped it). */
  stream: 'stderr' | 'stdout';
  text: string;
}

/** How the stdio server ended. */
export interface ServerExit {
  at: number;
  code: number | null;
  signal: string | null;
  /** The client's account of it (the connection's closing error), when there was one. */
  message?: string;
  /** Whether the inspector closed it (disconnect) rather than the server dying on its own. */
  requested: boolean;
}

/** The error codes that mark a modern server in answer to the probe (2026-07-28 basic/versioning). */
const MODERN_ERRORS: ReadonlySet<number> = new Set([
  ERROR_TABLE.HeaderMismatch.code,
  ERROR_TABLE.MissingRequiredClientCapability.code,
  ERROR_TABLE.UnsupportedProtocolVersion.code,
]);

/** Console lines kept (the oldest go first); they stay after the server dies. */
const MAX_CONSOLE_LINES = 1000;

const isStdio = (t: Transport): t is StdioClientTransport => 'exitStatus' in t && 'stderr' in t;

/** The watchers of the current connection; `emit` sends the app a `network` or `console` event. */
export class ConnectionWatch {
  readonly network: NetworkLog;
  readonly #emit: (event: { type: string; [key: string]: unknown }) => void;
  readonly #console: ConsoleLine[] = [];
  #exit: ServerExit | undefined;
  #closing = false;
  #partial = '';

  constructor(emit: (event: { type: string; [key: string]: unknown }) => void) {
    this.#emit = emit;
    this.network = new NetworkLog((entry: NetworkEntry) => emit({ type: 'network', entry }));
  }

  /** Forgets the previous connection's network and console. */
  reset(): void {
    this.network.clear();
    this.#console.length = 0;
    this.#exit = undefined;
    this.#closing = false;
    this.#partial = '';
    this.#emit({ type: 'watch-reset' });
  }

  /** The console so far and how the server ended, if it did. */
  console(): { lines: readonly ConsoleLine[]; exit: ServerExit | undefined } {
    return { lines: this.#console, exit: this.#exit };
  }

  /** Notes that the inspector itself is closing the connection. */
  closing(): void {
    this.#closing = true;
  }

  #line(stream: ConsoleLine['stream'], text: string): void {
    const line = { at: Date.now(), stream, text };
    this.#console.push(line);
    if (this.#console.length > MAX_CONSOLE_LINES) this.#console.shift();
    this.#emit({ type: 'console', line });
  }

  /** A stdout line the client skipped because it is not JSON-RPC. */
  nonProtocolLine(text: string): void {
    this.#line('stdout', text);
  }

  /** A frame of a stdio connection, for the Network view. */
  frame(frame: RecordedFrame): void {
    this.network.line(frame.direction, frame.bytes ?? 0, frame.message);
  }

  #stderr(chunk: Buffer | string): void {
    const lines = (this.#partial + chunk.toString()).split(/\r?\n/);
    this.#partial = lines.pop() ?? '';
    for (const text of lines) this.#line('stderr', text);
  }

  /** Wraps `transport`: a stdio one's stderr becomes console lines, and its end is noted. */
  wrap(transport: Transport): Transport {
    if (!isStdio(transport)) return transport;
    return {
      ...(transport.binding ? { binding: transport.binding } : {}),
      start: async (sink: TransportSink) => {
        const watched: TransportSink = {
          frame: (text, related) => sink.frame(text, related),
          closed: (error) => {
            this.#ended(transport, error);
            sink.closed(error);
          },
        };
        if (sink.inputEnded) watched.inputEnded = sink.inputEnded.bind(sink);
        if (sink.failed) watched.failed = sink.failed.bind(sink);
        await transport.start(watched);
        transport.stderr?.on('data', (chunk: Buffer) => this.#stderr(chunk));
      },
      send: (message, options) => transport.send(message, options),
      close: () => transport.close(),
      nonProtocolLines: () => transport.nonProtocolLines(),
    };
  }

  #ended(transport: StdioClientTransport, error: Error | undefined): void {
    if (this.#partial !== '') this.#line('stderr', this.#partial);
    this.#partial = '';
    const status = transport.exitStatus ?? { code: null, signal: null };
    this.#exit = {
      at: Date.now(),
      code: status.code,
      signal: status.signal,
      ...(error ? { message: error.message } : {}),
      requested: this.#closing,
    };
    this.#emit({ type: 'server-exit', exit: this.#exit });
  }
}

/**
 * Why the client speaks the era it does, from the connection's first frames: pinned by the
 * setting, or the outcome of the `server/discover` probe (2026-07-28 basic/versioning
 * "Backward Compatibility": a result or a modern error means modern, anything else legacy).
 */
export function eraReason(preference: EraPreference, frames: readonly RecordedFrame[]): string {
  if (preference !== 'auto') return `pinned to ${preference} by the era setting; no probe was sent`;
  const probe = frames.find(
    (f) => f.direction === 'out' && (f.message as { method?: unknown }).method === 'server/discover',
  );
  if (!probe) return 'no server/discover probe was sent (the era came from the cache)';
  const id = (probe.message as { id?: unknown }).id;
  const answer = frames.find((f) => f.direction === 'in' && (f.message as { id?: unknown }).id === id);
  if (!answer) return 'server/discover got no answer, so the client fell back to legacy initialize';
  const error = (answer.message as { error?: { code?: unknown; message?: unknown } }).error;
  if (!error) return 'server/discover answered with a result: the server speaks the modern revision';
  const code = typeof error.code === 'number' ? error.code : undefined;
  const names = errorClasses(undefined, code).join(' / ') || 'unknown code';
  const text = `server/discover answered error ${String(code)} (${names})`;
  return code !== undefined && MODERN_ERRORS.has(code)
    ? `${text}, a modern error: the server is modern`
    : `${text}: not a modern server, so the client sent legacy initialize`;
}

/** How a stdio server ended, in words: the exit code or signal, and the client's account of it. */
export function describeExit(exit: unknown): string {
  const { code, signal, message } = (exit ?? {}) as { code?: unknown; signal?: unknown; message?: unknown };
  const how =
    typeof signal === 'string' ? `killed by ${signal}` : `exited with code ${String(code ?? 'unknown')}`;
  return typeof message === 'string' ? `${how} (${message})` : how;
}

/**
 * Follows every list the server announces changes of (`subscriptions/listen` on modern, the
 * session on legacy); the notifications reach the client's `onNotification`, and `emit` gets
 * a `listening` event once the server acknowledged. Undefined when it announces none.
 */
export function listenForChanges(
  client: Client,
  emit: (event: { type: string; [key: string]: unknown }) => void,
): { close(): void } | undefined {
  const filter = listChangedFilter(client.serverCapabilities ?? {});
  if (Object.keys(filter).length === 0) return undefined;
  const subscription = client.listen(filter);
  subscription.acknowledged.then(
    (acknowledged) => emit({ type: 'listening', filter: acknowledged }),
    () => undefined,
  );
  void (async () => {
    for await (const _ of subscription); // notifications also reach onNotification
  })().catch(() => undefined);
  return subscription;
}
