/**
 * Linear-time regular expressions for JSON Schema `pattern`, `patternProperties`,
 * `propertyNames` patterns and the regex-based formats.
 *
 * Schemas come from the other side (a server's `outputSchema`) or carry attacker-controlled
 * values (a tool's `inputSchema` and its arguments), so a pattern must never run V8's
 * backtracking engine: `^(a+)+$` against 34 × `a` + `!` blocks the event loop for hours.
 * Every pattern is translated from ECMA-262 syntax and compiled with re2js (an RE2 port),
 * whose matching time is linear in the input.
 *
 * What RE2 cannot express — lookahead, backreferences, lookbehind with captures — is
 * refused: compiling the schema fails with `INVALID_DEFINITION`, naming the pattern. It never
 * falls back to backtracking. Captureless lookbehind is supported (re2js does it in linear
 * time). Known differences from ECMA-262: `\s` is ASCII whitespace only.
 * Source: 2026-07-28 basic/index "JSON Schema Usage"; JSON Schema 2020-12 validation §6.3.3.
 */
import { RE2JS } from 're2js';
import { McpkitError } from '../core/errors.js';

/** Longest `pattern` accepted, in UTF-16 code units (longer → `INVALID_DEFINITION`). */
export const MAX_PATTERN_LENGTH = 4096;
/** Largest compiled RE2 program accepted (a measure of a pattern's matching cost). */
export const MAX_PATTERN_PROGRAM = 20_000;

/** What ajv needs of a regular expression: `test`, and a distinct `toString` for its cache. */
export interface SafeRegExp {
  test(input: string): boolean;
  toString(): string;
}

/**
 * Compiles an ECMA-262 `pattern` for linear-time matching (unanchored search, like
 * `RegExp.prototype.test`). `flags` is what ajv passes (`u` or empty); `i` is honoured.
 * @throws McpkitError `INVALID_DEFINITION` for syntax RE2 cannot express (lookahead,
 *   backreferences), a pattern over {@link MAX_PATTERN_LENGTH} or an RE2 program over
 *   {@link MAX_PATTERN_PROGRAM}.
 */
export function safeRegExp(pattern: string, flags = ''): SafeRegExp {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw refused(pattern, `longer than ${MAX_PATTERN_LENGTH} characters`);
  }
  let compiled: RE2JS;
  try {
    const re2Flags = RE2JS.LOOKBEHINDS | (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
    compiled = RE2JS.compile(RE2JS.translateRegExp(pattern), re2Flags);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw refused(pattern, `not supported by the linear-time engine (${reason})`, cause);
  }
  if (compiled.programSize() > MAX_PATTERN_PROGRAM) {
    throw refused(pattern, `too costly (RE2 program over ${MAX_PATTERN_PROGRAM} instructions)`);
  }
  const text = `/${pattern}/${flags}`;
  return { test: (input) => compiled.test(input), toString: () => text };
}
// ajv emits this name for standalone code; mcpkit never generates standalone validators.
safeRegExp.code = 'safeRegExp';

function refused(pattern: string, why: string, cause?: unknown): McpkitError {
  const shown = pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern;
  return new McpkitError(
    'INVALID_DEFINITION',
    `Invalid JSON Schema: pattern ${JSON.stringify(shown)} ${why}`,
    {
      cause,
    },
  );
}
