/**
 * `mcpkit replay FILE`: serves a recording as a mock server, on stdio or (with `--port`)
 * on Streamable HTTP. Each request is answered from the {@link ReplayBook}; a recorded
 * server request is sent with a fresh id and the replay waits for the client's answer.
 */
import { readFile } from 'node:fs/promises';
import { WireError } from '../../core/index.js';
import { LineDecoder } from '../../core/runtime.js';
import { CliError } from '../errors.js';
import type { Front } from '../host-args.js';
import { parseRecording } from '../record/format.js';
import { signalled } from '../signals.js';
import { ReplayBook } from './book.js';
import { Asks, messagesOf, play } from './play.js';

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
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (text.length > MAX_RECORDING_BYTES) throw new CliError(`${file} is over ${MAX_RECORDING_BYTES} bytes`);
  try {
    return new ReplayBook(parseRecording(text).messages);
  } catch (error) {
    throw new CliError(`${file}: ${(error as Error).message}`);
  }
}

function serveReplayStdio(book: ReplayBook): Promise<void> {
  const asks = new Asks();
  const decoder = new LineDecoder({ maxLineBytes: MAX_LINE_BYTES });
  const send = (message: Record<string, unknown>): void =>
    void process.stdout.write(`${JSON.stringify(message)}\n`);
  const inFlight = new Set<Promise<void>>();
  const onLine = (line: string): void => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return send({ jsonrpc: '2.0', id: null, error: WireError.of('ParseError', 'not JSON').toJSON() });
    }
    for (const message of messagesOf(parsed)) {
      if (asks.answered(message) || typeof message.method !== 'string' || message.id === undefined) continue;
      const run = play(
        book.answer({ id: message.id, method: message.method, params: message.params }),
        send,
        asks,
      );
      inFlight.add(run);
      void run.finally(() => inFlight.delete(run));
    }
  };
  return new Promise((resolve) => {
    process.stdin.on('data', (chunk: Buffer) => {
      for (const event of decoder.push(chunk)) if (event.kind === 'line') onLine(event.text);
    });
    process.stdin.once('end', () => void Promise.all(inFlight).then(() => resolve()));
  });
}
