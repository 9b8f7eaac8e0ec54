/**
 * Which IP addresses are on the public internet, for anything that fetches a URL a peer
 * chose (the fetch reference server's pages, the authorization server façade's Client ID
 * Metadata Documents): public unicast only. Private, loopback, link-local (cloud metadata at
 * 169.254.169.254), shared (CGNAT), multicast, reserved, documentation, and the IPv4-mapped,
 * IPv4-compatible, 6to4 and Teredo forms are refused; a well-known-prefix NAT64 address is
 * judged by the IPv4 address it embeds. Plain JavaScript (no `node:net`), so every runtime
 * can run it; the DNS side is {@link vettedLookup}, given the runtime's resolver.
 * Source: IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890).
 */

const V4_BLOCKED: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const V6_BLOCKED: readonly (readonly [string, number])[] = [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['::ffff:0:0', 96], // IPv4-mapped
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHIDs…)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

/** A dotted-quad IPv4 address as a number (no leading zeros, each part at most 255). */
function v4Value(address: string): bigint | undefined {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (parts === null) return undefined;
  let value = 0n;
  for (const part of parts.slice(1)) {
    if ((part.length > 1 && part.startsWith('0')) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

/** An IPv6 address (no zone) as a 128-bit number; the URL parser validates and normalizes it. */
function v6Value(address: string): bigint | undefined {
  if (!address.includes(':') || address.includes('%')) return undefined;
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const [head = '', tail] = canonical.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const within = (value: bigint, bits: number, [network, prefix]: readonly [bigint, number]) =>
  value >> BigInt(bits - prefix) === network >> BigInt(bits - prefix);

const V4 = V4_BLOCKED.map(([a, p]) => [v4Value(a)!, p] as const);
const V6 = V6_BLOCKED.map(([a, p]) => [v6Value(a)!, p] as const);
const NAT64 = [v6Value('64:ff9b::')!, 96] as const;

/** Whether `address` (an IP literal; IPv6 without brackets) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const v4 = v4Value(address);
  if (v4 !== undefined) return !V4.some((net) => within(v4, 32, net));
  const v6 = v6Value(address);
  if (v6 === undefined) return false;
  if (within(v6, 128, NAT64)) {
    const embedded = v6 & 0xffffffffn;
    return !V4.some((net) => within(embedded, 32, net));
  }
  return !V6.some((net) => within(v6, 128, net));
}

/** `[::1]` → `::1`: a URL's hostname as an address literal, or undefined for a name. */
export function addressLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return v4Value(bare) !== undefined || v6Value(bare) !== undefined ? bare : undefined;
}

/** One address a resolver found (the shape of `node:dns` `lookup` with `all: true`). */
export interface ResolvedAddress {
  address: string;
  family: number;
}

type LookupCallback = (error: Error | null, address: string | ResolvedAddress[], family?: number) => void;

/** A resolver with the shape of `node:dns` `lookup`, and what sockets take as their `lookup`. */
export type Lookup = (
  hostname: string,
  options: { family?: number; all?: boolean },
  callback: LookupCallback,
) => void;

/**
 * A socket `lookup` that resolves every address of a name with `resolve` and fails the name
 * with `refuse(hostname, address)` when one of them is not `allowed`. The socket then connects
 * to an address that was vetted, so a name cannot answer the check and the connection
 * differently (DNS rebinding).
 */
export function vettedLookup(
  resolve: Lookup,
  allowed: (address: string) => boolean,
  refuse: (hostname: string, address: string) => Error,
): Lookup {
  return (hostname, options, callback) =>
    resolve(hostname, { family: options.family ?? 0, all: true }, (error, found) => {
      const addresses = typeof found === 'string' ? [] : found;
      if (error) return callback(error, []);
      const bad = addresses.find((a) => !allowed(a.address));
      if (bad !== undefined) return callback(refuse(hostname, bad.address), []);
      if (options.all === true) return callback(null, addresses);
      const first = addresses[0];
      if (first === undefined) return callback(new Error(`${hostname} has no address`), []);
      callback(null, first.address, first.family);
    });
}
