/**
 * Static resolution of a schema's references, before anything is compiled: every `$ref`
 * (and `$dynamicRef`) must name the schema itself, a resource inside it (`$id`), an anchor
 * in it, or a JSON Schema meta-schema. References are never fetched, so a reference to
 * anything else (`https://example.com/x.json`, `other.json`) can only fail; finding that
 * now lets a server refuse the tool at registration and a client refuse a peer's schema
 * with the reference named, instead of failing each validation later.
 * Source: 2026-07-28 basic/index "JSON Schema Usage"; JSON Schema 2020-12 core §8.2, §9.
 */

type Node = Record<string, unknown>;

/** Stands in for the base URI of a schema with no `$id` (relative references resolve against it). */
const PLACEHOLDER_BASE = 'https://mcpkit.invalid/schema.json';
/** Documents ajv holds itself: the dialects' meta-schemas and their vocabularies. */
const META_PREFIXES = [
  'https://json-schema.org/draft/2020-12/',
  'https://json-schema.org/draft/2019-09/',
  'http://json-schema.org/draft-07/schema',
];
/** Keywords whose value is instance data, never a schema: a `$ref` key in there is data. */
const DATA = new Set(['enum', 'const', 'default', 'examples']);

interface Resources {
  /** Resource URI (no fragment) → its schema object. */
  documents: Map<string, Node>;
  /** `uri#name` of every `$anchor` and `$dynamicAnchor`. */
  anchors: Set<string>;
  /** Each reference with the base it resolves against and where it sits. */
  refs: { ref: string; base: string; at: string }[];
}

function withoutFragment(url: URL): string {
  return url.href.replace(/#.*$/s, '');
}

/** Where a key sits, as a JSON pointer segment. */
function segment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Collects resources, anchors and references, walking every object (bounds are checked before). */
function collect(node: unknown, where: { base: string; at: string }, found: Resources): void {
  const { base, at } = where;
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    node.forEach((child, i) => collect(child, { base, at: `${at}/${i}` }, found));
    return;
  }
  const schema = node as Node;
  let here = base;
  if (typeof schema.$id === 'string') {
    const id = tryUrl(schema.$id, base);
    if (id) {
      here = withoutFragment(id);
      // draft-07 spells an anchor as `$id: "#name"`.
      if (id.hash.length > 1) found.anchors.add(id.href);
      else if (!found.documents.has(here)) found.documents.set(here, schema);
    }
  }
  for (const key of ['$anchor', '$dynamicAnchor'])
    if (typeof schema[key] === 'string') found.anchors.add(`${here}#${schema[key]}`);
  for (const key of ['$ref', '$dynamicRef'])
    if (typeof schema[key] === 'string') found.refs.push({ ref: schema[key], base: here, at });
  for (const [key, child] of Object.entries(schema))
    if (!DATA.has(key)) collect(child, { base: here, at: `${at}/${segment(key)}` }, found);
}

function tryUrl(ref: string, base: string): URL | undefined {
  try {
    return new URL(ref, base);
  } catch {
    return undefined;
  }
}

/** The value a JSON pointer fragment (`/a/b`, percent-encoded) names in `document`, or undefined. */
function pointed(document: Node, pointer: string): unknown {
  let value: unknown = document;
  for (const raw of pointer.split('/').slice(1)) {
    const key = decoded(raw)?.replace(/~1/g, '/').replace(/~0/g, '~');
    if (key === undefined) return undefined;
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Node)[key];
  }
  return value;
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Why one reference resolves to nothing, or undefined when it resolves. */
function problemOf(ref: string, base: string, found: Resources): string | undefined {
  const url = tryUrl(ref, base);
  if (!url) return 'is not a valid URI reference';
  const document = withoutFragment(url);
  if (META_PREFIXES.some((prefix) => document.startsWith(prefix))) return undefined;
  const target = found.documents.get(document);
  if (!target) return 'names a document outside the schema, and references are never fetched';
  const fragment = decoded(url.hash.slice(1));
  if (fragment === '') return undefined;
  if (fragment === undefined) return 'has a fragment that is not valid percent-encoding';
  if (fragment.startsWith('/'))
    return pointed(target, url.hash.slice(1)) === undefined ? 'points at nothing in the schema' : undefined;
  return found.anchors.has(`${document}#${fragment}`)
    ? undefined
    : 'names an anchor the schema does not have';
}

/**
 * The first reference in `schema` that cannot resolve, as a sentence naming it and where
 * it sits; undefined when every reference resolves. Bounded by the schema's own size
 * (walked once; the caller checks depth and subschema count first).
 */
export function unresolvableRef(schema: object): string | undefined {
  const found: Resources = { documents: new Map(), anchors: new Set(), refs: [] };
  const rootId = (schema as Node).$id;
  const root = typeof rootId === 'string' ? tryUrl(rootId, PLACEHOLDER_BASE) : undefined;
  const base = root ? withoutFragment(root) : PLACEHOLDER_BASE;
  found.documents.set(base, schema as Node);
  found.documents.set(PLACEHOLDER_BASE, schema as Node);
  collect(schema, { base, at: '' }, found);
  for (const { ref, base: from, at } of found.refs) {
    const problem = problemOf(ref, from, found);
    if (problem !== undefined) return `$ref ${JSON.stringify(ref)} at ${at === '' ? '/' : at} ${problem}`;
  }
  return undefined;
}
