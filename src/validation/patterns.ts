/**
 * The bounds on schema regular expressions and a check that needs no regex engine.
 *
 * re2js is loaded with ajv, on first validation, so that a server that never validates a
 * pattern never pays for it. A tool's schema is registered synchronously, though, and a
 * pattern that the linear-time engine would refuse should fail there, naming the tool.
 * {@link checkSchemaPatterns} finds every pattern of a schema and refuses, without
 * compiling anything, the constructs RE2 cannot express (lookahead, backreferences,
 * lookbehind holding a capture) and patterns over the length bound. The RE2 program size,
 * and the rare construct only re2js itself rejects, are checked when the schema compiles.
 * Source: JSON Schema 2020-12 validation §6.3.3 (`pattern`), core §10.3.2.2
 * (`patternProperties`); ECMA-262 §22.2.1 (pattern syntax).
 */
import { LocalError } from '../core/index.js';
import { SCHEMA_MAP_KEYWORDS } from '../core/runtime.js';

/** Bounds on a schema's regular expressions and regex-based formats. */
export interface PatternLimits {
  /** Longest `pattern` (or `patternProperties` key), in UTF-16 code units (default 4 096). */
  maxPatternLength?: number;
  /** Largest compiled RE2 program, in instructions: a measure of matching cost (default 20 000). */
  maxPatternProgram?: number;
  /** Longest string the non-standard `url` format accepts (default 2 083). */
  maxUrlLength?: number;
}

/** The defaults of {@link PatternLimits}. */
export const PATTERN_DEFAULTS: Readonly<Required<PatternLimits>> = {
  maxPatternLength: 4096,
  maxPatternProgram: 20_000,
  maxUrlLength: 2083,
};

let active: Required<PatternLimits> = PATTERN_DEFAULTS;

/** The bounds in force for the schema being compiled or validated now. */
export function activePatternLimits(): Required<PatternLimits> {
  return active;
}

/**
 * Runs `work` (synchronous: an ajv compile or validation) with `limits` in force, so the
 * engine ajv calls back into applies this schema's bounds.
 */
export function withPatternLimits<T>(limits: PatternLimits | undefined, work: () => T): T {
  if (!limits || !hasPatternLimit(limits)) return work();
  const previous = active;
  active = { ...PATTERN_DEFAULTS, ...definedOnly(limits) };
  try {
    return work();
  } finally {
    active = previous;
  }
}

function hasPatternLimit(limits: PatternLimits): boolean {
  return (
    limits.maxPatternLength !== undefined ||
    limits.maxPatternProgram !== undefined ||
    limits.maxUrlLength !== undefined
  );
}

function definedOnly(limits: PatternLimits): PatternLimits {
  const out: PatternLimits = {};
  if (limits.maxPatternLength !== undefined) out.maxPatternLength = limits.maxPatternLength;
  if (limits.maxPatternProgram !== undefined) out.maxPatternProgram = limits.maxPatternProgram;
  if (limits.maxUrlLength !== undefined) out.maxUrlLength = limits.maxUrlLength;
  return out;
}

/** The `INVALID_DEFINITION` error refusing a pattern, quoting (the start of) it. */
export function refusedPattern(pattern: string, why: string, cause?: unknown): LocalError {
  const shown = pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern;
  return new LocalError(
    'INVALID_DEFINITION',
    `Invalid JSON Schema: pattern ${JSON.stringify(shown)} ${why}`,
    {
      cause,
    },
  );
}

/**
 * Why RE2 cannot run this ECMA-262 pattern, found by scanning its syntax; undefined when
 * the scan finds nothing (re2js may still refuse it when compiling).
 */
export function unsupportedConstruct(pattern: string): string | undefined {
  const groups: ('lookbehind' | 'other')[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[++i] ?? '';
      if (/[1-9]/.test(next)) return 'backreferences';
      if (next === 'k' && pattern[i + 1] === '<') return 'backreferences';
    } else if (c === '[') i = classEnd(pattern, i);
    else if (c === ')') groups.pop();
    else if (c === '(') {
      const why = groupProblem(pattern.slice(i + 1, i + 4), groups);
      if (why) return why;
    }
  }
  return undefined;
}

// What the group opening before `head` (the next three characters) means for RE2.
function groupProblem(head: string, groups: ('lookbehind' | 'other')[]): string | undefined {
  if (head.startsWith('?=') || head.startsWith('?!')) return 'lookahead';
  const lookbehind = head.startsWith('?<=') || head.startsWith('?<!');
  const capturing = !head.startsWith('?') || (head.startsWith('?<') && !lookbehind);
  if (capturing && groups.includes('lookbehind')) return 'a capture inside lookbehind';
  groups.push(lookbehind ? 'lookbehind' : 'other');
  return undefined;
}

/** The index of the `]` closing the character class opened at `start` (escapes skipped). */
export function classEnd(pattern: string, start: number): number {
  for (let i = start + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i;
  }
  return pattern.length;
}

/**
 * Checks every pattern of a schema (`pattern` values and `patternProperties` keys) for
 * what RE2 cannot express and for length, without compiling them.
 * @throws LocalError `INVALID_DEFINITION` naming the first refused pattern.
 */
export function checkSchemaPatterns(schema: unknown, limits: PatternLimits = {}): void {
  const maxLength = limits.maxPatternLength ?? PATTERN_DEFAULTS.maxPatternLength;
  for (const pattern of schemaPatterns(schema)) {
    if (pattern.length > maxLength)
      throw refusedPattern(pattern, `longer than ${maxLength} characters (limits.schema.maxPatternLength)`);
    const construct = unsupportedConstruct(pattern);
    if (construct) throw refusedPattern(pattern, `not supported by the linear-time engine (${construct})`);
  }
}

// Keywords whose values are instance data, not subschemas.
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

/** Every pattern of a schema: `pattern` strings and `patternProperties` keys. */
export function schemaPatterns(schema: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) return node.forEach(walk);
    for (const [key, value] of Object.entries(node)) {
      if (DATA_KEYWORDS.has(key)) continue;
      if (key === 'pattern' && typeof value === 'string') found.push(value);
      else if (SCHEMA_MAP_KEYWORDS.has(key) && typeof value === 'object' && value !== null) {
        if (key === 'patternProperties') found.push(...Object.keys(value));
        Object.values(value).forEach(walk);
      } else walk(value);
    }
  };
  walk(schema);
  return found;
}
