/**
 * Era detection: is the server modern (per-request `_meta`) or legacy (`initialize`)?
 * Follows the stdio binding step by step: probe with `server/discover`; a `DiscoverResult`
 * or a recognised modern error means modern; any other error, or silence, means legacy.
 * Source: 2026-07-28 basic/transports/stdio "Backward Compatibility",
 * basic/versioning "Backward Compatibility"; 2025-11-25 basic/lifecycle "Initialization".
 */
import {
  WireError,
  LocalError,
  ERROR_TABLE,
  type Params,
  type RequestOptions,
  isLegacyRevision,
  LEGACY_REVISIONS,
  META,
  MODERN_REVISIONS,
  type Era,
  type Implementation,
  type LegacyClientCapabilities,
  type ServerCapabilities,
} from '../core/index.js';
import { MODERN_ERROR_CODES } from '../core/runtime.js';
import { resultKind } from './results.js';

/** What the client learnt about the server while connecting. */
export interface ServerDescription {
  era: Era;
  /** The revision every later request uses. */
  protocolVersion: string;
  /** From `initialize`, or the discover result's `_meta`; undefined when not (yet) known. */
  serverInfo: Implementation | undefined;
  /** From `initialize` or `server/discover`; undefined when not (yet) known. */
  serverCapabilities: ServerCapabilities | undefined;
  instructions: string | undefined;
}

/** What detection needs from the client. */
export interface EraContext {
  /**
   * Sends a raw request (no `_meta` added); `modernVersion` marks one that is modern all
   * the same (the probe, its `_meta` already in `params`).
   */
  request(
    method: string,
    params: Params | undefined,
    options?: RequestOptions & { modernVersion?: string | undefined },
  ): Promise<Params>;
  notify(method: string, params?: Params): void;
  /** Returns `params` with the modern `_meta` for `version`. */
  withModernMeta(version: string, params?: Params): Params;
  preferredVersion: string;
  legacyVersion: string;
  legacyCapabilities: LegacyClientCapabilities;
  clientInfo: Implementation;
  /** Milliseconds to wait for the probe. */
  probeTimeoutMs: number;
  /** The transport binding, when the transport names it ({@link Transport.binding}). */
  binding: string | undefined;
}

type ProbeOutcome =
  | { kind: 'modern'; description: ServerDescription }
  | { kind: 'retry'; version: string }
  | { kind: 'legacy' };

/**
 * Settles the era for a connection: a pinned era is used as is (modern: no probe, except
 * on stdio, see {@link pinnedModernOnStdio}; legacy: `initialize` straight away); a cached
 * verdict likewise, except that a cached legacy
 * verdict whose `initialize` is rejected is re-probed (basic/versioning "Backward
 * Compatibility": re-probe if the cached assumption later fails); otherwise
 * {@link detectEra}.
 * @throws as {@link detectEra}.
 */
export async function establishEra(
  ctx: EraContext,
  preference: 'auto' | Era,
  cached: Era | undefined,
): Promise<ServerDescription> {
  if (preference === 'modern' && ctx.binding === 'stdio') return pinnedModernOnStdio(ctx);
  const era = preference === 'auto' ? cached : preference;
  if (era === 'modern') return bare('modern', ctx.preferredVersion);
  if (era === undefined) return detectEra(ctx);
  try {
    return await initializeLegacy(ctx);
  } catch (error) {
    if (preference === 'auto' && error instanceof WireError) return detectEra(ctx);
    throw error;
  }
}

/**
 * Probes and settles the era (stdio "Backward Compatibility"). A -32022 naming a modern
 * version we speak re-probes once with that version.
 * @throws LocalError `UNSUPPORTED_ERA` when no version is mutually supported;
 *   `CONNECTION_CLOSED` when the channel ends; WireError/LocalError from `initialize`.
 */
async function detectEra(ctx: EraContext): Promise<ServerDescription> {
  let outcome = await probe(ctx, ctx.preferredVersion);
  if (outcome.kind === 'retry') outcome = await probe(ctx, outcome.version);
  if (outcome.kind === 'modern') return outcome.description;
  if (outcome.kind === 'legacy') return initializeLegacy(ctx);
  throw new LocalError(
    'UNSUPPORTED_ERA',
    `server rejected protocol version ${outcome.version} it had advertised`,
  );
}

/**
 * A pinned modern era over stdio sends `server/discover` first, so that a legacy server
 * (its own error, a result that is no `DiscoverResult`, or silence) fails at once with an
 * actionable error instead of being served degraded (2026-07-28 basic/versioning
 * "Compatibility Matrix": stdio clients SHOULD send `server/discover` first). Over HTTP the
 * first request is sent as is: a protected server answers it with 401 and the
 * authorization flow, and a legacy server's own error gets the hint from the caller.
 * @throws LocalError `UNSUPPORTED_ERA` naming what to do when the server is not modern.
 */
async function pinnedModernOnStdio(ctx: EraContext): Promise<ServerDescription> {
  // No short probe timeout: a modern server that starts slowly is waited for as any request.
  const patient = { ...ctx, probeTimeoutMs: undefined };
  let outcome = await probe(patient, ctx.preferredVersion);
  if (outcome.kind === 'retry') outcome = await probe(patient, outcome.version);
  if (outcome.kind === 'modern') return outcome.description;
  throw new LocalError(
    'UNSUPPORTED_ERA',
    `era 'modern' was asked for, but the server did not answer server/discover as a ` +
      `${ctx.preferredVersion} server would: it looks like a legacy server; connect with era 'auto' (or 'legacy')`,
  );
}

async function probe(
  ctx: Omit<EraContext, 'probeTimeoutMs'> & { probeTimeoutMs: number | undefined },
  version: string,
): Promise<ProbeOutcome> {
  try {
    const result = await ctx.request('server/discover', ctx.withModernMeta(version), {
      ...(ctx.probeTimeoutMs === undefined ? {} : { timeoutMs: ctx.probeTimeoutMs }),
      modernVersion: version,
    });
    return fromDiscover(result, version);
  } catch (error) {
    return fromProbeError(error, version);
  }
}

function fromDiscover(result: Params, probed: string): ProbeOutcome {
  // Anything without `supportedVersions` is not a DiscoverResult: a lenient legacy server.
  if (!Array.isArray(result.supportedVersions)) return { kind: 'legacy' };
  if (resultKind(result, 'server/discover') !== 'complete') {
    throw new LocalError('INVALID_RESULT', 'server/discover answered input_required');
  }
  const offered = result.supportedVersions as unknown[];
  const version = pickVersion(probed, offered);
  if (version === undefined) return noModernVersion(offered);
  return { kind: 'modern', description: describeDiscover(result, version) };
}

function fromProbeError(error: unknown, probed: string): ProbeOutcome {
  if (error instanceof LocalError && error.code === 'TIMEOUT') return { kind: 'legacy' };
  if (!(error instanceof WireError)) throw error;
  if (error.code === ERROR_TABLE.UnsupportedProtocolVersion.code) {
    const supported = (error.data as { supported?: unknown } | undefined)?.supported;
    const offered = Array.isArray(supported) ? (supported as unknown[]) : [];
    const version = pickVersion(probed, offered);
    if (version === undefined) return noModernVersion(offered);
    if (version === probed) throw unsupported(offered);
    return { kind: 'retry', version };
  }
  if (MODERN_ERROR_CODES.has(error.code)) return { kind: 'modern', description: bare('modern', probed) };
  return { kind: 'legacy' };
}

/** A modern server offering only legacy revisions we speak is used through `initialize`. */
function noModernVersion(offered: unknown[]): ProbeOutcome {
  if (offered.some(isLegacyRevision)) return { kind: 'legacy' };
  throw unsupported(offered);
}

function unsupported(offered: unknown[]): LocalError {
  const ours = [...MODERN_REVISIONS, ...LEGACY_REVISIONS].join(', ');
  return new LocalError(
    'UNSUPPORTED_ERA',
    `no mutually supported protocol version: server supports ${JSON.stringify(offered)}, this client ${ours}`,
  );
}

/**
 * Picks the version to speak: `preferred` when offered, else the newest modern revision we
 * speak that the server offers.
 */
export function pickVersion(preferred: string, offered: readonly unknown[]): string | undefined {
  if (offered.includes(preferred)) return preferred;
  return MODERN_REVISIONS.find((v) => offered.includes(v));
}

/** Reads a `DiscoverResult` into a description for `version`. */
export function describeDiscover(result: Params, version: string): ServerDescription {
  const meta = result._meta as Params | undefined;
  return {
    era: 'modern',
    protocolVersion: version,
    serverInfo: meta?.[META.serverInfo] as Implementation | undefined,
    serverCapabilities: (result.capabilities ?? {}) as ServerCapabilities,
    instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
  };
}

/** A description with nothing known but the era and version (a pinned era, no probe). */
function bare(era: Era, protocolVersion: string): ServerDescription {
  return {
    era,
    protocolVersion,
    serverInfo: undefined,
    serverCapabilities: undefined,
    instructions: undefined,
  };
}

/**
 * The legacy handshake: `initialize`, check the answered version, `notifications/initialized`
 * (2025-11-25 basic/lifecycle "Initialization", "Version Negotiation").
 * @throws LocalError `UNSUPPORTED_ERA` when the server answers with a version we do not speak.
 */
async function initializeLegacy(ctx: EraContext): Promise<ServerDescription> {
  const result = await ctx.request('initialize', {
    protocolVersion: ctx.legacyVersion,
    capabilities: ctx.legacyCapabilities,
    clientInfo: ctx.clientInfo,
  });
  const version = result.protocolVersion;
  if (!isLegacyRevision(version)) {
    throw new LocalError(
      'UNSUPPORTED_ERA',
      `server answered initialize with protocol version ${JSON.stringify(version)}; this client speaks ${LEGACY_REVISIONS.join(', ')}`,
    );
  }
  ctx.notify('notifications/initialized');
  return {
    era: 'legacy',
    protocolVersion: version,
    serverInfo: result.serverInfo as Implementation | undefined,
    serverCapabilities: (result.capabilities ?? {}) as ServerCapabilities,
    instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
  };
}
