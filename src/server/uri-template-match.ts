/**
 * Matching a request URI against an RFC 6570 template: the inverse of expansion, for
 * `resources/read` of templated resources. A URI matches when some expansion of the
 * template could have produced it, written either percent-encoded (as expansion does) or
 * raw (`café` for `caf%C3%A9`, `a b` for `a%20b`); variables come back percent-decoded.
 *
 * Matched exactly, for every operator: one variable per expression (`{id}`, `{+path}`,
 * `{#frag}`, `{.ext}`, `{/seg}`, `{;p}`, `{?q}`, `{&q}`); several variables in the named
 * operators (`{;x,y}`, `{?x,y}`, `{&x,y}`: in any order, each optional); exploded lists
 * in `{/list*}`, `{.list*}`, `{;list*}`, `{?list*}`, `{&list*}` (items joined with `,`).
 *
 * Cannot be matched unambiguously, so resolved by a fixed rule:
 * - several variables in one unnamed expression (`{x,y}`, `{/x,y}`): an omitted variable
 *   cannot be told from an empty one, nor a separator inside a raw value from a real one —
 *   values are assigned left to right, missing trailing ones are absent;
 * - adjacent expressions with no literal between them (`{name}{.ext}`): the leftmost takes
 *   as much as it can;
 * - exploded associative arrays (`{?keys*}`): their key names are data, so a URI carrying
 *   names the template does not declare does not match;
 * - `{+var}` and `{#var}` keep `%XX` triplets as they are when expanding, so a decoded
 *   `%20` might have been a literal `%20` in the value: matching always decodes;
 * - a prefix (`{var:3}`) matches at most that many characters and returns the prefix.
 * Matching runs on re2js (linear time, no backtracking), whatever the request URI; on
 * Cloudflare Workers on the platform's RegExp (`#pattern-engine`: the patterns built here
 * repeat only delimited groups, and a request URI is bounded). The engine is imported when
 * the first template is compiled, not when the server starts: most servers never match a URI.
 * Source: RFC 6570 §1.4 ("Limitations": reverse matching), §3.2; RFC 3986 §2.1, §6.2.2.
 */
import type { CompiledPattern } from '#pattern-engine';
import { LocalError } from '../core/index.js';
import { setOwn } from '../core/runtime.js';
import type { Operator, TemplatePart, VarSpec } from './uri-template-parts.js';

let engine: ((source: string, flags: string) => CompiledPattern) | undefined;
let loading: Promise<void> | undefined;

/** Loads the matching engine (`#pattern-engine`: re2js, or on Workers the platform's RegExp) once. */
export function loadMatcher(): Promise<void> {
  loading ??= import('#pattern-engine').then((m) => void (engine = m.compilePattern));
  return loading;
}

type Expression = { operator: Operator; vars: VarSpec[] };

const RESERVED = /^[:/?#[\]@!$&'()*+,;=]$/;
const SEPARATORS: Record<Operator, string> = {
  '': ',',
  '+': ',',
  '#': ',',
  '.': '.',
  '/': '/',
  ';': ';',
  '?': '&',
  '&': '&',
};

/**
 * Builds the `match` function of a parsed template (the pattern compiles on first use).
 * The function throws LocalError `NOT_READY` until {@link loadMatcher} has resolved.
 */
export function compileMatcher(
  parts: readonly TemplatePart[],
): (uri: string) => Record<string, string> | undefined {
  const expressions = parts.filter((p): p is Expression => 'vars' in p);
  const source = parts.map((p) => ('literal' in p ? literalPattern(p.literal) : `(${valuePattern(p)})`));
  let pattern: CompiledPattern | undefined;
  return (uri) => {
    if (!engine)
      throw new LocalError('NOT_READY', "URI template matching is loading: await the template's ready first");
    pattern ??= engine(source.join(''), 's');
    const groups = pattern.whole(uri);
    if (!groups) return undefined;
    const out: Record<string, string> = {};
    for (const [i, expression] of expressions.entries()) {
      if (!assign(expression, groups[i] ?? '', out)) return undefined;
    }
    return out;
  };
}

/** A literal matches itself or its percent-encoding, character by character (RFC 3986 §6.2.2). */
function literalPattern(literal: string): string {
  let out = '';
  for (const c of literal) {
    out += RESERVED.test(c) ? quote(c) : `(?:${quote(c)}|${hexPattern(c)})`;
  }
  return out;
}

function hexPattern(c: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(c)) {
    const hex = byte.toString(16).padStart(2, '0');
    out += `%[${hex[0]}${hex[0]?.toUpperCase()}][${hex[1]}${hex[1]?.toUpperCase()}]`;
  }
  return out;
}

function quote(c: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
}

/** What one expression's expansion can look like, as a regex body (no groups). */
function valuePattern({ operator, vars }: Expression): string {
  const single = vars.length === 1 && !vars[0]?.explode;
  switch (operator) {
    case '':
      return '[^/?#]*';
    case '+':
      return '.*?';
    case '#':
      return '(?:#.*?)?';
    case '.':
      return single ? '(?:\\.[^/?#]*)?' : '(?:\\.[^/?#.]*)*';
    case '/':
      return single ? '(?:/[^/?#]*)?' : '(?:/[^/?#]*)*';
    case ';':
      return `(?:;${names(vars)}(?:=[^/?#;]*)?)*`;
    case '?':
      return `(?:\\?${names(vars)}(?:=[^#&]*)?(?:&${names(vars)}(?:=[^#&]*)?)*)?`;
    case '&':
      return `(?:&${names(vars)}(?:=[^#&]*)?)*`;
  }
}

/** The expression's variable names as alternatives: named operators match only these. */
function names(vars: readonly VarSpec[]): string {
  return `(?:${vars.map((v) => [...v.name].map(quote).join('')).join('|')})`;
}

/** Reads one expression's text into `out`; false when it cannot come from the template. */
function assign(expression: Expression, text: string, out: Record<string, string>): boolean {
  const { operator, vars } = expression;
  if (text === '') {
    // Only `{var}` and `{+var}` expand an empty value to nothing at all.
    if ((operator === '' || operator === '+') && vars.length === 1 && vars[0]) setOwn(out, vars[0].name, '');
    return true;
  }
  const body = operator === '' || operator === '+' ? text : text.slice(1);
  if (operator === ';' || operator === '?' || operator === '&') return assignNamed(expression, body, out);
  const single = vars.length === 1 && !vars[0]?.explode;
  const items = single ? [body] : body.split(SEPARATORS[operator]);
  return assignInOrder(vars, items, out);
}

function assignInOrder(vars: readonly VarSpec[], items: string[], out: Record<string, string>): boolean {
  let at = 0;
  for (const [i, spec] of vars.entries()) {
    if (at >= items.length) break;
    const take = spec.explode ? Math.max(1, items.length - at - (vars.length - i - 1)) : 1;
    const decoded = items.slice(at, at + take).map(decode);
    at += take;
    if (!store(spec, decoded, out)) return false;
  }
  return at >= items.length;
}

function assignNamed(expression: Expression, body: string, out: Record<string, string>): boolean {
  const found = new Map<VarSpec, (string | undefined)[]>();
  for (const piece of body.split(SEPARATORS[expression.operator])) {
    const eq = piece.indexOf('=');
    const name = decode(eq === -1 ? piece : piece.slice(0, eq));
    const spec = expression.vars.find((v) => v.name === name);
    if (!spec || (found.has(spec) && !spec.explode)) return false;
    found.set(spec, [...(found.get(spec) ?? []), decode(eq === -1 ? '' : piece.slice(eq + 1))]);
  }
  for (const [spec, values] of found) if (!store(spec, values, out)) return false;
  return true;
}

function store(spec: VarSpec, values: (string | undefined)[], out: Record<string, string>): boolean {
  if (values.some((v) => v === undefined)) return false;
  const value = values.join(',');
  if (spec.prefix !== undefined && [...value].length > spec.prefix) return false;
  if (Object.hasOwn(out, spec.name) && out[spec.name] !== value) return false;
  setOwn(out, spec.name, value);
  return true;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
