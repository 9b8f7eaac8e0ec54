/**
 * ajv skips a member named `__proto__` wherever a schema maps property names to rules
 * (`properties`, `dependentRequired`, `dependentSchemas`, `dependencies`), so a tool that
 * declares such a property would accept any value for it. This module rewrites those
 * members, before ajv compiles the schema, into forms ajv does check with the same meaning:
 * `properties.__proto__: S` → `patternProperties["^__proto__$"]: S`, and the dependent
 * keywords → `allOf: [{ if: { required: ["__proto__"] }, then: … }]`. (`required` itself
 * is checked on own keys through ajv's `ownProperties` option.) The interpreter needs none
 * of this.
 */
import { SCHEMA_MAP_KEYWORDS } from '../core/runtime.js';

const PROTO = '__proto__';
const PROTO_PATTERN = '^__proto__$';
/** Keywords whose value is data, not a subschema. */
const DATA = new Set([
  'enum',
  'const',
  'default',
  'examples',
  'required',
  'dependentRequired',
  'dependencies',
]);

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `schema` unchanged when it names no `__proto__` member, else a rewritten copy. */
export function withProtoMembers(schema: object): object {
  return JSON.stringify(schema).includes(`"${PROTO}"`) ? (rewritten(schema) as object) : schema;
}

function rewritten(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewritten);
  if (!isNode(value)) return value;
  const out: Node = Object.fromEntries(
    Object.entries(value).map(([key, child]) => {
      if (DATA.has(key)) return [key, child];
      if (SCHEMA_MAP_KEYWORDS.has(key) && isNode(child))
        return [key, Object.fromEntries(Object.entries(child).map(([k, s]) => [k, rewritten(s)]))];
      return [key, rewritten(child)];
    }),
  );
  moveProperty(out);
  moveDependents(out);
  return out;
}

function moveProperty(node: Node): void {
  const properties = node.properties;
  if (!isNode(properties) || !Object.hasOwn(properties, PROTO)) return;
  const { [PROTO]: rule, ...rest } = properties;
  node.properties = rest;
  const patterns = isNode(node.patternProperties) ? { ...node.patternProperties } : {};
  const existing = patterns[PROTO_PATTERN];
  patterns[PROTO_PATTERN] = existing === undefined ? rule : { allOf: [existing, rule] };
  node.patternProperties = patterns;
}

function moveDependents(node: Node): void {
  const rules: unknown[] = [];
  for (const keyword of ['dependentRequired', 'dependentSchemas', 'dependencies']) {
    const map = node[keyword];
    if (!isNode(map) || !Object.hasOwn(map, PROTO)) continue;
    const { [PROTO]: rule, ...rest } = map;
    node[keyword] = rest;
    rules.push(Array.isArray(rule) ? { required: rule } : rule);
  }
  if (rules.length === 0) return;
  const when = rules.map((then) => ({ if: { required: [PROTO] }, then }));
  node.allOf = [...(Array.isArray(node.allOf) ? node.allOf : []), ...when];
}
