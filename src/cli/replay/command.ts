/**
 * `mcpkit replay FILE`: serves a recording as a mock server, on stdio or (with `--port`)
 * on Streamable HTTP. Each request is answered from the {@link ReplayBook}; a recorded
 * server request is sent with a fresh id and the replay waits for the client's answer.
 */
import { WireError } from '../../core/index.js';
import { LineDecoder, loadOptional, type LineEvent } from '../../core/runtime.js';
import { CliError } from '../errors.js';
import type { Front } from '../host-args.js';
import { parseBoundedJson, readTextFile } from '../json-file.js';
import { parseRecording } from '../record/format.js';
import { signalled } from '../signals.js';
import { ReplayBook } from './book.js';
import { Asks, frameOf, play } from './play.js';

/** Largest recording read, in bytes. */
const MAX_RECORDING_BYTES = 256 * 1024 * 1024;
/** Longest incoming line on stdio, in bytes. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Loads the recording and serves it until stdin ends (stdio) or a signal (HTTP). */
export async function replayRecording(file: string, front: Front): Promise<number> {
  const book = await loadBook(file);
  if (front.port !== undefined) {
    const { serveReplayHttp } = await import('./http.js');
    const served = await serveReplayHttp(book, front);
    process.stderr.write(
      `mcpkit: replaying ${file} (${book.size} recorded requests) at ${served.url} (Ctrl-C to stop)\n`,
    );
    await signalled();
    await served.close();
    return 0;
  }
  await serveReplayStdio(book);
  return 0;
}

async function loadBook(file: string): Promise<ReplayBook> {
  const text = await readTextFile(file, MAX_RECORDING_BYTES);
  const { distance } = await loadOptional(
    'fastest-levenshtein',
    '`mcpkit replay`',
    () => import('fastest-levenshtein'),
  );
  try {
    return new ReplayBook(parseRecording(text).messages, distance);
  } catch (error) {
    throw new CliError(`${file}: ${(error as Error).message}`);
  }
}

/**
 * Answers each request line on stdin; ends when stdin ends and every answer is out, or
 * when stdout is closed (the client went away: EPIPE). A line over {@link MAX_LINE_BYTES},
 * not JSON or nested too deep gets a JSON-RPC error without an id (the schema's
 * `JSONRPCErrorResponse` allows no `null` id) naming its line number; an invalid message gets
 * the -32600 a real server sends.
 */
function serveReplayStdio(book: ReplayBook): Promise<void> {
  const asks = new Asks();
  const decoder = new LineDecoder({ maxLineBytes: MAX_LINE_BYTES });
  let gone = false;
  const send = (message: Record<string, unknown>): void => {
    if (!gone) process.stdout.write(`${JSON.stringify(message)}\n`);
  };
  const refuse = (code: 'ParseError' | 'InvalidRequest', text: string): void =>
    send({ jsonrpc: '2.0', error: WireError.of(code, `replay: ${text}`).toJSON() });
  const inFlight = new Set<Promise<void>>();
  const counter = { line: 1 };
  let lineNumber = 0;
  const onLine = (line: string): void => {
    let parsed: unknown;
    try {
      parsed = parseBoundedJson(line);
    } catch (error) {
      return refuse('ParseError', `line ${lineNumber} is ${(error as Error).message}`);
    }
    const frame = frameOf(parsed, asks);
    for (const refusal of frame.refusals) send(refusal);
    for (const request of frame.requests) {
      const run = play(book.answer(request), send, asks);
      inFlight.add(run);
      void run.finally(() => inFlight.delete(run));
    }
  };
  return new Promise((resolve) => {
    process.stdout.on('error', () => {
      gone = true;
      process.stdin.pause();
      resolve();
    });
    process.stdin.on('data', (chunk: Buffer) => {
      for (const { event, line } of numberedEvents(decoder, chunk, counter)) {
        lineNumber = line;
        if (event.kind === 'line') onLine(event.text);
        else refuse('InvalidRequest', `line ${line} is over ${event.maxLineBytes} bytes; dropped`);
      }
    });
    process.stdin.once('end', () => void Promise.all(inFlight).then(() => resolve()));
  });
}

/**
 * The decoder's events for `chunk`, each with the number of the stdin line it came from
 * (blank lines counted): the chunk is fed one line at a time, `at.line` carried over.
 */
function numberedEvents(
  decoder: LineDecoder,
  chunk: Buffer,
  at: { line: number },
): { event: LineEvent; line: number }[] {
  const out: { event: LineEvent; line: number }[] = [];
  let start = 0;
  while (start < chunk.length) {
    const nl = chunk.indexOf(0x0a, start);
    const end = nl === -1 ? chunk.length : nl + 1;
    for (const event of decoder.push(chunk.subarray(start, end))) out.push({ event, line: at.line });
    if (nl !== -1) at.line++;
    start = end;
  }
  return out;
}
