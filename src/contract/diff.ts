/**
 * `diffContracts(before, after)`: every change between two contract snapshots, classified
 * `breaking` (a client that worked may now fail), `review` (a person should look: wording,
 * annotations, new optional arguments) or `info` (additions and loosenings).
 */
import type { Era } from '../core/index.js';
import { canonical, compareSchemas, type ChangeLevel, type RawChange } from './schema-diff.js';
import type { Contract, ContractSurface } from './snapshot.js';

export type { ChangeLevel } from './schema-diff.js';

/** One classified change; `eras` says on which eras it was seen. */
export interface ContractChange extends RawChange {
  eras: Era[];
}

const RANK: Record<ChangeLevel, number> = { breaking: 0, review: 1, info: 2 };
const ERAS: readonly Era[] = ['modern', 'legacy'];

/** Every change from `before` to `after`, most serious first, then by path. */
export function diffContracts(before: Contract, after: Contract): ContractChange[] {
  const found = new Map<string, ContractChange>();
  const add = (change: RawChange, eras: Era[]): void => {
    const key = `${change.level}\u0000${change.kind}\u0000${change.path}\u0000${change.message}`;
    const seen = found.get(key);
    if (seen) seen.eras.push(...eras.filter((e) => !seen.eras.includes(e)));
    else found.set(key, { ...change, eras: [...eras] });
  };
  for (const change of compareIdentity(before, after)) add(change, []);
  for (const era of ERAS) {
    const [was, now] = [before.eras[era], after.eras[era]];
    if (was && !now)
      add(
        {
          level: 'breaking',
          kind: 'era-removed',
          path: `eras.${era}`,
          message: `the ${era} era is no longer served`,
        },
        [era],
      );
    else if (!was && now)
      add(
        { level: 'info', kind: 'era-added', path: `eras.${era}`, message: `the ${era} era is now served` },
        [era],
      );
    else if (was && now) for (const change of compareSurfaces(was, now)) add(change, [era]);
  }
  for (const change of found.values()) change.eras.sort();
  return [...found.values()].sort(
    (a, b) =>
      RANK[a.level] - RANK[b.level] ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      (a.kind < b.kind ? -1 : 1),
  );
}

/** True when a change is at `level` or more serious. */
export function atLeast(change: { level: ChangeLevel }, level: ChangeLevel): boolean {
  return RANK[change.level] <= RANK[level];
}

function compareIdentity(before: Contract, after: Contract): RawChange[] {
  const out: RawChange[] = [];
  if (before.server.name !== after.server.name)
    out.push({
      level: 'info',
      kind: 'server-renamed',
      path: 'server.name',
      message: `server name ${before.server.name} → ${after.server.name}`,
    });
  if (before.server.version !== after.server.version)
    out.push({
      level: 'info',
      kind: 'server-version-changed',
      path: 'server.version',
      message: `version ${before.server.version ?? '(none)'} → ${after.server.version ?? '(none)'}`,
    });
  return out;
}

function compareSurfaces(was: ContractSurface, now: ContractSurface): RawChange[] {
  const out: RawChange[] = [];
  if (was.protocolVersion !== now.protocolVersion)
    out.push({
      level: 'review',
      kind: 'protocol-version-changed',
      path: 'protocolVersion',
      message: `protocol version ${was.protocolVersion} → ${now.protocolVersion}`,
    });
  if (was.instructions !== now.instructions)
    out.push({
      level: 'review',
      kind: 'instructions-changed',
      path: 'instructions',
      message: 'instructions changed',
    });
  compareCapabilities(was.capabilities, now.capabilities, { path: 'capabilities', out, depth: 0 });
  eachPair(was.tools, now.tools, { noun: 'tool', group: 'tools', out, compare: compareTool });
  eachPair(was.resources, now.resources, {
    noun: 'resource',
    group: 'resources',
    out,
    compare: compareEntry,
  });
  const templates = { noun: 'resource template', group: 'resourceTemplates', out, compare: compareEntry };
  eachPair(was.resourceTemplates, now.resourceTemplates, templates);
  eachPair(was.prompts, now.prompts, { noun: 'prompt', group: 'prompts', out, compare: comparePrompt });
  return out;
}

type Compare = (
  was: Record<string, unknown>,
  now: Record<string, unknown>,
  where: { path: string; out: RawChange[] },
) => void;

/** Removed entries are breaking, added ones info; entries in both go to `compare`. */
function eachPair(
  was: Record<string, unknown>,
  now: Record<string, unknown>,
  where: { noun: string; group: string; out: RawChange[]; compare: Compare },
): void {
  const [before, after] = [new Map(Object.entries(record(was))), new Map(Object.entries(record(now)))];
  const kind = where.noun.replace(/ /g, '-');
  for (const [name, entry] of before) {
    const path = `${where.group}.${name}`;
    const next = after.get(name);
    if (next === undefined)
      where.out.push({
        level: 'breaking',
        kind: `${kind}-removed`,
        path,
        message: `${where.noun} \`${name}\` removed`,
      });
    else
      where.compare(entry as Record<string, unknown>, next as Record<string, unknown>, {
        path,
        out: where.out,
      });
  }
  for (const name of after.keys()) {
    if (!before.has(name))
      where.out.push({
        level: 'info',
        kind: `${kind}-added`,
        path: `${where.group}.${name}`,
        message: `${where.noun} \`${name}\` added`,
      });
  }
}

function compareTool(
  was: Record<string, unknown>,
  now: Record<string, unknown>,
  where: { path: string; out: RawChange[] },
): void {
  const { path, out } = where;
  compareSchemas(was.inputSchema, now.inputSchema, { path: `${path}.inputSchema`, polarity: 'input', out });
  if (was.outputSchema !== undefined && now.outputSchema === undefined)
    out.push({
      level: 'breaking',
      kind: 'output-schema-removed',
      path: `${path}.outputSchema`,
      message: 'outputSchema removed (structured output no longer promised)',
    });
  else if (was.outputSchema === undefined && now.outputSchema !== undefined)
    out.push({
      level: 'info',
      kind: 'output-schema-added',
      path: `${path}.outputSchema`,
      message: 'outputSchema added',
    });
  else
    compareSchemas(was.outputSchema, now.outputSchema, {
      path: `${path}.outputSchema`,
      polarity: 'output',
      out,
    });
  const annotations = new Set([
    ...Object.keys(record(was.annotations)),
    ...Object.keys(record(now.annotations)),
  ]);
  for (const key of [...annotations].sort()) {
    const [a, b] = [record(was.annotations)[key], record(now.annotations)[key]];
    if (canonical(a) !== canonical(b))
      out.push({
        level: 'review',
        kind: 'annotation-changed',
        path: `${path}.annotations.${key}`,
        message: `annotation ${key} ${shown(a)} → ${shown(b)}`,
      });
  }
  compareFields(was, now, { path, out, skip: ['name', 'inputSchema', 'outputSchema', 'annotations'] });
}

function comparePrompt(
  was: Record<string, unknown>,
  now: Record<string, unknown>,
  where: { path: string; out: RawChange[] },
): void {
  const { path, out } = where;
  const argsOf = (p: Record<string, unknown>) =>
    new Map(
      (Array.isArray(p.arguments) ? (p.arguments as Record<string, unknown>[]) : []).map((a) => [
        String(a.name),
        a,
      ]),
    );
  const [before, after] = [argsOf(was), argsOf(now)];
  for (const [name, arg] of before) {
    const next = after.get(name);
    const at = `${path}.arguments.${name}`;
    if (!next)
      out.push({
        level: 'breaking',
        kind: 'prompt-argument-removed',
        path: at,
        message: `prompt argument \`${name}\` removed`,
      });
    else if (next.required === true && arg.required !== true)
      out.push({
        level: 'breaking',
        kind: 'prompt-argument-required',
        path: at,
        message: `prompt argument \`${name}\` is now required`,
      });
    else if (canonical(arg) !== canonical(next))
      out.push({
        level: 'review',
        kind: 'prompt-argument-changed',
        path: at,
        message: `prompt argument \`${name}\` changed`,
      });
  }
  for (const [name, arg] of after) {
    if (before.has(name)) continue;
    const required = arg.required === true;
    out.push({
      level: required ? 'breaking' : 'review',
      kind: required ? 'prompt-argument-required' : 'prompt-argument-added',
      path: `${path}.arguments.${name}`,
      message: `new ${required ? 'required' : 'optional'} prompt argument \`${name}\``,
    });
  }
  compareFields(was, now, { path, out, skip: ['name', 'arguments'] });
}

function compareEntry(
  was: Record<string, unknown>,
  now: Record<string, unknown>,
  where: { path: string; out: RawChange[] },
): void {
  compareFields(was, now, { ...where, skip: ['uri', 'uriTemplate'] });
}

/** Fields other than `skip`: wording and MIME types are `review`; icons, `_meta`, sizes `info`. */
function compareFields(
  was: Record<string, unknown>,
  now: Record<string, unknown>,
  where: { path: string; out: RawChange[]; skip: string[] },
): void {
  const keys = new Set([...Object.keys(was), ...Object.keys(now)]);
  for (const key of [...keys].sort()) {
    if (where.skip.includes(key) || canonical(was[key]) === canonical(now[key])) continue;
    const minor = key === 'icons' || key === '_meta' || key === 'size';
    const kind = key === 'title' || key === 'description' ? 'description-changed' : `${key}-changed`;
    where.out.push({
      level: minor ? 'info' : 'review',
      kind,
      path: `${where.path}.${key}`,
      message: `${key} changed`,
    });
  }
}

/** A capability (or extension) that disappears breaks clients that use it. */
function compareCapabilities(
  was: unknown,
  now: unknown,
  where: { path: string; out: RawChange[]; depth: number },
): void {
  if (canonical(was) === canonical(now)) return;
  const [a, b] = [record(was), record(now)];
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(was) || !isObject(now) || where.depth > 8) {
    const off = now === undefined || now === false;
    where.out.push({
      level: off ? 'breaking' : 'review',
      kind: off ? 'capability-removed' : 'capability-changed',
      path: where.path,
      message: `${where.path} ${canonical(was ?? null)} → ${canonical(now ?? null)}`,
    });
    return;
  }
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    const path = `${where.path}.${key}`;
    if (!Object.hasOwn(b, key))
      where.out.push({
        level: 'breaking',
        kind: 'capability-removed',
        path,
        message: `capability ${path} removed`,
      });
    else if (!Object.hasOwn(a, key))
      where.out.push({ level: 'info', kind: 'capability-added', path, message: `capability ${path} added` });
    else compareCapabilities(a[key], b[key], { path, out: where.out, depth: where.depth + 1 });
  }
}

function shown(value: unknown): string {
  return value === undefined ? '(unset)' : canonical(value);
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
