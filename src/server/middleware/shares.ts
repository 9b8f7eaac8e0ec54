/**
 * The default share of a global bound that one principal may hold, so that one principal at
 * every one of its limits leaves room for the others (docs/security.md, "Per principal";
 * DESIGN.md decision 9).
 */

/**
 * Most connections `serve()` holds at once by default: what holds one on HTTP (a request in
 * progress or queued, a listen stream, a legacy GET stream) draws on this table.
 */
const DEFAULT_MAX_CONNECTIONS = 1024;

/**
 * A principal's default share of a global bound: a tenth of it (at least 1), so one
 * principal at every one of its limits leaves room for the others (docs/security.md,
 * "Per principal"). Bounds on what holds a connection take a tenth of `connections`
 * (default {@link DEFAULT_MAX_CONNECTIONS}: 102) when that is the smaller global.
 */
export function principalShare(global: number, connections = DEFAULT_MAX_CONNECTIONS): number {
  return Math.max(1, Math.floor(Math.min(global, connections) / 10));
}
