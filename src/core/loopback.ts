/**
 * The local machine's host names: one list for every layer that asks whether a host is
 * loopback (the HTTP endpoint's DNS-rebinding defaults, `serve()`'s bind address, the OAuth
 * client's plain-http allowance). No I/O.
 */

/** Loopback host names as a URL's `hostname` or a `Host` header spells them (IPv6 in brackets). */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Whether `host` names the local machine: a {@link LOOPBACK_HOSTS} entry, or `::1` without
 * brackets as a listen address is written.
 */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.includes(host === '::1' ? '[::1]' : host.toLowerCase());
}
