/**
 * Collision-free names for a merged registry: each server's tool and prompt names are
 * qualified with the server's name (`server__tool` by default), kept within the spec's
 * tool-name rules, and filtered by the server's `include`/`exclude` lists.
 * Source: 2026-07-28 server/tools "Tool Names" (1–128 of A-Z a-z 0-9 _ - .; proxies that
 * aggregate servers SHOULD disambiguate, e.g. by a server prefix).
 */

/** Builds the qualified name of `name` on server `server`. */
export type QualifyName = (server: string, name: string) => string;

/**
 * Longest qualified name. The spec allows 128 characters; 64 is what many model APIs
 * accept for function names and what mcpkit's own server registry enforces, so a gateway
 * can serve every name the host makes.
 */
const MAX_NAME_LENGTH = 64;
const VALID = /^[A-Za-z0-9_.-]{1,64}$/;

/** The default: `server__name`, other characters replaced by `_`, long names shortened with a hash. */
export const defaultQualify: QualifyName = (server, name) => fit(`${clean(server)}__${clean(name)}`);

const clean = (part: string): string => part.replace(/[^A-Za-z0-9_.-]/g, '_');

/** True when `name` follows the tool-name rules (and the 64-character cap above). */
export function isValidName(name: string): boolean {
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

/** Per-server include/exclude lists; `*` matches any run of characters. */
export interface NameFilter {
  include?: readonly string[] | undefined;
  exclude?: readonly string[] | undefined;
}

/** True when `name` (the server's own, unqualified name) passes the filter. */
export function passes(filter: NameFilter, name: string): boolean {
  const hit = (patterns: readonly string[]) => patterns.some((p) => glob(p).test(name));
  if (filter.include && !hit(filter.include)) return false;
  return !(filter.exclude && hit(filter.exclude));
}

const globs = new Map<string, RegExp>();
function glob(pattern: string): RegExp {
  let re = globs.get(pattern);
  if (!re) {
    const source = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
    re = new RegExp(`^${source.join('.*')}$`);
    globs.set(pattern, re);
  }
  return re;
}
