/**
 * The namespacing rule shared by in-process composition (`McpServer.mount`) and the host's
 * merged registry (and so the gateway): a tool or prompt `name` of the server (or mount)
 * `prefix` becomes `prefix__name`, other characters than A-Z a-z 0-9 _ - . replaced by `_`
 * and a name over 64 characters shortened with a hash; a resource URI or template `uri`
 * becomes `p+uri`, where `p` is `prefix` made a valid start of a URI scheme (see
 * {@link uriPrefix}: `my_fs` → `my-fs`, `Local Files` → `local-files`, `1password` →
 * `x1password`), since `p+file` is the URI's scheme.
 * Source: 2026-07-28 server/tools "Tool Names" (1–128 of A-Z a-z 0-9 _ - .; aggregating
 * proxies SHOULD disambiguate, e.g. by a server prefix); server/resources (URIs per
 * RFC 3986, whose §3.1 scheme is ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )).
 */

/** Between a prefix and a tool or prompt name. */
const NAME_SEPARATOR = '__';
/** Between a prefix and a resource URI or URI template. */
export const URI_SEPARATOR = '+';

/**
 * Longest qualified name. The spec allows 128 characters; 64 is what many model APIs
 * accept for function names, so every qualified name can be offered to a model.
 */
const MAX_NAME_LENGTH = 64;
const VALID = /^[A-Za-z0-9_.-]{1,64}$/;

const clean = (part: string): string => part.replace(/[^A-Za-z0-9_.-]/g, '_');

/** `prefix__name` under the rule above (see the module comment). */
export function qualifyName(prefix: string, name: string): string {
  return fit(`${clean(prefix)}${NAME_SEPARATOR}${clean(name)}`);
}

/**
 * `name` (a mount prefix, a server's name in an `mcpServers` config) as the start of a URI
 * scheme, deterministically: lower case (schemes compare case-insensitively, so a client
 * that lowers them still lands on the same server), every character other than a-z 0-9
 * `.` `-` replaced by `-` (`+` too: it separates the prefix from the URI), and `x` put
 * before a name that does not start with a letter. Two names may map to one prefix
 * (`fs_a`, `fs-a`); whoever merges names checks that (host: `createHost`).
 */
export function uriPrefix(name: string): string {
  const mapped = name.toLowerCase().replace(/[^a-z0-9.-]/g, '-');
  return /^[a-z]/.test(mapped) ? mapped : `x${mapped}`;
}

/** `p+uri`: a resource URI or URI template under `prefix` (`p` = {@link uriPrefix} of it). */
export function qualifyUri(prefix: string, uri: string): string {
  return `${uriPrefix(prefix)}${URI_SEPARATOR}${uri}`;
}

/**
 * The URI under `prefix` that `uri` names (see {@link qualifyUri}), its scheme's prefix
 * compared case-insensitively; undefined when it has another prefix.
 */
export function unqualifyUri(prefix: string, uri: string): string | undefined {
  const head = `${uriPrefix(prefix)}${URI_SEPARATOR}`;
  return uri.slice(0, head.length).toLowerCase() === head ? uri.slice(head.length) : undefined;
}

/** True when `name` follows the tool-name rules (and the 64-character cap above). */
export function isQualifiedNameValid(name: string): boolean {
  return VALID.test(name);
}

/** Shortens `name` to the cap, keeping it unique with a hash of the whole. */
function fit(name: string): string {
  if (name.length <= MAX_NAME_LENGTH) return name;
  let hash = 2166136261;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 16777619) >>> 0;
  const suffix = `-${hash.toString(36)}`;
  return name.slice(0, MAX_NAME_LENGTH - suffix.length) + suffix;
}
