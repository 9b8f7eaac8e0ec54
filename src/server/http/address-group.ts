/**
 * The group of addresses one network holder controls, as the key of an address-derived
 * principal: an IPv4 address by itself, an IPv6 address by its /64 network (the smallest
 * block routinely assigned to one subscriber, so one holder gets 2^64 addresses), an
 * IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, how a dual-stack socket reports IPv4
 * peers) as the IPv4 address. Source: RFC 4291 §2.2 and §2.5.5.2 (text forms, mapped
 * addresses), RFC 6177 (/48 to /64 assignments per end site).
 */

/** Longest address text parsed; anything longer is kept as given. */
const MAX_ADDRESS_CHARS = 64;

/** A port after an address: digits, or an RFC 7239 §6.3 obfuscated one (`_abc`). */
const PORT = String.raw`(?::(?:\d{1,5}|_[\w.-]+))?`;
const BRACKETED = new RegExp(String.raw`^\[([^\]]*)\]${PORT}$`);
const DOTTED = new RegExp(String.raw`^(\d{1,3}(?:\.\d{1,3}){3})${PORT}$`);

/**
 * The address in a forwarded spelling: whitespace trimmed, an RFC 7239 `for=` and its
 * quotes dropped, and a port dropped from `[v6]:port` and `a.b.c.d:port` (RFC 7239 §6).
 */
function bareAddress(text: string): string {
  let t = text.trim();
  if (/^for=/i.test(t)) t = t.slice(4).trimStart();
  if (t.length > 1 && t.startsWith('"') && t.endsWith('"')) t = t.slice(1, -1).trim();
  return (BRACKETED.exec(t) ?? DOTTED.exec(t))?.[1] ?? t;
}

/**
 * The group of `address`, as the default principal keys it (`addr:<group>`); use it in a
 * `principals.principal` function that reads the client's address from a forwarded header.
 * `192.0.2.1` → itself; `::ffff:192.0.2.1` → `192.0.2.1`; `2001:db8:1:2:3:4:5:6%eth0` →
 * `2001:db8:1:2::/64`. Forwarded spellings of one address give its group too: surrounding
 * whitespace, `for=` and quotes, and a port are dropped (` 192.0.2.1:4711`,
 * `for="[2001:db8::1]:80"`; RFC 7239 §5.2, §6). Other text (`unknown`, `_hidden`, a host
 * name) is returned trimmed and unquoted.
 */
export function addressGroup(address: string): string {
  const bare = bareAddress(address);
  if (!bare.includes(':') || bare.length > MAX_ADDRESS_CHARS) return bare;
  const h = ipv6Hextets(bare);
  if (!h) return bare;
  if (h.slice(0, 5).every((x) => x === 0) && h[5] === 0xffff) {
    return [h[6]! >> 8, h[6]! & 255, h[7]! >> 8, h[7]! & 255].join('.');
  }
  return `${h
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (zone and brackets dropped), or undefined. */
function ipv6Hextets(address: string): number[] | undefined {
  const text = withHexTail(address.replace(/^\[|\]$/g, '').split('%')[0]!);
  if (text === undefined) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  return [...head, ...Array<number>(missing).fill(0), ...tail];
}

/** The address with a dotted IPv4 tail written as two hex groups; undefined if that tail is malformed. */
function withHexTail(text: string): string | undefined {
  const dotted = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!dotted) return text.includes('.') ? undefined : text;
  const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
  if (Math.max(a, b, c, d) > 255) return undefined;
  return `${dotted[1]!}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

function groups(text: string): number[] | undefined {
  if (text === '') return [];
  const parts = text.split(':');
  if (!parts.every((p) => /^[0-9a-f]{1,4}$/i.test(p))) return undefined;
  return parts.map((p) => parseInt(p, 16));
}
