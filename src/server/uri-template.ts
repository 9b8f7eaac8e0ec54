/**
 * RFC 6570 URI templates, the subset MCP resource templates use in practice: level 1
 * simple expansion `{var}` and level 2 reserved expansion `{+var}`. Matching a concrete
 * URI against a template recovers the variables, percent-decoded.
 * Source: RFC 6570 §3.2.2–3.2.3; MCP 2026-07-28 server/resources "Resource Templates".
 */
import { McpkitError } from '../core/errors.js';

/** One piece of a parsed template: literal text or a variable. */
type Part = { literal: string } | { name: string; reserved: boolean };

/** A compiled URI template. */
export interface UriTemplate {
  readonly template: string;
  /** Variable names in order of appearance. */
  readonly variables: readonly string[];
  /** Returns the variables when `uri` matches, percent-decoded; otherwise undefined. */
  match(uri: string): Record<string, string> | undefined;
  /** Builds a URI from variable values (missing variables expand to ""). */
  expand(values: Record<string, string>): string;
}

const VARNAME = /^[A-Za-z0-9_]+$/;

function parse(template: string): Part[] {
  const parts: Part[] = [];
  const re = /\{([^}]*)\}/g;
  let last = 0;
  for (let m = re.exec(template); m; m = re.exec(template)) {
    if (m.index > last) parts.push({ literal: template.slice(last, m.index) });
    parts.push(parseExpression(m[1] ?? '', template));
    last = re.lastIndex;
  }
  if (last < template.length) parts.push({ literal: template.slice(last) });
  if (parts.some((p) => 'literal' in p && /[{}]/.test(p.literal))) throw bad(template, 'unbalanced braces');
  return parts;
}

function parseExpression(body: string, template: string): Part {
  const reserved = body.startsWith('+');
  const name = reserved ? body.slice(1) : body;
  if (!VARNAME.test(name)) throw bad(template, `unsupported expression {${body}}`);
  return { name, reserved };
}

function bad(template: string, why: string): McpkitError {
  return new McpkitError(
    'INVALID_DEFINITION',
    `Invalid URI template '${template}': ${why} (supported: {var} and {+var})`,
  );
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function decode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/**
 * Compiles a template once.
 * @throws McpkitError `INVALID_DEFINITION` for operators other than `+` or bad names.
 */
export function compileUriTemplate(template: string): UriTemplate {
  const parts = parse(template);
  const variables = parts.flatMap((p) => ('name' in p ? [p.name] : []));
  const source = parts.map((p) =>
    'literal' in p ? escapeRegex(p.literal) : p.reserved ? '(.*?)' : '([^/?#]*)',
  );
  const regex = new RegExp(`^${source.join('')}$`);
  return {
    template,
    variables,
    match(uri) {
      const m = regex.exec(uri);
      if (!m) return undefined;
      const out: Record<string, string> = {};
      for (const [i, name] of variables.entries()) {
        const value = decode(m[i + 1] ?? '');
        if (value === undefined) return undefined;
        out[name] = value;
      }
      return out;
    },
    expand(values) {
      return parts
        .map((p) =>
          'literal' in p ? p.literal : (p.reserved ? encodeURI : encodeURIComponent)(values[p.name] ?? ''),
        )
        .join('');
    },
  };
}
