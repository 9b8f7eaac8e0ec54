/**
 * Output on a server's stdout that is not JSON-RPC. A stdio server MUST NOT write it
 * (2026-07-28 basic/transports/stdio), but launchers and careless servers do: `npx -y`
 * prints `npm warn exec …` before the server starts, and many servers print a banner
 * ("Weather MCP Server running on stdio"). The client skips such lines, before and after
 * the handshake, keeps the last ones for error messages and tools, and gives up once a
 * run of them without any message grows past a bound, so a server that writes only junk
 * fails quickly and says what it wrote.
 */

/** Most lines of non-protocol output in a row, without a message between them, before the connection fails. */
const MAX_NOISE_LINES = 100;
/** Most bytes (UTF-16 code units, as received) of non-protocol output in a row before the connection fails. */
const MAX_NOISE_CHARS = 64 * 1024;
/** How many of the latest non-protocol lines are kept, and how long each may be. */
const KEPT_LINES = 20;
const KEPT_CHARS = 500;

const OPEN_BRACE = 0x7b; // {
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACKET = 0x5d; // ]

/**
 * True when `line` may be a JSON-RPC message or batch: it starts (after blanks) with `{`,
 * or with `[` followed by `{` or `]`. A log line such as `[INFO] ready` is not. Looks at
 * a few characters only; the Peer parses what passes, and reports what is then invalid.
 */
export function mayBeProtocol(line: string): boolean {
  let i = skipBlanks(line, 0);
  const first = line.charCodeAt(i);
  if (first === OPEN_BRACE) return true;
  if (first !== OPEN_BRACKET) return false;
  i = skipBlanks(line, i + 1);
  const next = line.charCodeAt(i);
  return next === OPEN_BRACE || next === CLOSE_BRACKET;
}

function skipBlanks(line: string, from: number): number {
  let i = from;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  return i;
}

/** How many places a message may start at that {@link splitPrefixedMessage} tries, at most. */
const MAX_MESSAGE_STARTS = 8;
const CLOSE_BRACE = 0x7d; // }

/**
 * A non-protocol line that ends with a whole JSON-RPC message written straight after some
 * other output with no newline between them (`Loading...{"jsonrpc":"2.0","id":1,...}`):
 * the output before it and the message's text, or undefined when the line is not one.
 * Called only for lines {@link mayBeProtocol} rejected. Bounded: a line that does not end
 * with `}` or never names `"jsonrpc"` costs one scan; otherwise at most 8 places where an
 * object starts (`{` then `"`, in order) are parsed, the first whose rest of the line is
 * a JSON-RPC object (`jsonrpc: "2.0"`) winning — the outermost, since it starts first.
 */
export function splitPrefixedMessage(line: string): { prefix: string; message: string } | undefined {
  const text = line.trimEnd();
  if (text.charCodeAt(text.length - 1) !== CLOSE_BRACE || !text.includes('"jsonrpc"')) return undefined;
  let from = 0;
  for (let tries = 0; tries < MAX_MESSAGE_STARTS; tries++) {
    const start = text.indexOf('{', from);
    if (start <= 0) return undefined; // none left, or the line starts with it (not a prefix)
    from = start + 1;
    if (text.charCodeAt(skipBlanks(text, from)) !== 0x22) continue; // not `{"…`: no JSON-RPC object
    const message = text.slice(start);
    if (isJsonRpcObject(message)) return { prefix: text.slice(0, start), message };
  }
  return undefined;
}

function isJsonRpcObject(text: string): boolean {
  try {
    const value = JSON.parse(text) as { jsonrpc?: unknown } | null;
    return typeof value === 'object' && value !== null && value.jsonrpc === '2.0';
  } catch {
    return false;
  }
}

/** Counts the current run of non-protocol lines and keeps the latest ones. */
export class StdoutNoise {
  readonly #recent: string[] = [];
  #runLines = 0;
  #runChars = 0;

  /** Records one non-protocol line; true when the run has now passed its bound. */
  note(line: string): boolean {
    this.#recent.push(line.length > KEPT_CHARS ? `${line.slice(0, KEPT_CHARS)}…` : line);
    if (this.#recent.length > KEPT_LINES) this.#recent.shift();
    this.#runLines += 1;
    this.#runChars += line.length;
    return this.#runLines > MAX_NOISE_LINES || this.#runChars > MAX_NOISE_CHARS;
  }

  /** A message arrived: the run of noise ends (the kept lines stay). */
  endRun(): void {
    if (this.#runLines !== 0) {
      this.#runLines = 0;
      this.#runChars = 0;
    }
  }

  /** The latest non-protocol lines, oldest first (at most 20, each cut at 500 characters). */
  recent(): string[] {
    return [...this.#recent];
  }

  /** The error text once the bound is passed: how much, and the last lines. */
  describeRun(command: string): string {
    return (
      `MCP server "${command}" wrote ${this.#runLines} lines (${this.#runChars} characters) on stdout ` +
      `that are not JSON-RPC in a row, with no message between them; the last: ${quoteLines(this.#recent.slice(-3))}`
    );
  }
}

/** Up to three lines, quoted, for an error message. */
export function quoteLines(lines: readonly string[]): string {
  return lines.map((line) => JSON.stringify(line.slice(0, 200))).join(', ');
}
