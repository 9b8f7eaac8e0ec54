/**
 * The session-state probe: does the server keep data on the legacy session that the modern
 * era loses? Only the calls the user named safe (`--call`, in order) are made: on legacy
 * session A, then on a new session B, then on A again; then, when the modern era is served,
 * twice in a row on the modern era. A server that keeps data on the session answers B as it
 * answered A the first time (B starts empty) but A's second run differently (A kept
 * something); one that keeps it per user or globally lets B see A's data; a stateless one
 * answers all three alike. The modern runs tell whether the modern era keeps it too: over a
 * stream transport (stdio) the modern era has the connection, one process per client, so
 * data kept per connection or per process stays; over HTTP each modern request stands alone,
 * so only data kept per user (or per process) stays. The calls must therefore read something
 * an earlier call (or an earlier run) writes: a read before a write, a counter. Nothing is
 * judged here (rules/session-state.ts).
 * Source: 2026-07-28 server/tools "Stateful Tools"; basic/transports/streamable-http (no
 * sessions); basic/transports/stdio (one client per server process).
 */
import { transportChannel, type Channel, type ChannelLimits } from './channel.js';
import { httpChannel, type HttpChannelOptions, type HttpEraHeaders } from './http-channel.js';
import type { Transport } from '../core/index.js';
import type { SafeCall } from './collect.js';
import type { Answer, Json, SessionStateSeen } from './observations.js';
import { INITIALIZED, RequestMaker } from './requests.js';
import { resultOf } from './rules/kit.js';

/**
 * Opens one legacy session: a channel on which `initialize` and `notifications/initialized`
 * have been sent (HTTP: the channel carries the session id from then on). Undefined when the
 * server did not open one.
 */
type SessionOpener = () => Promise<Channel | undefined>;

/** How the probe reaches the server. */
export interface SessionProbeTarget {
  over: SessionStateSeen['over'];
  /** Opens legacy sessions. */
  sessions: SessionOpener;
  /** The modern era's revision and a channel for its requests; absent when it was not served. */
  modern?: { revision: string; open: () => Channel } | undefined;
}

/** Runs the probe; undefined without calls, or when a session could not be opened. */
export async function probeSessionState(
  target: SessionProbeTarget,
  calls: readonly SafeCall[],
): Promise<SessionStateSeen | undefined> {
  if (calls.length === 0) return undefined;
  const legacy = await probeLegacy(target.sessions, calls);
  if (!legacy) return undefined;
  const seen: SessionStateSeen = { over: target.over, ...legacy };
  if (target.modern) seen.modern = await probeModern(target.modern, calls);
  return seen;
}

async function probeLegacy(
  open: SessionOpener,
  calls: readonly SafeCall[],
): Promise<Pick<SessionStateSeen, 'first' | 'fresh' | 'again'> | undefined> {
  const maker = new RequestMaker('legacy');
  const legacy = (params: Json): Json => maker.make('tools/call', params);
  const a = await open();
  if (!a) return undefined;
  try {
    const first = await run(a, calls, legacy);
    const b = await open();
    if (!b) return undefined;
    let fresh: Answer[];
    try {
      fresh = await run(b, calls, legacy);
    } finally {
      await b.close();
    }
    return { first, fresh, again: await run(a, calls, legacy) };
  } finally {
    await a.close();
  }
}

/** The calls twice on one modern channel, after a `tools/list` (an HTTP channel learns the tools' header parameters from it). */
async function probeModern(
  modern: NonNullable<SessionProbeTarget['modern']>,
  calls: readonly SafeCall[],
): Promise<NonNullable<SessionStateSeen['modern']>> {
  const maker = new RequestMaker('modern');
  const channel = modern.open();
  try {
    await channel.request(maker.make('tools/list', {}, modern.revision));
    const call = (params: Json): Json => maker.make('tools/call', params, modern.revision);
    const first = await run(channel, calls, call);
    return { first, again: await run(channel, calls, call) };
  } finally {
    await channel.close();
  }
}

/**
 * Initializes a legacy session on `channel`; true when the server opened one. `opened`
 * gets the negotiated version and the answer (an HTTP channel takes its session id from it).
 */
async function initializeOn(
  channel: Channel,
  opened?: (version: string, answer: Answer) => void,
): Promise<boolean> {
  const answer = await channel.request(new RequestMaker('legacy').initialize());
  const version = resultOf(answer)?.protocolVersion;
  if (typeof version !== 'string') return false;
  opened?.(version, answer);
  await channel.notify(INITIALIZED);
  return true;
}

/**
 * The probe over a stream transport: each legacy session and the modern channel on a new
 * connection (`open()`); `modernRevision` when the modern era was served.
 */
export function streamProbe(
  open: () => Transport,
  limits: ChannelLimits,
  modernRevision: string | undefined,
): SessionProbeTarget {
  const sessions: SessionOpener = async () => {
    const channel = transportChannel(open(), limits);
    if (await initializeOn(channel)) return channel;
    await channel.close();
    return undefined;
  };
  const modern =
    modernRevision === undefined
      ? undefined
      : { revision: modernRevision, open: () => transportChannel(open(), limits) };
  return { over: 'stream', sessions, modern };
}

/**
 * The probe at an HTTP endpoint: legacy sessions each with its own `Mcp-Session-Id`, modern
 * requests with the same headers (credentials); `modernRevision` when the modern era was served.
 */
export function httpProbe(
  options: HttpChannelOptions,
  modernRevision: string | undefined,
): SessionProbeTarget {
  const sessions: SessionOpener = async () => {
    const headers: HttpEraHeaders = { legacy: {} };
    const channel = httpChannel(options, headers);
    const opened = await initializeOn(channel, (version, answer) => {
      const sessionId = answer.http?.headers['mcp-session-id'];
      headers.legacy = { version, ...(sessionId === undefined ? {} : { sessionId }) };
    });
    if (opened) return channel;
    await channel.close();
    return undefined;
  };
  const modern =
    modernRevision === undefined
      ? undefined
      : { revision: modernRevision, open: () => httpChannel(options, { modern: modernRevision }) };
  return { over: 'http', sessions, modern };
}

/** Sends each call in order on `channel`, each `tools/call` built by `make`, and collects the answers. */
async function run(
  channel: Channel,
  calls: readonly SafeCall[],
  make: (params: Json) => Json,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const call of calls)
    answers.push(await channel.request(make({ name: call.tool, arguments: call.args })));
  return answers;
}

/**
 * An answer as compared between runs: its result without `_meta` (keys sorted), or its
 * error code; undefined for no answer (a timeout, a failure), which the rule does not judge.
 */
export function comparable(answer: Answer): string | undefined {
  const response = answer.response;
  if (!response) return undefined;
  const error = response.error as Json | undefined;
  if (error) return `error ${String(error.code)}`;
  const result = resultOf(answer);
  if (!result) return undefined;
  const { _meta: _ignored, ...rest } = result;
  return JSON.stringify(sorted(rest));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value as Json).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return Object.fromEntries(entries.map(([key, item]) => [key, sorted(item)]));
}
