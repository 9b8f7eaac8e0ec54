/**
 * Protocol revisions mcpkit speaks and the reserved `_meta` keys.
 * Source: 2026-07-28 basic/versioning and basic/index "_meta".
 */

/** Modern revisions: per-request `_meta`, no handshake. Newest first. */
export const MODERN_REVISIONS = ['2026-07-28'] as const;

/** Legacy revisions: `initialize` handshake and sessions. Newest first. */
export const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** A modern protocol revision string. */
export type ModernRevision = (typeof MODERN_REVISIONS)[number];
/** A legacy protocol revision string. */
export type LegacyRevision = (typeof LEGACY_REVISIONS)[number];
/** Modern or legacy, as the spec's versioning page names them. */
export type Era = 'modern' | 'legacy';

/** The newest modern revision. */
export const LATEST_REVISION: ModernRevision = MODERN_REVISIONS[0];
/** The newest legacy revision. */
export const LATEST_LEGACY_REVISION: LegacyRevision = LEGACY_REVISIONS[0];

/** Reserved `_meta` keys (basic/index "_meta", patterns/subscriptions). */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  progressToken: 'progressToken',
} as const;

/** True for a revision string that is modern (2026-07-28 and later that we know). */
export function isModernRevision(version: unknown): version is ModernRevision {
  return typeof version === 'string' && (MODERN_REVISIONS as readonly string[]).includes(version);
}

/** True for a legacy revision mcpkit speaks. */
export function isLegacyRevision(version: unknown): version is LegacyRevision {
  return typeof version === 'string' && (LEGACY_REVISIONS as readonly string[]).includes(version);
}

/**
 * Legacy version negotiation (2025-11-25 basic/lifecycle "Version Negotiation"): answer
 * with the requested version when supported, otherwise with the newest one we support.
 */
export function negotiateLegacyRevision(
  requested: unknown,
  supported: readonly LegacyRevision[] = LEGACY_REVISIONS,
): LegacyRevision {
  const found = supported.find((v) => v === requested);
  return found ?? supported[0] ?? LATEST_LEGACY_REVISION;
}

/** Logging levels in increasing severity (RFC 5424), as the spec lists them. */
export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

/** One of {@link LOGGING_LEVELS}. */
export type LoggingLevelName = (typeof LOGGING_LEVELS)[number];

/** True when `level` is at or above `threshold`. */
export function isLevelEnabled(level: LoggingLevelName, threshold: LoggingLevelName): boolean {
  return LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(threshold);
}
