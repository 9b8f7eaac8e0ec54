/**
 * `Accept` header matching: media ranges with parameters, `q` weights and wildcards.
 * Source: RFC 9110 §12.5.1 (Accept); 2026-07-28 basic/transports/streamable-http
 * "Sending Messages" (the client lists application/json and text/event-stream).
 */

/** One media range of an `Accept` header: lower-cased type and subtype, weight 0 to 1. */
interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/** Splits on `sep` outside double-quoted strings (parameter values may be quoted). */
function splitOutsideQuotes(text: string, sep: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' && text[i - 1] !== '\\') quoted = !quoted;
    else if (c === sep && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function parseRange(text: string): MediaRange | undefined {
  const [range = '', ...params] = splitOutsideQuotes(text, ';').map((p) => p.trim());
  const [type, subtype, extra] = range.toLowerCase().split('/');
  if (!type || !subtype || extra !== undefined) return undefined;
  let q = 1;
  for (const param of params) {
    const [name = '', value = ''] = param.split('=').map((s) => s.trim());
    if (name.toLowerCase() !== 'q') continue;
    const weight = Number(value);
    q = value !== '' && weight >= 0 && weight <= 1 ? weight : 1;
  }
  return { type, subtype, q };
}

/** Parses an `Accept` header into its media ranges; malformed ranges are skipped. */
function parseAccept(header: string | null): MediaRange[] {
  if (header === null) return [];
  return splitOutsideQuotes(header, ',')
    .map((part) => parseRange(part))
    .filter((range): range is MediaRange => range !== undefined);
}

function specificity(range: MediaRange, type: string, subtype: string): number {
  if (range.type === type && range.subtype === subtype) return 3;
  if (range.type === type && range.subtype === '*') return 2;
  if (range.type === '*' && range.subtype === '*') return 1;
  return 0;
}

/**
 * True when `header` accepts `mediaType` (e.g. `text/event-stream`): the most specific
 * matching range decides, and `q=0` refuses. A missing header accepts nothing here,
 * because MCP requires clients to send one.
 */
export function accepts(header: string | null, mediaType: string): boolean {
  // Clients send the same Accept header on every request: the last answer per media type
  // is compared first (no key to build or hash), then a bounded table of answers.
  const last = lastAnswer.get(mediaType);
  if (last !== undefined && last.header === header) return last.answer;
  const key = `${mediaType}\n${header ?? ''}`;
  let answer = remembered.get(key);
  if (answer === undefined) {
    answer = negotiate(header, mediaType);
    if (remembered.size >= 256) remembered.clear();
    remembered.set(key, answer);
  }
  if (last !== undefined || lastAnswer.size < 16) lastAnswer.set(mediaType, { header, answer });
  return answer;
}

const remembered = new Map<string, boolean>();
const lastAnswer = new Map<string, { header: string | null; answer: boolean }>();

function negotiate(header: string | null, mediaType: string): boolean {
  const [type = '', subtype = ''] = mediaType.toLowerCase().split('/');
  let best: MediaRange | undefined;
  let bestRank = 0;
  for (const range of parseAccept(header)) {
    const rank = specificity(range, type, subtype);
    if (rank > bestRank || (rank === bestRank && rank > 0 && best && range.q > best.q)) {
      best = range;
      bestRank = rank;
    }
  }
  return best !== undefined && best.q > 0;
}
