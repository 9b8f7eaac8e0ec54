/**
 * A minimal reader for `text/event-stream` bodies: yields the JSON of each event's
 * `data` field. Enough for MCP streams (one JSON-RPC message per event).
 * Source: WHATWG HTML "Server-sent events" (the parts MCP servers use).
 */

/** Splits SSE text into events incrementally; `push` returns the messages completed so far. */
export class SseReader {
  #buffer = '';

  /** Feeds a chunk; returns the parsed `data` of each event it completed. */
  push(text: string): unknown[] {
    this.#buffer += text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
    const out: unknown[] = [];
    let end = this.#buffer.indexOf('\n\n');
    while (end !== -1) {
      const data = dataOf(this.#buffer.slice(0, end));
      if (data !== '') out.push(JSON.parse(data));
      this.#buffer = this.#buffer.slice(end + 2);
      end = this.#buffer.indexOf('\n\n');
    }
    return out;
  }
}

/** The joined `data:` lines of one event block. */
function dataOf(block: string): string {
  const lines: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('data:')) lines.push(line.slice(line.startsWith('data: ') ? 6 : 5));
  }
  return lines.join('\n');
}
