/**
 * Linear-time regular expressions for JSON Schema `pattern`, `patternProperties`,
 * `propertyNames` patterns and the regex-based formats.
 *
 * Schemas come from the other side (a server's `outputSchema`) or carry attacker-controlled
 * values (a tool's `inputSchema` and its arguments), so a pattern must never run V8's
 * backtracking engine: `^(a+)+$` against 34 × `a` + `!` blocks the event loop for hours.
 * Every pattern is translated from ECMA-262 syntax and compiled with re2js (an RE2 port),
 * whose matching time is linear in the input: the engine the package import `#pattern-engine`
 * names (re2-engine.ts). On Cloudflare Workers it names native-engine.ts instead, which runs
 * the platform's RegExp and refuses the pattern shapes that backtrack exponentially.
 *
 * What RE2 cannot express — lookahead, backreferences, lookbehind with captures — is
 * refused: compiling the schema fails with `INVALID_DEFINITION`, naming the pattern. It never
 * falls back to backtracking. Captureless lookbehind is supported (re2js does it in linear
 * time). Known differences from ECMA-262: `\s` is ASCII whitespace only.
 * Source: 2026-07-28 basic/index "JSON Schema Usage"; JSON Schema 2020-12 validation §6.3.3.
 */
import { compilePattern, type CompiledPattern } from '#pattern-engine';
import {
  PATTERN_DEFAULTS,
  activePatternLimits,
  refusedPattern,
  unsupportedConstruct,
  type PatternLimits,
} from './patterns.js';

/** What ajv needs of a regular expression: `test`, and a distinct `toString` for its cache. */
export interface SafeRegExp {
  test(input: string): boolean;
  toString(): string;
}

/**
 * Compiles an ECMA-262 `pattern` for linear-time matching (unanchored search, like
 * `RegExp.prototype.test`). `flags` is what ajv passes (`u` or empty); `i`, `m`, `s` are honoured.
 * `limits` default to those in force for the schema being compiled (see patterns.ts).
 * @throws LocalError `INVALID_DEFINITION` for syntax RE2 cannot express (lookahead,
 *   backreferences), a pattern over `maxPatternLength` or an RE2 program over
 *   `maxPatternProgram`.
 */
export function safeRegExp(
  pattern: string,
  flags = '',
  limits: PatternLimits = activePatternLimits(),
): SafeRegExp {
  const { maxPatternLength, maxPatternProgram } = { ...PATTERN_DEFAULTS, ...limits };
  if (pattern.length > maxPatternLength) {
    throw refusedPattern(
      pattern,
      `longer than ${maxPatternLength} characters (limits.schema.maxPatternLength)`,
    );
  }
  // re2js would read a named backreference `\k<a>` as the literal `k<a>`: refuse it first.
  const construct = unsupportedConstruct(pattern);
  if (construct) throw refusedPattern(pattern, `not supported by the linear-time engine (${construct})`);
  let compiled: CompiledPattern;
  try {
    compiled = compilePattern(pattern, flags);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw refusedPattern(pattern, `not supported by the linear-time engine (${reason})`, cause);
  }
  if (compiled.size > maxPatternProgram) {
    throw refusedPattern(
      pattern,
      `too costly (RE2 program over ${maxPatternProgram} instructions, limits.schema.maxPatternProgram)`,
    );
  }
  const text = `/${pattern}/${flags}`;
  return { test: (input) => compiled.test(input), toString: () => text };
}
/**
 * {@link safeRegExp} for the expressions of a vetted library (ajv-formats' format table), not
 * an author's or a peer's: the same engine, but on Workers without the shape check.
 * @throws Error when the engine cannot compile it.
 */
export function vettedRegExp(pattern: string, flags: string): SafeRegExp {
  const compiled = compilePattern(pattern, flags, { vetted: true });
  const text = `/${pattern}/${flags}`;
  return { test: (input) => compiled.test(input), toString: () => text };
}

// ajv emits this name for standalone code; mcpkit never generates standalone validators.
safeRegExp.code = 'safeRegExp';
