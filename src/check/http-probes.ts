/**
 * The Streamable HTTP probes: header mirroring checked by the server, Origin, legacy
 * sessions, and the authorization metadata of a server that answers 401. Every probe is
 * a request that changes nothing (a list, a discover, a ping, a call of a tool no server
 * has), each bounded in time and size.
 */
import { LATEST_REVISION } from '../core/index.js';
import { bufferedResponse, withDeadline } from '../core/runtime.js';
import { DEFAULT_LIMITS } from './channel.js';
import { factsOf, mirroredHeaders, post, type HttpChannelOptions } from './http-channel.js';
import type { Answer, EraSeen, HttpProbeName, HttpSeen, Json } from './observations.js';
import { NO_SUCH_TOOL, RequestMaker } from './requests.js';

const BAD_ORIGIN = 'http://mcpkit-check.invalid';
const REBINDING_HOST = 'rebinding.mcpkit-check.invalid';
const MAX_METADATA_BYTES = 256 * 1024;

/** True for a URL whose host is a loopback address or `localhost`. */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** POSTs `request` with exactly `headers` (besides the channel's own) and keeps the answer. */
export async function ask(
  options: HttpChannelOptions,
  request: Json,
  headers: Record<string, string>,
): Promise<Answer> {
  const posted = await post(options, request, headers);
  const objects = posted.messages.filter(
    (m): m is Json => typeof m === 'object' && m !== null && !Array.isArray(m),
  );
  // A refusal before the body is read may carry no id (`"id": null`).
  const response = objects.find((m) => m.id === request.id) ?? objects.find((m) => Object.hasOwn(m, 'error'));
  const answer: Answer = { request };
  if (response) answer.response = response;
  if (posted.http) answer.http = posted.http;
  if (posted.failure !== undefined) answer.failure = posted.failure;
  return answer;
}

/**
 * The request a DNS-rebinding page makes once its name resolves to the loopback server: a
 * foreign `Host` and the matching `Origin` (a browser sends `Origin` on every POST). Only
 * with a fetch that can send `Host` (undefined otherwise).
 */
function rebindingHeaders(
  options: HttpChannelOptions,
): { options: HttpChannelOptions; headers: Record<string, string> } | undefined {
  if (!options.hostFetch) return undefined;
  const port = new URL(options.url).port;
  const host = `${REBINDING_HOST}${port === '' ? '' : `:${port}`}`;
  return { options: { ...options, fetch: options.hostFetch }, headers: { host, origin: `http://${host}` } };
}

/** What a legacy session left for the session probes. */
export interface LegacyOpened {
  version: string;
  sessionId?: string;
  initialized?: Answer;
}

/** Runs the HTTP probes for the eras the server served. */
export async function probeHttp(
  options: HttpChannelOptions,
  eras: readonly EraSeen[],
  legacy: LegacyOpened | undefined,
): Promise<Partial<Record<HttpProbeName, Answer>>> {
  const probes: Partial<Record<HttpProbeName, Answer>> = {};
  if (eras.some((e) => e.era === 'modern')) {
    const maker = new RequestMaker('modern');
    const modern = (request: Json, extra: Record<string, string>): Promise<Answer> =>
      ask(options, request, {
        'mcp-protocol-version': LATEST_REVISION,
        ...mirroredHeaders(request),
        ...extra,
      });
    probes.badOrigin = await modern(maker.make('server/discover'), { origin: BAD_ORIGIN });
    const discover = maker.make('server/discover');
    const rebinding = rebindingHeaders(options);
    if (rebinding) {
      const headers = {
        'mcp-protocol-version': LATEST_REVISION,
        ...mirroredHeaders(discover),
        ...rebinding.headers,
      };
      probes.rebinding = await ask(rebinding.options, discover, headers);
    }
    probes.methodHeaderMismatch = await modern(maker.make('tools/list'), { 'mcp-method': 'prompts/list' });
    const unnamed = maker.make('tools/list');
    probes.missingMethodHeader = await ask(options, unnamed, { 'mcp-protocol-version': LATEST_REVISION });
    const call = maker.make('tools/call', { name: NO_SUCH_TOOL, arguments: {} });
    probes.nameHeaderMismatch = await modern(call, { 'mcp-name': `${NO_SUCH_TOOL}-other` });
  }
  if (legacy) {
    const maker = new RequestMaker('legacy');
    if (!probes.badOrigin) probes.badOrigin = await ask(options, maker.initialize(), { origin: BAD_ORIGIN });
    const rebinding = rebindingHeaders(options);
    if (!probes.rebinding && rebinding)
      probes.rebinding = await ask(rebinding.options, maker.initialize(), rebinding.headers);
    if (legacy.initialized) probes.initializedNotification = legacy.initialized;
    if (legacy.sessionId !== undefined) {
      const version = { 'mcp-protocol-version': legacy.version };
      probes.noSession = await ask(options, maker.make('ping'), version);
      const unknown = { ...version, 'mcp-session-id': 'mcpkit-check-unknown-session' };
      probes.unknownSession = await ask(options, maker.make('ping'), unknown);
      await closeSession(options, legacy.sessionId, legacy.version);
    }
  }
  return probes;
}

/** Ends the checker's legacy session (DELETE), so it leaves nothing behind; 405 is fine. */
async function closeSession(options: HttpChannelOptions, sessionId: string, version: string): Promise<void> {
  const headers = { ...options.headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': version };
  try {
    const ms = (options.limits ?? DEFAULT_LIMITS).timeoutMs;
    await withDeadline({ url: options.url, ms }, async (signal) => {
      const response = await options.fetch(new Request(options.url, { method: 'DELETE', headers, signal }));
      await response.body?.cancel();
    });
  } catch {
    // best effort
  }
}

/** The resource_metadata URL of a Bearer challenge, if it names one. */
function metadataUrlOf(challenge: string): string | undefined {
  return /resource_metadata="([^"]+)"/i.exec(challenge)?.[1];
}

/**
 * A 401: reads the challenge and fetches the protected-resource metadata it names, else
 * the well-known URIs (RFC 9728 §3.1). Source: 2026-07-28 basic/authorization.
 */
export async function probeUnauthorized(
  options: HttpChannelOptions,
  answer: Answer,
): Promise<NonNullable<HttpSeen['unauthorized']>> {
  const challenge = answer.http?.headers['www-authenticate'] ?? '';
  const url = new URL(options.url);
  const path = url.pathname === '/' ? '' : url.pathname;
  const named = metadataUrlOf(challenge);
  const candidates =
    named !== undefined
      ? [named]
      : [
          `${url.origin}/.well-known/oauth-protected-resource${path}`,
          `${url.origin}/.well-known/oauth-protected-resource`,
        ];
  let failure = 'no protected-resource metadata found';
  for (const candidate of candidates) {
    const got = await getJson(options, candidate);
    if ('metadata' in got) return { challenge, metadataUrl: candidate, metadata: got.metadata };
    failure = `${candidate}: ${got.failure}`;
  }
  return { challenge, failure };
}

async function getJson(
  options: HttpChannelOptions,
  url: string,
): Promise<{ metadata: unknown } | { failure: string }> {
  try {
    const ms = (options.limits ?? DEFAULT_LIMITS).timeoutMs;
    return await withDeadline({ url, ms }, async (signal) => {
      const response = await options.fetch(
        new Request(url, { headers: { accept: 'application/json' }, signal }),
      );
      const facts = factsOf(response);
      if (facts.status !== 200) {
        await response.body?.cancel().catch(() => undefined);
        return { failure: `HTTP ${facts.status}` };
      }
      const whole = await bufferedResponse(response, MAX_METADATA_BYTES, url);
      return { metadata: JSON.parse(await whole.text()) as unknown };
    });
  } catch (error) {
    return { failure: error instanceof Error ? error.message : String(error) };
  }
}
