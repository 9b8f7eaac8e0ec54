/**
 * The recording format of `mcpkit record`, `mcpkit replay` and the inspector's history
 * export: JSON Lines, a header line, then one line per JSON-RPC message in the order it
 * crossed (docs/guide/record-replay.md). Secrets are redacted before anything is written.
 */

import { parseBoundedJson } from '../json-file.js';

/** The first line of a recording. */
export interface RecordingHeader {
  mcpkitRecording: 1;
  /** How the exchange was carried. */
  transport: 'stdio' | 'http';
  /** The server: its command line or URL (credentials never included). */
  server: string;
  /** When the recording started (ISO 8601). */
  recordedAt: string;
}

/** One recorded message: who sent it, when (ms after the start), and the message or batch. */
export interface RecordedMessage {
  at: number;
  from: 'client' | 'server';
  message: unknown;
  /** HTTP only: the request's method and headers, or the response's status and headers. */
  http?: { method?: string; status?: number; headers: Record<string, string> };
}

/** What stands in for a redacted value. */
const REDACTED = '[redacted]';

/** Key names (lowercase, `-` and `_` removed) whose values are secrets wherever they appear. */
const SECRET_KEY =
  /(password|passwd|secret|apikey|accesskey|authorization|cookie|credential|privatekey|sessionkey|bearer)/;
/** Keys that end in "token" but are not secrets. */
const NOT_SECRET = new Set(['progresstoken']);
/** Secrets recognisable by their shape, wherever they appear in a string. */
const SECRET_TEXT: readonly [RegExp, string][] = [
  [/\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/gi, `Bearer ${REDACTED}`],
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, REDACTED],
  [/\b(sk|pk|rk)[-_](live[-_]|test[-_]|proj[-_])?[A-Za-z0-9]{16,}/g, REDACTED],
  [/\b(ghp|gho|ghu|ghs|github_pat|xox[abprs]|glpat)[-_][A-Za-z0-9_-]{10,}/g, REDACTED],
];
/** Nesting past this is replaced by a note (recordings are read back with bounds too). */
const MAX_DEPTH = 64;

/** True for a key (JSON member or header name) whose value must not be recorded. */
function isSecretKey(key: string): boolean {
  const k = key.toLowerCase().replace(/[-_]/g, '');
  if (NOT_SECRET.has(k)) return false;
  return k === 'token' || k.endsWith('token') || SECRET_KEY.test(k);
}

/** A copy of `value` with secret members and secret-looking strings replaced by {@link REDACTED}. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      isSecretKey(k) && v !== null && v !== '' ? REDACTED : redact(v, depth + 1),
    ]),
  );
}

function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
  return out;
}

/** Headers with secret ones (Authorization, Cookie, API keys, …) redacted; names lowercased. */
export function redactHeaders(headers: Iterable<[string, string]>): Record<string, string> {
  const out: [string, string][] = [];
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    out.push([lower, isSecretKey(lower) ? REDACTED : redactText(value)]);
  }
  return Object.fromEntries(out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The JSON Lines text of a recording. */
export function recordingText(header: RecordingHeader, messages: readonly RecordedMessage[]): string {
  return [header, ...messages].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

/** A recorded line for `message`, redacted. */
export function recordedLine(entry: RecordedMessage): RecordedMessage {
  const line: RecordedMessage = { at: entry.at, from: entry.from, message: redact(entry.message) };
  if (entry.http) line.http = entry.http;
  return line;
}

/** Most lines `parseRecording` reads. */
const MAX_LINES = 1_000_000;
/** Longest line `parseRecording` reads, in bytes (`mcpkit record` writes none longer). */
const MAX_RECORDING_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Reads a recording's text. Blank lines are skipped; line numbers in errors count them.
 * @throws Error naming the line that is too long, not JSON, nested too deep or not a
 *   recorded message, or saying the text is empty or has no header.
 */
export function parseRecording(text: string): { header: RecordingHeader; messages: RecordedMessage[] } {
  const lines = text
    .split('\n')
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => line.trim() !== '');
  if (lines.length > MAX_LINES) throw new Error(`more than ${MAX_LINES} lines`);
  const [first, ...rest] = lines;
  if (!first)
    throw new Error('the file is empty: a recording starts with a header line ({"mcpkitRecording":1,…})');
  const header = parseLine(first.line, first.n) as Partial<RecordingHeader> | null;
  if (header === null || typeof header !== 'object' || !('mcpkitRecording' in header))
    throw new Error(`line ${first.n} is not a recording header ({"mcpkitRecording":1,…})`);
  if (header.mcpkitRecording !== 1)
    throw new Error(
      `line ${first.n}: recording format ${JSON.stringify(header.mcpkitRecording)} is not supported (this mcpkit reads format 1)`,
    );
  const messages = rest.map(({ line, n }) => recordedMessage(parseLine(line, n), n));
  return { header: header as RecordingHeader, messages };
}

function parseLine(line: string, n: number): unknown {
  if (Buffer.byteLength(line) > MAX_RECORDING_LINE_BYTES)
    throw new Error(`line ${n} is over ${MAX_RECORDING_LINE_BYTES} bytes`);
  try {
    return parseBoundedJson(line);
  } catch (error) {
    throw new Error(`line ${n} is ${(error as Error).message}`);
  }
}

function recordedMessage(value: unknown, n: number): RecordedMessage {
  const entry = value as Partial<RecordedMessage> | null;
  if (
    entry === null ||
    typeof entry !== 'object' ||
    (entry.from !== 'client' && entry.from !== 'server') ||
    typeof entry.message !== 'object'
  )
    throw new Error(`line ${n} is not a recorded message ({"from":"client"|"server","message":…})`);
  const kept: RecordedMessage = {
    at: typeof entry.at === 'number' ? entry.at : 0,
    from: entry.from,
    message: entry.message,
  };
  if (entry.http && typeof entry.http === 'object') kept.http = entry.http;
  return kept;
}
