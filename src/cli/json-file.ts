/**
 * Reading the JSON files the CLI is given (contract snapshots, recordings, package.json):
 * size and nesting bounded before anything walks the value, so a file of 50 000 nested
 * arrays is refused with a message instead of overflowing the stack somewhere later.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { DEFAULT_MAX_JSON_DEPTH, nestedDeeperThan } from '../core/runtime.js';
import { CliError } from './errors.js';

/** Deepest nesting of arrays and objects accepted in a file the CLI reads. */
const MAX_FILE_JSON_DEPTH = DEFAULT_MAX_JSON_DEPTH;

/**
 * Parses `text`, refusing nesting deeper than {@link MAX_FILE_JSON_DEPTH}.
 * @throws Error saying why (not JSON, with the parser's reason; or too deep).
 */
export function parseBoundedJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`not JSON (${(error as Error).message})`);
  }
  if (nestedDeeperThan(text, MAX_FILE_JSON_DEPTH))
    throw new Error(`nested deeper than ${MAX_FILE_JSON_DEPTH} levels`);
  return value;
}

/**
 * Reads `path` as UTF-8 of at most `maxBytes` and parses it with {@link parseBoundedJson}.
 * @throws CliError naming the file and what is wrong with it.
 */
export async function readJsonFile(path: string, maxBytes: number): Promise<unknown> {
  const text = await readTextFile(path, maxBytes);
  try {
    return parseBoundedJson(text);
  } catch (error) {
    throw new CliError(`${path} is ${(error as Error).message}`);
  }
}

/**
 * The text of `path`, at most `maxBytes`: never more than `maxBytes + 1` bytes are read, so a
 * huge file, a device such as /dev/zero or a FIFO that never ends costs no more than the bound.
 * @throws CliError naming the file: unreadable, a directory, or over `maxBytes`.
 */
export async function readTextFile(path: string, maxBytes: number): Promise<string> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, 1 << 20));
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw new CliError(`${path} is over ${maxBytes} bytes`);
      chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  } finally {
    await file.close();
  }
}
