/**
 * Collision-free names for a merged registry: each server's tool and prompt names are
 * qualified with the server's name (`server__tool` by default), kept within the spec's
 * tool-name rules, and filtered by the server's `include`/`exclude` lists.
 * Source: 2026-07-28 server/tools "Tool Names" (1–128 of A-Z a-z 0-9 _ - .; proxies that
 * aggregate servers SHOULD disambiguate, e.g. by a server prefix).
 */

import { isQualifiedNameValid, qualifyName } from '../core/runtime.js';

/** Builds the qualified name of `name` on server `server`. */
export type QualifyName = (server: string, name: string) => string;

/**
 * The default: `server__name`, other characters replaced by `_`, long names shortened with a
 * hash (core/namespace.ts: the rule `McpServer.mount` follows too).
 */
export const defaultQualify: QualifyName = qualifyName;

/** True when `name` follows the tool-name rules (and the 64-character cap of core/namespace.ts). */
export function isValidName(name: string): boolean {
  return isQualifiedNameValid(name);
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
