/**
 * The inspector's Network view, server side: every HTTP exchange of the Streamable HTTP
 * client transport (seen through the transport's documented `fetch` option, so the client
 * itself is untouched and nothing runs when the inspector is not used), and every stdio line
 * with its direction and size. Secrets are redacted as in recordings (record/format.ts).
 * Error classes are the names of the spec's error table (core ERROR_TABLE, 2026-07-28
 * basic/index "Error Codes", basic/transports/streamable-http "Server Validation").
 */
import { createParser } from 'eventsource-parser';
import { ERROR_TABLE } from '../../core/index.js';
import { redact, redactHeaders } from '../record/format.js';

/** One HTTP request and its response, as the Network view shows it. */
export interface HttpExchange {
  kind: 'http';
  id: number;
  /** When the request was sent, ms since the epoch. */
  at: number;
  method: string;
  url: string;
  /** Request headers, names lowercased, secrets redacted. */
  requestHeaders: Record<string, string>;
  /** The MCP headers of the request (and the session id of either side). */
  mcp: {
    protocolVersion?: string;
    method?: string;
    name?: string;
    params: Record<string, string>;
    sessionId?: string;
  };
  requestBody?: unknown;
  /** What the request body carries: its JSON-RPC method(s), or `response <id>`. */
  message?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  /** A JSON body, or the data of the first SSE events; secrets redacted. */
  responseBody?: unknown;
  /** Milliseconds until the response headers arrived. */
  durationMs?: number;
  /** Milliseconds until the body ended (SSE streams end later than their headers). */
  endedMs?: number;
  /** The `id` of each SSE event, in order (`''` for an event without one). */
  sseEventIds: string[];
  /** Names from the spec's error table matching the status and the JSON-RPC error codes. */
  errorClasses: string[];
  /** Why the request did not get a response (network failure, aborted). */
  failure?: string;
}

/** One line of a stdio connection. */
export interface StdioLine {
  kind: 'stdio';
  id: number;
  at: number;
  direction: 'in' | 'out';
  /** Size of the line in UTF-8 bytes, newline excluded. */
  bytes: number;
  /** The method, `response <id>` or `error <id>`, or `not JSON-RPC`. */
  summary: string;
  errorClasses: string[];
}

/** An entry of the Network view. */
export type NetworkEntry = HttpExchange | StdioLine;

/** Entries kept (the oldest go first). */
const MAX_ENTRIES = 2000;
/** SSE events whose data is kept per exchange (their ids are all kept, up to MAX_IDS). */
const KEPT_EVENTS = 20;
const MAX_IDS = 1000;
/** Larger bodies are noted, not kept. */
const MAX_BODY_CHARS = 64 * 1024;

const entries = Object.entries(ERROR_TABLE) as [string, { code: number; httpStatus: number }][];

/**
 * The error table's names for an HTTP `status` (when it is not 2xx) and a JSON-RPC error
 * `code`: the names matching both when some do, else those matching the one given.
 */
export function errorClasses(status: number | undefined, code: number | undefined): string[] {
  const byStatus =
    status !== undefined && status >= 300 ? entries.filter(([, e]) => e.httpStatus === status) : [];
  const byCode = code === undefined ? [] : entries.filter(([, e]) => e.code === code);
  const both = byCode.filter(([, e]) => byStatus.length === 0 || e.httpStatus === status);
  const chosen = both.length > 0 ? both : byCode.length > 0 ? byCode : byStatus;
  return chosen.map(([name]) => name);
}

function parseBody(text: string): unknown {
  if (text.length > MAX_BODY_CHARS) return { note: `body of ${text.length} characters not kept` };
  try {
    return redact(JSON.parse(text) as unknown);
  } catch {
    return redact(text);
  }
}

/** The JSON-RPC error codes in a message or batch. */
function errorCodes(message: unknown): number[] {
  const list = Array.isArray(message) ? message : [message];
  return list.flatMap((m) => {
    const code = (m as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'number' ? [code] : [];
  });
}

function pairs(headers: Headers): [string, string][] {
  const out: [string, string][] = [];
  headers.forEach((value, name) => out.push([name, value]));
  return out;
}

const header = (headers: Headers, name: string) => headers.get(name) ?? undefined;

function mcpHeaders(request: Headers, response?: Headers): HttpExchange['mcp'] {
  const params: Record<string, string> = {};
  request.forEach((value, name) => {
    if (name.toLowerCase().startsWith('mcp-param-')) params[name.slice('mcp-param-'.length)] = value;
  });
  const fields = {
    protocolVersion: header(request, 'mcp-protocol-version'),
    method: header(request, 'mcp-method'),
    name: header(request, 'mcp-name'),
    sessionId: header(request, 'mcp-session-id') ?? (response && header(response, 'mcp-session-id')),
  };
  const defined = Object.entries(fields).filter(([, v]) => v !== undefined);
  return { ...Object.fromEntries(defined), params };
}

/** A message (or batch) in a word: its method, `response <id>` or `error <id>`. */
function summaryOf(message: unknown): string {
  if (Array.isArray(message)) return message.map(summaryOf).join(', ');
  const m = message as { method?: unknown; id?: unknown; error?: unknown; note?: unknown } | null;
  if (typeof m?.note === 'string') return m.note;
  if (typeof m?.method === 'string') return m.method;
  return `${m?.error === undefined ? 'response' : 'error'} ${JSON.stringify(m?.id ?? null)}`;
}

/** The Network view's log: a fetch for the HTTP transport, and stdio lines. */
export class NetworkLog {
  readonly #entries: NetworkEntry[] = [];
  readonly #readers = new Set<AbortController>();
  #next = 1;
  readonly #onEntry: (entry: NetworkEntry) => void;

  /** `onEntry` is called with each new entry and again each time an exchange changes. */
  constructor(onEntry: (entry: NetworkEntry) => void) {
    this.#onEntry = onEntry;
  }

  /** The kept entries, oldest first. */
  list(): readonly NetworkEntry[] {
    return this.#entries;
  }

  /** Forgets every entry and stops reading the streams still open (on a new connection). */
  clear(): void {
    this.stop();
    this.#entries.length = 0;
  }

  /** Stops reading the copies of the response streams still open. */
  stop(): void {
    for (const reader of this.#readers) reader.abort();
    this.#readers.clear();
  }

  #add(entry: NetworkEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length > MAX_ENTRIES) this.#entries.shift();
    this.#onEntry(entry);
  }

  /** Records a stdio line of `bytes` bytes carrying `message`; `direction` `out` is to the server. */
  line(direction: 'in' | 'out', bytes: number, message: unknown): void {
    const summary = summaryOf(message);
    const codes = errorCodes(message);
    this.#add({
      kind: 'stdio',
      id: this.#next++,
      at: Date.now(),
      direction,
      bytes,
      summary,
      errorClasses: codes.flatMap((code) => errorClasses(undefined, code)),
    });
  }

  /** A fetch that records each exchange made through it, then calls `base`. */
  fetch(base: typeof fetch = globalThis.fetch): typeof fetch {
    return async (input, init) => {
      // Read from `input` and `init` without consuming either: `base` gets them as they came.
      const request = {
        method: init?.method ?? (input instanceof Request ? input.method : 'GET'),
        url: input instanceof Request ? input.url : String(input),
        headers: new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)),
      };
      const body = typeof init?.body === 'string' ? parseBody(init.body) : undefined;
      const exchange: HttpExchange = {
        kind: 'http',
        id: this.#next++,
        at: Date.now(),
        method: request.method,
        url: request.url,
        requestHeaders: redactHeaders(pairs(request.headers)),
        mcp: mcpHeaders(request.headers),
        ...(body === undefined ? {} : { requestBody: body, message: summaryOf(body) }),
        sseEventIds: [],
        errorClasses: [],
      };
      this.#add(exchange);
      const started = performance.now();
      let response: Response;
      try {
        response = await base(input, init);
      } catch (error) {
        exchange.failure = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        exchange.durationMs = Math.round(performance.now() - started);
        this.#onEntry(exchange);
        throw error;
      }
      exchange.status = response.status;
      exchange.durationMs = Math.round(performance.now() - started);
      exchange.responseHeaders = redactHeaders(pairs(response.headers));
      exchange.mcp = mcpHeaders(request.headers, response.headers);
      exchange.errorClasses = errorClasses(response.status, undefined);
      this.#onEntry(exchange);
      if (response.body)
        this.#readCopy(exchange, response.clone(), { started, signal: init?.signal ?? undefined });
      return response;
    };
  }

  /** Reads a copy of the response body: JSON kept, SSE event ids and first events kept. */
  #readCopy(
    exchange: HttpExchange,
    copy: Response,
    { started, signal }: { started: number; signal: AbortSignal | undefined },
  ): void {
    const stop = new AbortController();
    this.#readers.add(stop);
    const abort = () => stop.abort();
    signal?.addEventListener('abort', abort, { once: true });
    const sse = (copy.headers.get('content-type') ?? '').includes('text/event-stream');
    const events: unknown[] = [];
    const codes: number[] = [];
    const parser = createParser({
      onEvent: (event) => {
        if (exchange.sseEventIds.length < MAX_IDS) exchange.sseEventIds.push(event.id ?? '');
        const data = parseBody(event.data);
        codes.push(...errorCodes(data));
        if (events.length < KEPT_EVENTS) events.push(data);
        exchange.responseBody = events;
        this.#onEntry(exchange);
      },
    });
    void (async () => {
      let text = '';
      const reader = copy.body!.pipeThrough(new TextDecoderStream()).getReader();
      stop.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), {
        once: true,
      });
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (sse) parser.feed(value);
        else if (text.length <= MAX_BODY_CHARS) text += value;
      }
      if (!sse && text !== '') {
        exchange.responseBody = parseBody(text);
        codes.push(...errorCodes(exchange.responseBody));
      }
    })()
      .catch(() => undefined)
      .finally(() => {
        signal?.removeEventListener('abort', abort);
        this.#readers.delete(stop);
        exchange.endedMs = Math.round(performance.now() - started);
        const named = [...new Set(codes)].flatMap((code) => errorClasses(exchange.status, code));
        if (named.length > 0) exchange.errorClasses = [...new Set(named)];
        this.#onEntry(exchange);
      });
  }
}
