/**
 * The modern (2026-07-28) request path: per-request `_meta` checks, version checks, and
 * the fields every modern result carries.
 * Source: 2026-07-28 basic/index "_meta", basic/versioning, server/utilities/caching.
 */
import {
  WireError,
  type Params,
  LOGGING_LEVELS,
  META,
  isModernRevision,
  type ClientCapabilities,
  type Implementation,
  type LoggingLevel,
} from '../core/index.js';
import { missingMetaError, unsupportedVersionError, isObject } from '../core/runtime.js';

/** The per-request fields a modern request declares in `_meta`. */
export interface ModernMeta {
  readonly meta: Record<string, unknown>;
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  readonly logLevel: LoggingLevel | undefined;
}

/**
 * Checks the required `_meta` fields of a modern request.
 * @throws WireError -32602 (HTTP 400) for missing or malformed fields; -32022 for an
 *   unsupported version, with `supported` and `requested`.
 */
export function checkModernMeta(params: Params | undefined, supported: readonly string[]): ModernMeta {
  const meta = params?._meta;
  if (!isObject(meta))
    throw missingMetaError(
      'Missing _meta: modern requests must carry protocol version and client capabilities',
    );
  const version = meta[META.protocolVersion];
  if (typeof version !== 'string')
    throw missingMetaError(
      `${version === undefined ? 'Missing' : 'Invalid (not a string)'} _meta["${META.protocolVersion}"]`,
    );
  if (!isModernRevision(version) || !supported.includes(version))
    throw unsupportedVersionError(version, supported);
  const capabilities = meta[META.clientCapabilities];
  if (!isObject(capabilities))
    throw missingMetaError(
      `${capabilities === undefined ? 'Missing' : 'Invalid (not an object)'} _meta["${META.clientCapabilities}"]`,
    );
  const logLevel = meta[META.logLevel];
  if (logLevel !== undefined && !(LOGGING_LEVELS as readonly unknown[]).includes(logLevel)) {
    throw missingMetaError(`Invalid _meta["${META.logLevel}"]: ${JSON.stringify(logLevel)}`);
  }
  const clientInfo = meta[META.clientInfo];
  return {
    meta,
    protocolVersion: version,
    clientCapabilities: capabilities as ClientCapabilities,
    clientInfo: isObject(clientInfo) ? (clientInfo as unknown as Implementation) : undefined,
    logLevel: logLevel as LoggingLevel | undefined,
  };
}

/** What {@link decorateModernResult} adds, prepared once per server (see {@link modernDecoration}). */
export interface ModernDecoration {
  readonly serverInfo: Implementation;
  /** `{ "io.modelcontextprotocol/serverInfo": serverInfo }`, shared by every result. */
  readonly meta: Readonly<Record<string, unknown>>;
  readonly cache: CacheHints | undefined;
}

/** Prepares the decoration of a server's results, with or without cache hints. */
function modernDecoration(serverInfo: Implementation, cache: CacheHints | undefined): ModernDecoration {
  return { serverInfo, meta: Object.freeze({ [META.serverInfo]: serverInfo }), cache };
}

/**
 * The three decorations a server's results take: without cache hints, with the server's
 * hints, and with the hints made private (a list that depends on the caller must not be
 * cached for anyone else). Made once per server.
 */
export class ModernDecorations {
  readonly #plain: ModernDecoration;
  readonly #cacheable: ModernDecoration;
  readonly #perCaller: ModernDecoration;

  constructor(serverInfo: Implementation, cache: Partial<CacheHints> | undefined) {
    const hints: CacheHints = { ttlMs: cache?.ttlMs ?? 0, cacheScope: cache?.cacheScope ?? 'private' };
    this.#plain = modernDecoration(serverInfo, undefined);
    this.#cacheable = modernDecoration(serverInfo, hints);
    this.#perCaller = modernDecoration(serverInfo, { ...hints, cacheScope: 'private' });
  }

  /** The decoration of `method`'s result; `perCaller`: the answer depends on who asks. */
  of(method: string, cacheable: boolean, perCaller: boolean): ModernDecoration {
    if (!cacheable) return this.#plain;
    return perCaller && method !== 'server/discover' ? this.#perCaller : this.#cacheable;
  }
}

/** Cache hints a server puts on cacheable results (milliseconds; public or private). */
export interface CacheHints {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/**
 * Adds `resultType`, `_meta.serverInfo` and, for cacheable results, the cache hints.
 * Changes `result` in place: the server only passes result objects it built for this
 * request (handler results are copied first), and skipping a copy matters on small calls.
 */
export function decorateModernResult(result: Params, options: ModernDecoration): Params {
  if (typeof result.resultType !== 'string') result.resultType = 'complete';
  const meta = result._meta;
  // Results without their own _meta share one prepared object (it is only ever serialised).
  result._meta = isObject(meta) ? { ...meta, [META.serverInfo]: options.serverInfo } : options.meta;
  if (options.cache && result.resultType === 'complete') {
    result.ttlMs ??= options.cache.ttlMs;
    result.cacheScope ??= options.cache.cacheScope;
  }
  return result;
}

/** Methods that only exist on the legacy wire; on the modern wire they are unknown (-32601). */
export function methodNotFound(method: string): WireError {
  return WireError.of('MethodNotFound', `Method not found: ${method}`);
}
