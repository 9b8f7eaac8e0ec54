/**
 * The session-state probe: does the server keep data on the legacy session? The modern era
 * has no session, so such a server loses that data there. Only the calls the user named safe
 * (`--call`, in order) are made, on three legacy sessions' worth of runs: on session A, then
 * on a new session B, then on A again. A server that keeps data on the session answers B as
 * it answered A the first time (B starts empty) but A's second run differently (A kept
 * something); one that keeps it per user or globally lets B see A's data; a stateless one
 * answers all three alike. The calls must therefore read something an earlier call (or an
 * earlier run) writes: a read before a write, a counter. Nothing is judged here (rules/session-state.ts).
 * Source: 2026-07-28 server/tools "Stateful Tools"; basic/transports/streamable-http (no sessions).
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
export type SessionOpener = () => Promise<Channel | undefined>;

/** Runs the probe; undefined without calls, or when a session could not be opened. */
export async function probeSessionState(
  open: SessionOpener,
  calls: readonly SafeCall[],
): Promise<SessionStateSeen | undefined> {
  if (calls.length === 0) return undefined;
  const a = await open();
  if (!a) return undefined;
  try {
    const first = await run(a, calls);
    const b = await open();
    if (!b) return undefined;
    let fresh: Answer[];
    try {
      fresh = await run(b, calls);
    } finally {
      await b.close();
    }
    return { first, fresh, again: await run(a, calls) };
  } finally {
    await a.close();
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

/** Opens legacy sessions on new connections of a stream transport (each `open()` one connection). */
export function streamSessions(open: () => Transport, limits: ChannelLimits): SessionOpener {
  return async () => {
    const channel = transportChannel(open(), limits);
    if (await initializeOn(channel)) return channel;
    await channel.close();
    return undefined;
  };
}

/** Opens legacy sessions at an HTTP endpoint (each its own `Mcp-Session-Id`). */
export function httpSessions(options: HttpChannelOptions): SessionOpener {
  return async () => {
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
}

async function run(channel: Channel, calls: readonly SafeCall[]): Promise<Answer[]> {
  const maker = new RequestMaker('legacy');
  const answers: Answer[] = [];
  for (const call of calls)
    answers.push(await channel.request(maker.make('tools/call', { name: call.tool, arguments: call.args })));
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
