/**
 * Compares two JSON Schemas of one tool and says, for each difference, whether it breaks
 * callers. Input schemas (what clients send) break when they accept less; output schemas
 * (what clients read) break when they promise less.
 */

/** How much a change matters to the server's clients. */
export type ChangeLevel = 'breaking' | 'review' | 'info';

/** One difference, before the eras it was seen on are attached. */
export interface RawChange {
  level: ChangeLevel;
  /** A stable id of the kind of change, e.g. `argument-required`. */
  kind: string;
  /** Where, e.g. `tools.forecast.inputSchema.properties.city`. */
  path: string;
  message: string;
}

/** Which side of a tool the schema describes. */
export type Polarity = 'input' | 'output';

type Schema = Record<string, unknown>;

/** Nesting past this is compared as a whole (a change there is `review`). */
const MAX_DEPTH = 32;

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;
const CONSTRAINTS = ['pattern', 'format', 'multipleOf'] as const;
const WORDING = ['title', 'description', 'default', 'examples', 'deprecated'] as const;
/** Keywords compared one by one; any other keyword that differs is a `review` change. */
const HANDLED = new Set<string>([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'uniqueItems',
  ...LOWER_BOUNDS,
  ...UPPER_BOUNDS,
  ...CONSTRAINTS,
  ...WORDING,
]);

/** Where a comparison is and where its findings go. */
interface Walk {
  path: string;
  polarity: Polarity;
  /** True at the top of an input schema, whose properties are the tool's arguments. */
  top: boolean;
  depth: number;
  out: RawChange[];
}

/** JSON text of `value` with object keys sorted, for equality. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Schema).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Adds to `out` every difference between `before` and `after`, classified for `polarity`. */
export function compareSchemas(
  before: unknown,
  after: unknown,
  where: { path: string; polarity: Polarity; out: RawChange[] },
): void {
  compare(before, after, { ...where, top: where.polarity === 'input', depth: 0 });
}

function compare(before: unknown, after: unknown, walk: Walk): void {
  if (canonical(before) === canonical(after)) return;
  if (!isSchema(before) || !isSchema(after) || walk.depth > MAX_DEPTH) {
    note(walk, ['review', 'schema-changed', 'schema changed']);
    return;
  }
  compareTypes(before, after, walk);
  compareEnums(before, after, walk);
  compareProperties(before, after, walk);
  compareRequired(before, after, walk);
  compareAdditional(before, after, walk);
  if (before.items !== undefined || after.items !== undefined) {
    compare(before.items ?? true, after.items ?? true, {
      ...walk,
      path: `${walk.path}.items`,
      top: false,
      depth: walk.depth + 1,
    });
  }
  compareBounds(before, after, walk);
  compareRest(before, after, walk);
}

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Records `[level, kind, message, path]` (path defaults to where the walk is). */
function note(walk: Walk, [level, kind, message, path]: [ChangeLevel, string, string, string?]): void {
  walk.out.push({ level, kind, path: path ?? walk.path, message });
}

/** Stricter input breaks callers; stricter output is only news to them. */
function stricter(walk: Walk): ChangeLevel {
  return walk.polarity === 'input' ? 'breaking' : 'info';
}
function looser(walk: Walk): ChangeLevel {
  return walk.polarity === 'input' ? 'info' : 'review';
}

function typesOf(schema: Schema): string[] | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type === 'number' ? ['integer', 'number'] : [type];
  if (!Array.isArray(type)) return undefined;
  const names = type.filter((t): t is string => typeof t === 'string');
  return names.includes('number') ? [...names, 'integer'] : names;
}

function compareTypes(before: Schema, after: Schema, walk: Walk): void {
  const [was, now] = [typesOf(before), typesOf(after)];
  if (canonical(was) === canonical(now)) return;
  const lost = was === undefined ? now !== undefined : now !== undefined && was.some((t) => !now.includes(t));
  const gained =
    now === undefined ? was !== undefined : was !== undefined && now.some((t) => !was.includes(t));
  const shown = `${JSON.stringify(before.type ?? 'any')} → ${JSON.stringify(after.type ?? 'any')}`;
  if (walk.polarity === 'input') {
    if (lost) note(walk, ['breaking', 'type-narrowed', `type narrowed: ${shown}`]);
    else if (gained) note(walk, ['info', 'type-widened', `type widened: ${shown}`]);
  } else if (gained) note(walk, ['breaking', 'output-type-widened', `output type widened: ${shown}`]);
  else if (lost) note(walk, ['info', 'type-narrowed', `output type narrowed: ${shown}`]);
}

function enumOf(schema: Schema): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum as unknown[];
  return Object.hasOwn(schema, 'const') ? [schema.const] : undefined;
}

function compareEnums(before: Schema, after: Schema, walk: Walk): void {
  const [was, now] = [enumOf(before), enumOf(after)];
  if (canonical(was) === canonical(now)) return;
  if (was === undefined || now === undefined) {
    const added = was === undefined;
    const level = added ? stricter(walk) : looser(walk);
    note(walk, [
      level,
      added ? 'schema-stricter' : 'schema-looser',
      added ? 'values restricted to an enum' : 'enum restriction removed',
    ]);
    return;
  }
  const keys = (list: unknown[]) => new Set(list.map(canonical));
  const [wasKeys, nowKeys] = [keys(was), keys(now)];
  const removed = was.filter((v) => !nowKeys.has(canonical(v)));
  const added = now.filter((v) => !wasKeys.has(canonical(v)));
  const list = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');
  if (removed.length > 0) {
    const level = walk.polarity === 'input' ? 'breaking' : 'info';
    note(walk, [level, 'enum-value-removed', `enum value removed: ${list(removed)}`]);
  }
  if (added.length > 0) {
    const level = walk.polarity === 'input' ? 'info' : 'review';
    note(walk, [level, 'enum-value-added', `enum value added: ${list(added)}`]);
  }
}

function propertiesOf(schema: Schema): Map<string, unknown> {
  return isSchema(schema.properties) ? new Map(Object.entries(schema.properties)) : new Map();
}
function requiredOf(schema: Schema): Set<string> {
  return new Set(
    Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
  );
}

function compareProperties(before: Schema, after: Schema, walk: Walk): void {
  const [was, now] = [propertiesOf(before), propertiesOf(after)];
  const required = requiredOf(after);
  const noun = walk.top ? 'argument' : 'property';
  for (const [name, schema] of was) {
    const path = `${walk.path}.properties.${name}`;
    if (!now.has(name)) {
      if (walk.polarity === 'output')
        note(walk, ['breaking', 'output-field-removed', `output field \`${name}\` removed`, path]);
      else note(walk, ['breaking', `${noun}-removed`, `${noun} \`${name}\` removed`, path]);
    } else compare(schema, now.get(name), { ...walk, path, top: false, depth: walk.depth + 1 });
  }
  for (const name of now.keys()) {
    if (was.has(name)) continue;
    const path = `${walk.path}.properties.${name}`;
    if (walk.polarity === 'output')
      note(walk, ['info', 'output-field-added', `output field \`${name}\` added`, path]);
    else if (required.has(name))
      note(walk, ['breaking', `${noun}-required`, `new required ${noun} \`${name}\``, path]);
    else note(walk, ['review', `${noun}-added`, `new optional ${noun} \`${name}\``, path]);
  }
}

function compareRequired(before: Schema, after: Schema, walk: Walk): void {
  const [was, now] = [requiredOf(before), requiredOf(after)];
  const existed = propertiesOf(before);
  const noun = walk.top ? 'argument' : 'property';
  for (const name of now) {
    // A required property that is new was reported with the properties.
    if (was.has(name) || (!existed.has(name) && propertiesOf(after).has(name))) continue;
    const path = `${walk.path}.properties.${name}`;
    if (walk.polarity === 'input')
      note(walk, ['breaking', `${noun}-required`, `${noun} \`${name}\` is now required`, path]);
    else
      note(walk, ['info', 'output-field-required', `output field \`${name}\` is now always present`, path]);
  }
  for (const name of was) {
    if (now.has(name) || !propertiesOf(after).has(name)) continue;
    const path = `${walk.path}.properties.${name}`;
    if (walk.polarity === 'output')
      note(walk, [
        'breaking',
        'output-field-optional',
        `output field \`${name}\` is no longer always present`,
        path,
      ]);
    else note(walk, ['info', `${noun}-optional`, `${noun} \`${name}\` is now optional`, path]);
  }
}

function compareAdditional(before: Schema, after: Schema, walk: Walk): void {
  const [was, now] = [before.additionalProperties, after.additionalProperties];
  if (canonical(was) === canonical(now)) return;
  const path = `${walk.path}.additionalProperties`;
  if (isSchema(was) && isSchema(now))
    return compare(was, now, { ...walk, path, top: false, depth: walk.depth + 1 });
  const closed = now === false;
  const level = closed ? stricter(walk) : looser(walk);
  note(walk, [
    level,
    closed ? 'schema-stricter' : 'schema-looser',
    `additionalProperties ${canonical(was ?? true)} → ${canonical(now ?? true)}`,
    path,
  ]);
}

function compareBounds(before: Schema, after: Schema, walk: Walk): void {
  const bound = (key: string, higherIsStricter: boolean): void => {
    const [was, now] = [before[key], after[key]];
    if (was === now) return;
    const tighter =
      now !== undefined &&
      (was === undefined ||
        (typeof was === 'number' && typeof now === 'number' && (higherIsStricter ? now > was : now < was)));
    const level = tighter ? stricter(walk) : looser(walk);
    note(walk, [
      level,
      tighter ? 'schema-stricter' : 'schema-looser',
      `${key} ${canonical(was ?? null)} → ${canonical(now ?? null)}`,
    ]);
  };
  for (const key of LOWER_BOUNDS) bound(key, true);
  for (const key of UPPER_BOUNDS) bound(key, false);
  for (const key of [...CONSTRAINTS, 'uniqueItems']) {
    const [was, now] = [before[key], after[key]];
    if (canonical(was) === canonical(now)) continue;
    const tighter = now !== undefined && now !== false;
    note(walk, [
      tighter ? stricter(walk) : looser(walk),
      tighter ? 'schema-stricter' : 'schema-looser',
      `${key} ${canonical(was ?? null)} → ${canonical(now ?? null)}`,
    ]);
  }
}

function compareRest(before: Schema, after: Schema, walk: Walk): void {
  for (const key of WORDING) {
    if (canonical(before[key]) !== canonical(after[key])) {
      note(walk, ['review', key === 'default' ? 'default-changed' : 'description-changed', `${key} changed`]);
    }
  }
  const rest = (schema: Schema) =>
    canonical(Object.fromEntries(Object.entries(schema).filter(([k]) => !HANDLED.has(k))));
  if (rest(before) !== rest(after))
    note(walk, ['review', 'schema-changed', 'schema keywords changed (composition, references or others)']);
}
