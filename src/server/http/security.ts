/**
 * DNS-rebinding protection: `Host` and `Origin` checks.
 * Source: 2026-07-28 basic/transports/streamable-http "Security & Endpoint" (validate
 * `Origin`; 403 when present and invalid); 2025-11-25 basic/transports "Security Warning".
 */
import { LOOPBACK_HOSTS } from '../../core/runtime.js';
import type { HttpRequest } from './exchange.js';

/** Which `Host` and `Origin` values are accepted; `false` turns a check off. */
export interface OriginPolicy {
  /** Host names (`example.com`) or `host:port` pairs; default {@link LOOPBACK_HOSTS}. */
  allowedHosts?: readonly string[] | false;
  /**
   * Origins (`https://app.example.com`) or bare host names (any scheme and port); default
   * loopback. `'same-origin'` accepts an `Origin` whose host is the request's `Host`.
   */
  allowedOrigins?: readonly string[] | 'same-origin' | false;
}

/** `host[:port]` or `[v6][:port]` (RFC 9110 Host, RFC 3986 authority without userinfo). */
const HOST_PORT = /^(\[[^\]]*\]|[^:[\]]*)(?::\d*)?$/;

/**
 * Splits `host[:port]` (IPv6 in brackets) into its lower-cased host name; '' (matching no
 * allowed host) when anything else follows the name, e.g. `[::1]evil.com` or `localhost:x`.
 */
function hostnameOf(host: string): string {
  return HOST_PORT.exec(host.trim().toLowerCase())?.[1] ?? '';
}

// The last verdict: a client sends the same Host on every request.
let lastHost = '';
let lastAllowed: readonly string[] | undefined;
let lastVerdict = false;

function hostAllowed(host: string, allowed: readonly string[]): boolean {
  if (host === lastHost && allowed === lastAllowed) return lastVerdict;
  lastVerdict = hostMatches(host, allowed);
  lastHost = host;
  lastAllowed = allowed;
  return lastVerdict;
}

function hostMatches(host: string, allowed: readonly string[]): boolean {
  const full = host.trim().toLowerCase();
  const name = hostnameOf(full);
  return allowed.some((entry) => {
    const e = entry.toLowerCase();
    return e === full || e === name;
  });
}

function sameOrigin(origin: string, host: string): boolean {
  try {
    return new URL(origin).host === host.trim().toLowerCase();
  } catch {
    return false;
  }
}

function originAllowed(origin: string, allowed: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === 'null') return false;
  return allowed.some((entry) => {
    const e = entry.toLowerCase();
    return e === url.origin || e === url.hostname || e === url.host;
  });
}

/**
 * Returns why the request must be refused (a message for the 403 body), or undefined
 * when its `Host` (else the URL's host) and `Origin` (when present) are allowed. An origin
 * `corsAllows` accepts (the endpoint's CORS list) is allowed whatever `allowedOrigins` says.
 */
export function rebindingViolation(
  request: HttpRequest,
  policy: OriginPolicy,
  corsAllows?: (origin: string) => boolean,
): string | undefined {
  const hosts = policy.allowedHosts ?? LOOPBACK_HOSTS;
  const origins = policy.allowedOrigins ?? LOOPBACK_HOSTS;
  const host = request.headers.get('host') ?? new URL(request.url).host;
  if (hosts !== false && !hostAllowed(host, hosts)) return `Host not allowed: ${host}`;
  const origin = request.headers.get('origin');
  if (origin === null || origins === false || corsAllows?.(origin) === true) return undefined;
  const allowed = origins === 'same-origin' ? sameOrigin(origin, host) : originAllowed(origin, origins);
  if (!allowed) return `Origin not allowed: ${origin}`;
  return undefined;
}
