/**
 * Linear-time `.regex()` checks in zod schemas.
 *
 * A zod schema validates with zod, and `z.string().regex(re)` calls `re.test()` on V8's
 * backtracking engine: `^(a+)+$` against 34 × `a` + `!` would freeze the server. When a
 * zod schema is compiled for a tool, prompt or elicitation, every `.regex()` check in it
 * is switched to the same RE2 engine JSON Schema patterns use: its RegExp is replaced by
 * an object with the same `test`/`source`/`flags`, matching in linear time. The schema
 * object is modified in place (zod reads the check's `pattern` on every parse). Patterns
 * RE2 cannot express are refused at once, naming the pattern, like JSON Schema ones.
 * zod's built-in formats (`z.email()`, `z.uuid()`, …) keep zod's own expressions, and
 * refinements (`.refine`) are the author's code.
 * Source: zod v4 core (`$ZodCheckRegex` reads `def.pattern` when it runs).
 */
import { LocalError } from '../core/index.js';
import { refusedPattern, unsupportedConstruct, type PatternLimits, PATTERN_DEFAULTS } from './patterns.js';
import type { SafeRegExp } from './safe-regexp.js';

type Compile = (pattern: string, flags: string, limits: PatternLimits) => SafeRegExp;

let engine: Compile | undefined;
let loading: Promise<void> | undefined;

/** Loads the RE2 engine (once); swapped checks need it before their first run. */
function loadRegexEngine(): Promise<void> {
  loading ??= import('./safe-regexp.js').then((m) => {
    engine = m.safeRegExp;
  });
  return loading;
}

interface ZodNode {
  _zod?: { def?: Record<string, unknown> };
}

/**
 * Switches every `.regex()` check of a zod schema to the linear-time engine. Returns what
 * to await before the schema's first run (loading the engine, compiling the patterns;
 * rejects with `INVALID_DEFINITION` for an RE2 program over `maxPatternProgram`), or
 * undefined when the schema has no `.regex()` check.
 * @throws LocalError `INVALID_DEFINITION` for a pattern RE2 cannot express or over `maxPatternLength`.
 */
export function useLinearZodRegexes(
  schema: unknown,
  limits: PatternLimits = {},
): (() => Promise<void>) | undefined {
  const switched: LinearRegExp[] = [];
  const seen = new Set<object>();
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) return node.forEach(visit);
    const def = (node as ZodNode)._zod?.def;
    if (!def) return Object.values(node).forEach(visit);
    if (def.check === 'string_format' && def.format === 'regex' && def.pattern instanceof RegExp) {
      const linear = linearRegExp(def.pattern, limits);
      def.pattern = linear;
      switched.push(linear);
    }
    for (const value of Object.values(def)) visit(value);
    if (def.type === 'lazy' && typeof def.getter === 'function')
      visit(lazyTarget(def.getter as () => unknown));
  };
  visit(schema);
  if (switched.length === 0) return undefined;
  let ready: Promise<void> | undefined;
  return () => (ready ??= loadRegexEngine().then(() => switched.forEach((r) => r.compile())));
}

function lazyTarget(getter: () => unknown): unknown {
  try {
    return getter();
  } catch {
    return undefined;
  }
}

/** A RegExp look-alike that zod can call, matching on RE2. */
interface LinearRegExp extends Pick<RegExp, 'source' | 'flags' | 'test'> {
  /** Compiles the pattern now (the engine must be loaded). */
  compile(): void;
}

function linearRegExp(original: RegExp, limits: PatternLimits): LinearRegExp {
  const { source, flags } = original;
  const maxLength = limits.maxPatternLength ?? PATTERN_DEFAULTS.maxPatternLength;
  if (source.length > maxLength)
    throw refusedPattern(source, `longer than ${maxLength} characters (limits.schema.maxPatternLength)`);
  const construct = unsupportedConstruct(source);
  if (construct) throw refusedPattern(source, `not supported by the linear-time engine (${construct})`);
  let compiled: SafeRegExp | undefined;
  const compile = (): SafeRegExp => {
    if (!engine)
      throw new LocalError('INVALID_DEFINITION', `pattern /${source}/ ran before its engine loaded`);
    return (compiled ??= engine(source, flags, limits));
  };
  return {
    source,
    flags,
    lastIndex: 0,
    test: (input: string) => compile().test(input),
    compile: () => void compile(),
    toString: () => `/${source}/${flags}`,
  } as LinearRegExp;
}
