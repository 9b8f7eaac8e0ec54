/**
 * The pattern engine under Node, Deno, Bun and browsers: re2js, an RE2 port whose matching
 * time is linear in the input. What the package import `#pattern-engine` names by default
 * (package.json "imports"); under the `workerd` and `worker` conditions it names
 * native-engine.ts instead, so that a Worker's bundle leaves re2js out.
 * Both modules export the same names; safe-regexp.ts and the URI template matcher use them.
 */
import { RE2JS } from 're2js';

/** True: matching time is linear in the input, whatever the pattern. */
export const LINEAR_TIME: boolean = true;

/** A compiled pattern: an unanchored `test`, a whole-input match with its groups, and its cost. */
export interface CompiledPattern {
  /** Whether the pattern matches somewhere in `input` (as `RegExp.prototype.test`). */
  test(input: string): boolean;
  /** The capture groups (1…n, undefined when a group took no part) of a match of the whole `input`; undefined when it does not match. */
  whole(input: string): (string | undefined)[] | undefined;
  /** Size of the compiled program (RE2 instructions; the source length for the native engine). */
  readonly size: number;
}

/** Options of `compilePattern`. */
export interface CompileOptions {
  /** A vetted library's own expression: the Workers engine skips its shape check (RE2 needs none). */
  vetted?: boolean;
}

/**
 * Compiles an ECMA-262 pattern. `flags`: any of `i`, `m`, `s` (`u` is RE2's default);
 * `options` matter only to the Workers engine.
 * @throws Error for syntax RE2 cannot express (the caller names the pattern).
 */
export function compilePattern(source: string, flags: string, options: CompileOptions = {}): CompiledPattern {
  void options;
  const compiled = RE2JS.compile(RE2JS.translateRegExp(source), re2Flags(flags));
  return {
    test: (input) => compiled.test(input),
    whole: (input) => {
      const m = compiled.matcher(input);
      if (!m.matches()) return undefined;
      const groups: (string | undefined)[] = [];
      for (let i = 1; i <= m.groupCount(); i++) groups.push(m.group(i) ?? undefined);
      return groups;
    },
    size: compiled.programSize(),
  };
}

// ECMA-262 flags with an RE2 equivalent: i, m, s (g and y only move lastIndex; u is RE2's default).
function re2Flags(flags: string): number {
  let out = RE2JS.LOOKBEHINDS;
  if (flags.includes('i')) out |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) out |= RE2JS.MULTILINE;
  if (flags.includes('s')) out |= RE2JS.DOTALL;
  return out;
}
