/**
 * `mcpkit record`: a transparent proxy that writes every JSON-RPC message to a recording.
 * For a command it is a stdio proxy (the client spawns `mcpkit record … -- COMMAND`, which
 * spawns COMMAND and passes each line through unchanged); for a URL it is an HTTP proxy
 * (see http-proxy.ts).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { LineDecoder } from '../../core/runtime.js';
import type { ClientFlags } from '../args.js';
import { CliError } from '../errors.js';
import type { Front } from '../host-args.js';
import { packagePath } from '../package-root.js';
import { RecordingWriter } from './writer.js';

/** Longest line passed through and recorded, in bytes (longer ones pass but are noted). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Records the server `flags` names until the exchange ends; resolves with the exit code. */
export async function recordServer(
  flags: ClientFlags,
  options: { out: string; front: Front },
): Promise<number> {
  const where = flags.target;
  if (where.kind === 'http') {
    const { recordHttp } = await import('./http-proxy.js');
    return recordHttp({
      url: where.url,
      headers: flags.headers ?? {},
      out: options.out,
      front: options.front,
    });
  }
  if (options.front.port !== undefined)
    throw new CliError('--port is for recording a URL; a command is recorded on stdio');
  const { command, args } = where.kind === 'stdio' ? where : builtin();
  return recordStdio(command, args, options.out);
}

function builtin(): { command: string; args: string[] } {
  const main = packagePath('dist', 'servers', 'everything', 'main.js');
  if (!existsSync(main))
    throw new CliError(`the built-in everything server is missing (${main})`, { kind: 'failure' });
  return { command: process.execPath, args: [main] };
}

/**
 * Spawns the server and passes lines both ways, recording each; the server's stderr goes to
 * ours. Ends when the server exits (with its exit code); our stdin ending closes its stdin.
 */
function recordStdio(command: string, args: string[], out: string): Promise<number> {
  const writer = new RecordingWriter(out, { transport: 'stdio', server: [command, ...args].join(' ') });
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'], env: process.env });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt).on('SIGTERM', onTerm);
  pipeLines(
    process.stdin,
    (line) => {
      writer.write('client', line);
      child.stdin.write(`${line}\n`);
    },
    () => child.stdin.end(),
  );
  pipeLines(child.stdout, (line) => {
    writer.write('server', line);
    process.stdout.write(`${line}\n`);
  });
  child.stdin.on('error', () => undefined);
  // The client went away (EPIPE): stop feeding the server, which then exits.
  process.stdout.on('error', () => child.stdin.end());
  return new Promise((resolve) => {
    const done = (code: number): void => {
      process.off('SIGINT', onInt).off('SIGTERM', onTerm);
      process.stdin.pause();
      void writer.close().then(() => resolve(code));
    };
    child.once('error', (error) => {
      process.stderr.write(`mcpkit: could not start \`${command}\`: ${error.message}\n`);
      done(3);
    });
    child.once('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

function pipeLines(input: NodeJS.ReadableStream, onLine: (line: string) => void, onEnd?: () => void): void {
  const decoder = new LineDecoder({ maxLineBytes: MAX_LINE_BYTES });
  const take = (events: ReturnType<LineDecoder['push']>): void => {
    for (const event of events) {
      if (event.kind === 'line') onLine(event.text);
      else process.stderr.write(`mcpkit: record: a line over ${event.maxLineBytes} bytes was dropped\n`);
    }
  };
  input.on('data', (chunk: Buffer) => take(decoder.push(chunk)));
  input.on('end', () => {
    take(decoder.end());
    onEnd?.();
  });
}
