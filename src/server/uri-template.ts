/**
 * RFC 6570 URI templates, level 4: every operator (`{var}`, `{+var}`, `{#var}`, `{.var}`,
 * `{/var}`, `{;var}`, `{?var}`, `{&var}`), several variables per expression, lists and
 * associative arrays, the explode (`*`) and prefix (`:n`) modifiers. Expansion follows
 * the RFC's algorithm; matching a request URI back to the variables is in
 * `uri-template-match.ts` (what can and cannot be matched is listed there).
 * Source: RFC 6570 §2 (syntax), §3 (expansion), Appendix A; MCP 2026-07-28
 * server/resources "Resource Templates" (templates are RFC 6570).
 */
import { LocalError } from '../core/index.js';
import { compileMatcher, loadMatcher } from './uri-template-match.js';
import type { Operator, TemplatePart, VarSpec } from './uri-template-parts.js';

/** A variable's value: a string (numbers and booleans become strings), a list, or an associative array. */
export type TemplateValue =
  string | number | boolean | readonly string[] | Readonly<Record<string, string>> | null | undefined;

/** A compiled URI template. */
export interface UriTemplate {
  readonly template: string;
  /** Variable names in order of appearance (each once). */
  readonly variables: readonly string[];
  /**
   * Returns the variables when `uri` matches, percent-decoded; otherwise undefined. Both a
   * URI as expansion produces it (percent-encoded) and the same URI written raw (e.g.
   * `café` for `caf%C3%A9`) match. Variables absent from the URI are absent from the
   * result; an exploded list comes back as its items joined with `,`.
   */
  match(uri: string): Record<string, string> | undefined;
  /**
   * Resolves once {@link match} can be called: the RE2 engine it runs on is loaded when the
   * first template is compiled, not at start-up. Before that, `match` throws LocalError
   * `NOT_READY`.
   */
  readonly ready: Promise<void>;
  /** Expands the template with `values` (RFC 6570 §3); undefined variables are omitted. */
  expand(values: Readonly<Record<string, TemplateValue>>): string;
}

/** Per-operator expansion rules: RFC 6570 Appendix A table. */
const OPERATORS: Readonly<
  Record<Operator, { first: string; sep: string; named: boolean; ifemp: string; reserved: boolean }>
> = {
  '': { first: '', sep: ',', named: false, ifemp: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifemp: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifemp: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifemp: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifemp: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifemp: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifemp: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifemp: '=', reserved: false },
};

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
const PREFIX = /^[1-9][0-9]{0,3}$/;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const RESERVED = /^[:/?#[\]@!$&'()*+,;=]$/;

/**
 * Compiles a template once.
 * @throws LocalError `INVALID_DEFINITION` for unbalanced braces, an empty expression, a
 *   reserved operator (`=`, `,`, `!`, `@`, `|`), a bad variable name or prefix length.
 */
export function compileUriTemplate(template: string): UriTemplate {
  const parts = parseUriTemplate(template);
  const variables = [...new Set(parts.flatMap((p) => ('vars' in p ? p.vars.map((v) => v.name) : [])))];
  const match = compileMatcher(parts);
  const ready = loadMatcher();
  ready.catch(() => undefined); // reported to whoever awaits it, never as unhandled
  return {
    template,
    variables,
    match,
    ready,
    expand: (values) =>
      parts.map((p) => ('literal' in p ? encodeLiteral(p.literal) : expression(p, values))).join(''),
  };
}

/**
 * Splits a template into literals and expressions (RFC 6570 §2).
 * @throws LocalError `INVALID_DEFINITION` as {@link compileUriTemplate}.
 */
function parseUriTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    const close = template.indexOf('}', at);
    if (close !== -1 && (open === -1 || close < open)) throw bad(template, "'}' without '{'");
    if (open === -1) {
      parts.push({ literal: template.slice(at) });
      break;
    }
    if (open > at) parts.push({ literal: template.slice(at, open) });
    const end = template.indexOf('}', open);
    if (end === -1 || template.slice(open + 1, end).includes('{')) throw bad(template, "'{' without '}'");
    parts.push(parseExpression(template.slice(open + 1, end), template));
    at = end + 1;
  }
  return parts;
}

function parseExpression(body: string, template: string): TemplatePart {
  const first = body.charAt(0);
  if ('=,!@|'.includes(first) && first !== '') throw bad(template, `reserved operator '${first}'`);
  const operator = (first in OPERATORS && first !== '' ? first : '') as Operator;
  const list = body.slice(operator.length);
  if (list === '') throw bad(template, `empty expression {${body}}`);
  return { operator, vars: list.split(',').map((spec) => parseVarSpec(spec, template)) };
}

function parseVarSpec(spec: string, template: string): VarSpec {
  if (spec.endsWith('*')) return { name: varName(spec.slice(0, -1), template), explode: true };
  const colon = spec.indexOf(':');
  if (colon === -1) return { name: varName(spec, template), explode: false };
  const length = spec.slice(colon + 1);
  if (!PREFIX.test(length)) throw bad(template, `prefix length must be 1 to 9999 in '${spec}'`);
  return { name: varName(spec.slice(0, colon), template), explode: false, prefix: Number(length) };
}

function varName(name: string, template: string): string {
  if (!VARNAME.test(name)) throw bad(template, `bad variable name '${name}'`);
  return name;
}

function bad(template: string, why: string): LocalError {
  return new LocalError('INVALID_DEFINITION', `Invalid URI template '${template}': ${why} (RFC 6570)`);
}

/**
 * Percent-encodes `text` as UTF-8 (uppercase hex), keeping unreserved characters and, when
 * `reserved`, reserved characters and existing `%XX` triplets too. RFC 6570 §1.5, §3.2.1.
 */
function encodeTemplateText(text: string, reserved: boolean): string {
  let out = '';
  const chars = [...text]; // a lone surrogate is encoded as U+FFFD by TextEncoder
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (UNRESERVED.test(c) || (reserved && RESERVED.test(c))) out += c;
    else if (reserved && c === '%' && /^[0-9A-Fa-f]{2}$/.test(`${chars[i + 1]}${chars[i + 2]}`)) out += c;
    else out += utf8Escape(c);
  }
  return out;
}

function utf8Escape(c: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(c))
    out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/** Literals keep unreserved and reserved characters and triplets; the rest is encoded. RFC 6570 §3.1. */
function encodeLiteral(literal: string): string {
  return encodeTemplateText(literal, true);
}

/** Expands one expression: RFC 6570 §3.2.1 and Appendix A, step by step. */
function expression(
  part: { operator: Operator; vars: VarSpec[] },
  values: Readonly<Record<string, TemplateValue>>,
): string {
  const rules = OPERATORS[part.operator];
  const enc = (s: string): string => encodeTemplateText(s, rules.reserved);
  const named = (name: string, value: string): string =>
    `${encodeTemplateText(name, false)}${value === '' ? rules.ifemp : `=${value}`}`;
  const items: string[] = [];
  for (const spec of part.vars) {
    const value = Object.hasOwn(values, spec.name) ? values[spec.name] : undefined;
    if (value === undefined || value === null) continue;
    if (typeof value !== 'object') {
      const text =
        spec.prefix === undefined ? String(value) : [...String(value)].slice(0, spec.prefix).join('');
      items.push(rules.named ? named(spec.name, enc(text)) : enc(text));
      continue;
    }
    const pairs: [string, string][] = isList(value) ? value.map((v) => ['', v]) : Object.entries(value);
    if (pairs.length === 0) continue; // an empty list or array is undefined (§2.3)
    items.push(composite(spec, pairs, { enc, named, rules, list: isList(value) }));
  }
  return items.length === 0 ? '' : rules.first + items.join(rules.sep);
}

function isList(value: object): value is readonly string[] {
  return Array.isArray(value);
}

function composite(
  spec: VarSpec,
  pairs: [string, string][],
  how: {
    enc: (s: string) => string;
    named: (name: string, value: string) => string;
    rules: (typeof OPERATORS)[Operator];
    list: boolean;
  },
): string {
  const { enc, named, rules, list } = how;
  if (!spec.explode) {
    const joined = pairs.flatMap(([k, v]) => (list ? [enc(v)] : [enc(k), enc(v)])).join(',');
    return rules.named ? `${encodeTemplateText(spec.name, false)}=${joined}` : joined;
  }
  const exploded = pairs.map(([k, v]) => {
    if (list) return rules.named ? named(spec.name, enc(v)) : enc(v);
    return rules.named ? named(k, enc(v)) : `${enc(k)}=${enc(v)}`;
  });
  return exploded.join(rules.sep);
}
