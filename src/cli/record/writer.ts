/** Writing a recording file: the header line, then one redacted line per message. */
import { createWriteStream, type WriteStream } from 'node:fs';
import { recordedLine, type RecordedMessage, type RecordingHeader } from './format.js';

/** Appends redacted lines to a recording file. */
export class RecordingWriter {
  readonly #stream: WriteStream;
  readonly #started = Date.now();

  constructor(path: string, header: Omit<RecordingHeader, 'mcpkitRecording' | 'recordedAt'>) {
    this.#stream = createWriteStream(path, { flags: 'w' });
    const first: RecordingHeader = {
      mcpkitRecording: 1,
      ...header,
      recordedAt: new Date(this.#started).toISOString(),
    };
    this.#stream.write(`${JSON.stringify(first)}\n`);
  }

  /** Records one message (parsed from `text`; text that is not JSON is kept as a note). */
  write(from: RecordedMessage['from'], text: string, http?: RecordedMessage['http']): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      message = { note: 'not JSON', text: text.slice(0, 200) };
    }
    const entry: RecordedMessage = { at: Date.now() - this.#started, from, message };
    if (http) entry.http = http;
    this.#stream.write(`${JSON.stringify(recordedLine(entry))}\n`);
  }

  /** Flushes and closes the file. */
  close(): Promise<void> {
    return new Promise((resolve) => this.#stream.end(resolve));
  }
}
