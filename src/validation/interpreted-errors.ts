/**
 * The interpreting engine's errors in ajv's words, so a tool's caller reads the same
 * sentence (`'/age' must be >= 0`) whichever engine validated: the interpreter reports one
 * unit per failed keyword (with aggregate units such as "Property x does not match
 * schema"), which are kept for the keywords ajv reports and reworded as ajv does.
 * Source: JSON Schema 2020-12 core §12.4 (output units); ajv's error messages.
 */
import { firstDuplicate } from './duplicates.js';
import { unsafeIntegerPhrase } from './safe-integers.js';

/** One output unit of the interpreter (@cfworker/json-schema). */
export interface OutputUnit {
  instanceLocation: string;
  keyword: string;
  keywordLocation: string;
  error: string;
}

type Phrase = (value: unknown, unit: OutputUnit, instance: unknown) => string | undefined;

const bound =
  (text: string): Phrase =>
  (value) =>
    text.replace('#', String(value));

const PHRASES: Record<string, Phrase> = {
  type: (value) => `must be ${Array.isArray(value) ? value.join(',') : String(value)}`,
  required: (_v, unit) => `must have required property '${quotedName(unit.error) ?? '?'}'`,
  enum: () => 'must be equal to one of the allowed values',
  const: () => 'must be equal to constant',
  minimum: (value) => unsafeIntegerPhrase(value) ?? `must be >= ${String(value)}`,
  maximum: (value) => unsafeIntegerPhrase(value) ?? `must be <= ${String(value)}`,
  exclusiveMinimum: bound('must be > #'),
  exclusiveMaximum: bound('must be < #'),
  multipleOf: bound('must be multiple of #'),
  minLength: bound('must NOT have fewer than # characters'),
  maxLength: bound('must NOT have more than # characters'),
  pattern: (value) => `must match pattern "${String(value)}"`,
  format: (value) => `must match format "${String(value)}"`,
  minItems: bound('must NOT have fewer than # items'),
  maxItems: bound('must NOT have more than # items'),
  minProperties: bound('must NOT have fewer than # properties'),
  maxProperties: bound('must NOT have more than # properties'),
  minContains: bound('must contain at least # valid item(s)'),
  maxContains: bound('must contain at most # valid item(s)'),
  contains: () => 'must contain at least 1 valid item(s)',
  uniqueItems: (_v, _u, instance) => {
    const pair = Array.isArray(instance) ? firstDuplicate(instance) : undefined;
    return pair && `must NOT have duplicate items (items ## ${pair[0]} and ${pair[1]} are identical)`;
  },
  not: () => 'must NOT be valid',
  anyOf: () => 'must match a schema in anyOf',
  oneOf: () => 'must match exactly one schema in oneOf',
  propertyNames: () => 'property name must be valid',
  false: () => 'boolean schema is false',
};

/** The keyword value a unit refers to, following local `$ref`s in its location; undefined when not found. */
function keywordValue(root: unknown, location: string): unknown {
  const segments = location
    .replace(/^#\/?/, '')
    .split('/')
    .filter((s) => s !== '');
  let node: unknown = root;
  for (const raw of segments) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return undefined;
    const record = node as Record<string, unknown>;
    node =
      segment === '$ref' && typeof record.$ref === 'string'
        ? keywordValue(root, record.$ref)
        : record[segment];
  }
  return node;
}

function instanceAt(instance: unknown, location: string): unknown {
  return keywordValue(instance, location);
}

/** The first double-quoted name in a message (`... property "x" ...`). */
function quotedName(text: string): string | undefined {
  return /"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
}

/** Sentences for `units`, ajv-style: `'<instance path>' <message>`, or `the value <message>`. */
export function describeUnits(units: readonly OutputUnit[], schema: unknown, instance: unknown): string[] {
  const issues: string[] = [];
  for (const [index, unit] of units.entries()) {
    const path = unit.instanceLocation.replace(/^#/, '');
    const where = path === '' ? 'the value' : `'${path}'`;
    const previous = units[index - 1]?.keyword;
    if (
      unit.keyword === 'false' &&
      (previous === 'additionalProperties' || previous === 'unevaluatedProperties')
    )
      continue;
    const text = phraseOf(unit, schema, instance);
    if (text !== undefined) issues.push(`${where} ${text}`);
  }
  return issues.length > 0
    ? issues
    : units.map((u) => `'${u.instanceLocation.replace(/^#/, '')}' ${u.error}`);
}

function phraseOf(unit: OutputUnit, schema: unknown, instance: unknown): string | undefined {
  if (unit.keyword === 'additionalProperties' || unit.keyword === 'unevaluatedProperties') {
    const name = quotedName(unit.error);
    if (keywordValue(schema, unit.keywordLocation) !== false) return undefined; // ajv reports the inner errors only
    const extra = unit.keyword === 'additionalProperties' ? ` ('${name ?? '?'}')` : '';
    return `must NOT have ${unit.keyword === 'additionalProperties' ? 'additional' : 'unevaluated'} properties${extra}`;
  }
  const phrase = PHRASES[unit.keyword];
  if (!phrase) return undefined; // an aggregate unit: its inner units say what failed
  return phrase(
    keywordValue(schema, unit.keywordLocation),
    unit,
    instanceAt(instance, unit.instanceLocation),
  );
}
