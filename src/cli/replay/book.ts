/**
 * What `mcpkit replay` answers: every request of a recording with what the server sent for
 * it (related notifications, its own requests, then the answer), looked up by method and
 * normalised params. Pure: messages in, steps out.
 */
import { WireError } from '../../core/index.js';
import { redact, type RecordedMessage } from '../record/format.js';

/**
 * One thing to send for a request, in order. An `ask` waits for the client's answer; an
 * `after` is a notification the server sent once the answer was out and before the client's
 * next request (legacy: on the GET stream or stdio, outside any request).
 */
export type Step = { kind: 'notify' | 'ask' | 'reply' | 'after'; message: Record<string, unknown> };

const LISTEN = 'subscriptions/listen';
const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/** A request as the replay sees it. */
export interface Asked {
  id: unknown;
  method: string;
  params?: unknown;
}

/** A recorded request not answered yet, while the recording is read. */
interface Open {
  key: string;
  method: string;
  params: unknown;
  token: unknown;
  steps: Step[];
}

/** The recorded requests of one key, answered in order (the last one repeats). */
interface Entry {
  method: string;
  params: unknown;
  scripts: Step[][];
  next: number;
}

/** `_meta` keys that differ from one client or one call to the next. */
const VOLATILE_META = new Set([
  'progressToken',
  'io.modelcontextprotocol/clientInfo',
  'io.modelcontextprotocol/clientCapabilities',
  'traceparent',
  'tracestate',
  'baggage',
]);
/** Longest params text shown in an unknown request's error (message and data). */
const MAX_SHOWN_CHARS = 300;
/** Longest method name shown in that error. */
const MAX_SHOWN_METHOD = 100;
/** Longest key text compared for the nearest recorded request. */
const MAX_COMPARED_CHARS = 4000;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** JSON text with sorted keys. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    isObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * The params a request is matched by: redacted as recordings are, without `requestState`
 * or the volatile `_meta` keys; `initialize` by its protocol version only.
 */
function matchingParams(method: string, params: unknown): unknown {
  if (!isObject(params)) return params ?? {};
  if (method === 'initialize') return { protocolVersion: params.protocolVersion };
  const out = redact(params) as Json;
  delete out.requestState;
  if (isObject(out._meta)) {
    const meta = Object.fromEntries(Object.entries(out._meta).filter(([k]) => !VOLATILE_META.has(k)));
    if (Object.keys(meta).length === 0) delete out._meta;
    else out._meta = meta;
  }
  return out;
}

function keyOf(method: string, params: unknown): string {
  return canonical({ method, params: matchingParams(method, params) });
}

function subscriptionOf(params: unknown): unknown {
  return isObject(params) && isObject(params._meta) ? params._meta[SUBSCRIPTION_ID] : undefined;
}

function progressTokenOf(params: unknown): unknown {
  return isObject(params) && isObject(params._meta) ? params._meta.progressToken : undefined;
}

/** Levenshtein distance between two strings (edits to turn one into the other). */
type EditDistance = (a: string, b: string) => number;

/** The recording's requests and answers; {@link ReplayBook.answer} is deterministic. */
export class ReplayBook {
  readonly #entries = new Map<string, Entry>();
  readonly #distance: EditDistance;

  /**
   * Reads the recorded messages in order; a request never answered is left out. `distance`
   * ranks recorded requests for the "nearest recorded" hint (fastest-levenshtein's, which
   * the replay command loads: an optional dependency).
   */
  constructor(messages: readonly RecordedMessage[], distance: EditDistance) {
    this.#distance = distance;
    const open = new Map<string, Open>();
    for (const { from, message } of messages) {
      for (const m of Array.isArray(message) ? message : [message]) {
        if (!isObject(m)) continue;
        if (from === 'client') {
          if (typeof m.method === 'string' && m.id !== undefined)
            open.set(canonical(m.id), {
              key: keyOf(m.method, m.params),
              method: m.method,
              params: m.params,
              token: progressTokenOf(m.params),
              steps: [],
            });
          continue;
        }
        this.#serverMessage(m, open);
      }
    }
    // A listen stream the client closed has no answer: its notifications are its script.
    for (const request of open.values()) if (request.method === LISTEN) this.#commit(request);
  }

  #last: Step[] | undefined;

  #commit(request: Open): void {
    const entry = this.#entries.get(request.key) ?? {
      method: request.method,
      params: request.params,
      scripts: [],
      next: 0,
    };
    entry.scripts.push(request.steps);
    this.#entries.set(request.key, entry);
    this.#last = request.steps;
  }

  /**
   * A server message: an answer closes its request; a message with the progress token or
   * the subscription id of an open request belongs to it; another one belongs to the latest
   * open request other than a listen, or, with none open, follows the latest answer.
   */
  #serverMessage(m: Json, open: Map<string, Open>): void {
    if (typeof m.method !== 'string') {
      const request = m.id === undefined ? undefined : open.get(canonical(m.id));
      if (!request) return;
      open.delete(canonical(m.id));
      request.steps.push({ kind: 'reply', message: m });
      return this.#commit(request);
    }
    const token = progressTokenOf(m.params) ?? (isObject(m.params) ? m.params.progressToken : undefined);
    const subscription = subscriptionOf(m.params);
    const all = [...open.values()];
    const owner =
      all.find((r) => token !== undefined && canonical(r.token) === canonical(token)) ??
      (subscription === undefined ? undefined : open.get(canonical(subscription))) ??
      all.filter((r) => r.method !== LISTEN).at(-1);
    if (owner) owner.steps.push({ kind: m.id === undefined ? 'notify' : 'ask', message: m });
    else if (m.id === undefined && subscription === undefined)
      this.#last?.push({ kind: 'after', message: m });
  }

  /** How many distinct requests were recorded. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The steps answering `request`, with its id and progress token put in. The Nth identical
   * request gets the Nth recorded answer; later ones get the last again.
   * An unknown request gets one `reply` with an error naming the nearest recorded request.
   */
  answer(request: Asked): Step[] {
    const entry = this.#entries.get(keyOf(request.method, request.params));
    if (!entry)
      return [
        {
          kind: 'reply',
          message: { jsonrpc: '2.0', id: request.id, error: this.#unknown(request).toJSON() },
        },
      ];
    const script = entry.scripts[Math.min(entry.next, entry.scripts.length - 1)] ?? [];
    entry.next++;
    const token = progressTokenOf(request.params);
    return script.map((step) => ({ kind: step.kind, message: rewrite(step, { id: request.id, token }) }));
  }

  #unknown(request: Asked): WireError {
    const wanted = keyOf(request.method, request.params).slice(0, MAX_COMPARED_CHARS);
    let nearest: Entry | undefined;
    let best = Infinity;
    for (const [key, entry] of this.#entries) {
      const score =
        this.#distance(wanted, key.slice(0, MAX_COMPARED_CHARS)) +
        (entry.method === request.method ? 0 : 1e6) +
        (canonical(subjectOf(entry.params)) === canonical(subjectOf(request.params)) ? 0 : 1e5);
      if (score < best) [best, nearest] = [score, entry];
    }
    const shown = nearest
      ? `${nearest.method} ${clipped(canonical(matchingParams(nearest.method, nearest.params)))}`
      : 'none';
    const known = [...this.#entries.values()].some((e) => e.method === request.method);
    const message = `replay: no recorded ${clipped(request.method, MAX_SHOWN_METHOD)} matches these params; nearest recorded: ${shown}`;
    const data = nearest ? { nearest: nearestData(nearest) } : undefined;
    return WireError.of(known ? 'InvalidParams' : 'MethodNotFound', message, data);
  }
}

/** The nearest entry for an error's data: its params as they are when short, else clipped text. */
function nearestData(entry: Entry): Json {
  const params = matchingParams(entry.method, entry.params);
  const text = canonical(params);
  return text.length <= MAX_SHOWN_CHARS
    ? { method: entry.method, params }
    : { method: entry.method, paramsText: clipped(text) };
}

/** `text` cut to `max` characters, with an ellipsis and the full length when cut. */
function clipped(text: string, max = MAX_SHOWN_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/** What a request is about: the tool or prompt name, or the resource URI. */
function subjectOf(params: unknown): unknown {
  return isObject(params) ? (params.name ?? params.uri) : undefined;
}

function rewrite(step: Step, to: { id: unknown; token: unknown }): Json {
  const message = { ...step.message };
  if (step.kind === 'reply') message.id = to.id;
  if (step.kind === 'notify' && subscriptionOf(message.params) !== undefined) {
    const params = message.params as Json;
    message.params = { ...params, _meta: { ...(params._meta as Json), [SUBSCRIPTION_ID]: to.id } };
  }
  if (
    step.kind === 'notify' &&
    to.token !== undefined &&
    isObject(message.params) &&
    message.params.progressToken !== undefined
  )
    message.params = { ...message.params, progressToken: to.token };
  return message;
}
