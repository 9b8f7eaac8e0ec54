/**
 * The client end of the stdio transport: launches the MCP server as a child process and
 * speaks newline-delimited JSON-RPC over its stdin and stdout.
 * Source: 2026-07-28 basic/transports/stdio ("Shutdown", "Unexpected Termination").
 */
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { LocalError, type JsonRpcMessage, type Transport, type TransportSink } from '../../core/index.js';
import { LineDecoder, encodeFrame, type LineEvent, setOwn } from '../../core/runtime.js';
import { groupGone, signalGroup, within } from './process-group.js';
import { mayBeProtocol, quoteLines, splitPrefixedMessage, StdoutNoise } from './stdout-noise.js';

/** Options of {@link spawnStdio}. */
export interface SpawnStdioOptions {
  /** The program to run (looked up on the child's `PATH`; no shell is involved). */
  command: string;
  /** Its arguments. */
  args?: string[];
  /**
   * Variables added to the inherited subset of `process.env` (see {@link spawnStdio});
   * `undefined` removes a variable. Pass `{ ...process.env }` to inherit everything.
   */
  env?: Record<string, string | undefined>;
  /** Working directory of the child (default: this process's). */
  cwd?: string;
  /**
   * The child's stderr: `'pipe'` (default) captures it (always read, never blocks the child;
   * the last 64 KiB kept for {@link StdioClientTransport.stderrText} and exit errors),
   * `'inherit'` shares this process's stderr, `'ignore'` discards it.
   */
  stderr?: 'inherit' | 'pipe' | 'ignore';
  /** Milliseconds to wait at each shutdown step (stdin closed, then SIGTERM); default 2000. */
  shutdownTimeoutMs?: number;
  /** Longest accepted line from the server in bytes (default 64 MiB); longer lines are dropped. */
  maxLineBytes?: number;
  /**
   * Called with each line of the server's stdout that is not JSON-RPC (a launcher's notice,
   * a banner), which the transport skips; see {@link StdioClientTransport.nonProtocolLines}.
   */
  onNonProtocolLine?: (line: string) => void;
}

/** A {@link Transport} to a child process, with access to the process. */
export interface StdioClientTransport extends Transport {
  /** The child's process id; `undefined` before `start()` or when spawning failed. */
  readonly pid: number | undefined;
  /**
   * The child's stderr when `stderr` is `'pipe'` (else `null`). It is already being read;
   * add `'data'` listeners to forward it, but do not pause it.
   */
  readonly stderr: Readable | null;
  /** The last 64 KiB of the child's stderr as UTF-8 text (empty unless `stderr` is `'pipe'`). */
  stderrText(): string;
  /**
   * The latest lines of the child's stdout that were not JSON-RPC and were skipped, oldest
   * first: at most 20, each cut at 500 characters.
   */
  nonProtocolLines(): string[];
  /**
   * How the child ended: its exit code, or the signal that ended it (Node's `exit` event);
   * `undefined` while it runs or before `start()`.
   */
  readonly exitStatus: { code: number | null; signal: NodeJS.Signals | null } | undefined;
}

/** Environment variables a child inherits by default, like the official SDKs. */
const INHERITED_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];
const INHERITED_ENV_WINDOWS = ['APPDATA', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PATH'].concat(
  ['PROCESSOR_ARCHITECTURE', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'USERNAME'],
  ['USERPROFILE', 'PROGRAMFILES'],
);

const STDERR_TAIL_BYTES = 64 * 1024;
/** How long to wait after exit for the child's pipes to finish delivering buffered output. */
const DRAIN_GRACE_MS = 250;

/**
 * Launches an MCP server and returns the client end of the stdio transport to it.
 * Nothing runs until `start()`.
 *
 * - `start(sink)` spawns the process (no shell) and resolves once it is running.
 *   @throws LocalError `SPAWN_FAILED` naming the command when it cannot be started
 *   (ENOENT, EACCES, a bad `cwd`).
 * - Environment: only HOME, LOGNAME, PATH, SHELL, TERM and USER (on Windows the usual
 *   system variables) are inherited, skipping values that start with `()` (shell
 *   functions), so secrets in this process's environment do not leak; `env` is merged on top.
 * - If the process exits on its own, the sink gets `closed(error)` naming the exit code or
 *   signal and ending with the tail of its stderr, so pending requests fail.
 * - A line from the server longer than `maxLineBytes` is dropped (its request times out).
 * - A line of stdout that cannot be JSON-RPC (it does not start with `{`, or with `[` and
 *   then `{` or `]`), such as `npx`'s `npm warn exec …` or a server's banner, is skipped
 *   before and after the handshake, kept for {@link StdioClientTransport.nonProtocolLines}
 *   and passed to `onNonProtocolLine`. A line that ends with a whole JSON-RPC object
 *   written straight after such output (`Loading...{"jsonrpc":"2.0",…}`) is split: the
 *   output before the object is skipped as above, the object delivered. After more than 100 such lines, or 64 Ki characters
 *   of them, in a row without a message, the sink gets `closed(error)` (LocalError
 *   `CONNECTION_CLOSED` quoting the last lines) and the process is ended as by `close()`.
 * - On POSIX the child leads a process group of its own (spawned `detached`, never
 *   unref'd), so a launcher that does not forward signals (`sh -c`, `npx`, `uv run`) cannot
 *   leave the real server behind.
 * - `close()` follows the spec's shutdown, for the whole group: ends stdin, waits
 *   `shutdownTimeoutMs` for the child to exit and the group to empty, sends SIGTERM to the
 *   group, waits again, then SIGKILL; resolves once the child has exited, then calls
 *   `sink.closed()`.
 */
export function spawnStdio(options: SpawnStdioOptions): StdioClientTransport {
  return new ChildTransport(options);
}

type State = 'new' | 'running' | 'closing' | 'closed';

class ChildTransport implements StdioClientTransport {
  readonly binding = 'stdio';
  readonly #options: SpawnStdioOptions;
  readonly #decoder: LineDecoder;
  readonly #tail = new TailBuffer(STDERR_TAIL_BYTES);
  readonly #noise = new StdoutNoise();
  #child: ChildProcess | undefined;
  #sink: TransportSink | undefined;
  #state: State = 'new';
  #closing: Promise<void> | undefined;
  #exited: Promise<void> = new Promise(() => {});
  #drained: Promise<void> = new Promise(() => {});
  #exitStatus: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  constructor(options: SpawnStdioOptions) {
    this.#options = options;
    const max = options.maxLineBytes;
    this.#decoder = new LineDecoder(max === undefined ? {} : { maxLineBytes: max });
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  get stderr(): Readable | null {
    return this.#child?.stderr ?? null;
  }

  stderrText(): string {
    return this.#tail.text();
  }

  nonProtocolLines(): string[] {
    return this.#noise.recent();
  }

  get exitStatus(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.#exitStatus;
  }

  async start(sink: TransportSink): Promise<void> {
    const { command, args = [], cwd } = this.#options;
    this.#sink = sink;
    const child = childProcess().spawn(command, args, {
      stdio: ['pipe', 'pipe', this.#options.stderr ?? 'pipe'],
      env: childEnv(this.#options.env),
      windowsHide: true,
      // Its own process group on POSIX, so close() can end a launcher's children too.
      detached: process.platform !== 'win32',
      ...(cwd === undefined ? {} : { cwd }),
    });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once('exit', () => resolve()));
    this.#drained = new Promise((resolve) => child.once('close', () => resolve()));
    await spawned(child, command);
    this.#state = 'running';
    this.#wire(child);
  }

  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.#state === 'running') this.#child?.stdin?.write(encodeFrame(message));
  }

  close(): Promise<void> {
    if (this.#state === 'new') this.#state = 'closed';
    if (this.#state === 'closed') return this.#closing ?? Promise.resolve();
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  #wire(child: ChildProcess): void {
    child.on('error', () => {}); // a failed kill(): the shutdown sequence escalates anyway
    child.stdin?.on('error', () => {}); // EPIPE once the child is gone: its exit is what gets reported
    child.stdout?.on('data', (chunk: Uint8Array) => this.#deliver(this.#decoder.push(chunk)));
    child.stdout?.on('end', () => this.#deliver(this.#decoder.end()));
    child.stderr?.on('data', (chunk: Uint8Array) => this.#tail.push(chunk));
    child.once('exit', (code, signal) => {
      this.#exitStatus = { code, signal };
      void this.#onExit(code, signal);
    });
  }

  #deliver(events: LineEvent[]): void {
    for (const event of events) {
      if (this.#state === 'closed') return;
      if (event.kind !== 'line') continue;
      if (mayBeProtocol(event.text)) {
        this.#noise.endRun();
        this.#sink?.frame(event.text);
        continue;
      }
      // Output written with no newline before a message: the output is skipped, the message kept.
      const split = splitPrefixedMessage(event.text);
      this.#skip(split?.prefix ?? event.text);
      if (split === undefined || (this.#state as State) === 'closed') continue;
      this.#noise.endRun();
      this.#sink?.frame(split.message);
    }
  }

  /** A line that is not JSON-RPC: kept and reported; a long run of them ends the connection. */
  #skip(line: string): void {
    this.#options.onNonProtocolLine?.(line);
    if (!this.#noise.note(line) || this.#state !== 'running') return;
    const error = new LocalError('CONNECTION_CLOSED', this.#noise.describeRun(this.#options.command));
    this.#closing ??= this.#shutdown();
    this.#finish(error);
  }

  async #onExit(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    if (this.#state !== 'running') return;
    await within(this.#drained, DRAIN_GRACE_MS);
    this.#finish(
      new LocalError(
        'CONNECTION_CLOSED',
        exitMessage(
          this.#options.command,
          { code, signal },
          { stderr: this.#tail.text(), noise: this.#noise.recent() },
        ),
      ),
    );
  }

  async #shutdown(): Promise<void> {
    const child = this.#child;
    const timeoutMs = this.#options.shutdownTimeoutMs ?? 2000;
    this.#state = 'closing';
    child?.stdin?.end();
    const group = child?.pid !== undefined && process.platform !== 'win32' ? child.pid : undefined;
    const ended = group === undefined ? this.#exited : this.#exited.then(() => groupGone(group, timeoutMs));
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      if (await within(ended, timeoutMs)) break;
      if (group === undefined || !signalGroup(group, signal)) child?.kill(signal);
    }
    await this.#exited;
    await within(this.#drained, DRAIN_GRACE_MS);
    this.#finish();
  }

  #finish(error?: Error): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#child?.stdout?.destroy();
    this.#child?.stderr?.destroy();
    this.#sink?.closed(error);
  }
}

/** Resolves once the child is running; rejects with `SPAWN_FAILED` when it cannot start. */
function spawned(child: ChildProcess, command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (cause: Error): void => {
      child.off('spawn', onSpawn);
      reject(
        new LocalError('SPAWN_FAILED', `Failed to start MCP server "${command}": ${cause.message}`, {
          cause,
        }),
      );
    };
    const onSpawn = (): void => {
      child.off('error', onError);
      resolve();
    };
    child.once('error', onError);
    child.once('spawn', onSpawn);
  });
}

function childEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  // Read at spawn, not at import: a module that reads `process` on load breaks web runtimes.
  for (const key of process.platform === 'win32' ? INHERITED_ENV_WINDOWS : INHERITED_ENV) {
    const value = process.env[key];
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else setOwn(env, key, value);
  }
  return env;
}

function exitMessage(
  command: string,
  exit: { code: number | null; signal: string | null },
  output: { stderr: string; noise: readonly string[] },
): string {
  const { stderr, noise } = output;
  const how =
    exit.signal === null ? `exited with code ${exit.code ?? 'unknown'}` : `was killed by ${exit.signal}`;
  const stdout = noise.length === 0 ? '' : `; stdout (not JSON-RPC): ${quoteLines(noise.slice(-3))}`;
  const tail = stderr.length > 2000 ? `…${stderr.slice(-2000)}` : stderr;
  return `MCP server "${command}" ${how}${stdout}${tail.trim() === '' ? '' : `; stderr:\n${tail.trimEnd()}`}`;
}

/** Keeps the last `limit` bytes written to it, in amortised linear time. */
class TailBuffer {
  readonly #limit: number;
  #chunks: Uint8Array[] = [];
  #bytes = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  push(chunk: Uint8Array): void {
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    if (this.#bytes > 2 * this.#limit) this.#compact();
  }

  text(): string {
    this.#compact();
    return new TextDecoder().decode(this.#chunks[0] ?? new Uint8Array(0));
  }

  #compact(): void {
    const all = Buffer.concat(this.#chunks);
    const tail = all.subarray(Math.max(0, all.length - this.#limit));
    this.#chunks = [tail];
    this.#bytes = tail.length;
  }
}

// node:child_process is loaded on the first spawn, not at import: a server that only serves stdio does not pay its start-up.
let loadedChildProcess: typeof import('node:child_process') | undefined;
function childProcess(): typeof import('node:child_process') {
  return (loadedChildProcess ??= createRequire(import.meta.url)(
    'node:child_process',
  ) as typeof import('node:child_process'));
}
