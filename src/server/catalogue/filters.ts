/**
 * Transforms that choose entries: for everyone ({@link filter}, {@link filterByTags}) or per
 * caller ({@link visibleTo}, {@link visibleByTags}). A per-caller rule is evaluated on every
 * request: lists show what the caller may see, a call, read or get of anything else is
 * answered as for an unknown name, list results carry `cacheScope: "private"`, and a list
 * change is announced only to the callers whose view changed.
 * Source: 2026-07-28 server/tools, server/prompts, server/resources; basic/patterns/subscriptions.
 */
import {
  isVisible,
  type Caller,
  type Catalogue,
  type CatalogueEntry,
  type Transform,
  type Visibility,
} from './types.js';

/** Keeps the entries `keep` accepts, for every caller. */
export function filter(keep: (entry: CatalogueEntry) => boolean): Transform {
  return (c) => ({
    tools: c.tools.filter(keep),
    prompts: c.prompts.filter(keep),
    resources: c.resources.filter(keep),
    templates: c.templates.filter(keep),
  });
}

/** Tag lists of {@link filterByTags}. */
export interface TagFilter {
  /** Keep only entries with at least one of these tags. */
  include?: readonly string[];
  /** Leave out entries with any of these tags. */
  exclude?: readonly string[];
}

/** Keeps the entries whose tags pass `tags`, for every caller. */
export function filterByTags(tags: TagFilter): Transform {
  const include = tags.include && new Set(tags.include);
  const exclude = new Set(tags.exclude ?? []);
  return filter(
    (e) => (!include || e.tags.some((t) => include.has(t))) && !e.tags.some((t) => exclude.has(t)),
  );
}

/**
 * Shows each entry only to the callers `rule` accepts (and earlier rules still do). `rule`
 * runs per request: keep it quick and free of I/O.
 */
export function visibleTo(rule: (entry: CatalogueEntry, caller: Caller) => boolean): Transform {
  const made = new WeakMap<CatalogueEntry, CatalogueEntry>();
  const restrict = <E extends CatalogueEntry>(e: E): E => {
    let out = made.get(e) as E | undefined;
    if (!out) {
      const visible: Visibility = (caller) => isVisible(e, caller) && rule(e, caller);
      made.set(e, (out = { ...e, visible }));
    }
    return out;
  };
  return (c: Catalogue) => ({
    tools: c.tools.map(restrict),
    prompts: c.prompts.map(restrict),
    resources: c.resources.map(restrict),
    templates: c.templates.map(restrict),
  });
}

/**
 * Shows a tagged entry only to callers holding one of its tags (`tagsOf(caller)`, e.g. from
 * `caller.auth.scopes`); untagged entries stay visible to everyone unless `untagged` is
 * `'hidden'`.
 */
export function visibleByTags(
  tagsOf: (caller: Caller) => Iterable<string>,
  options: { untagged?: 'visible' | 'hidden' } = {},
): Transform {
  const untaggedVisible = options.untagged !== 'hidden';
  return visibleTo((entry, caller) => {
    if (entry.tags.length === 0) return untaggedVisible;
    const held = new Set(tagsOf(caller));
    return entry.tags.some((t) => held.has(t));
  });
}
