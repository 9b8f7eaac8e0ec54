/**
 * The pattern engine on Cloudflare Workers (what `#pattern-engine` names under the `workerd`
 * and `worker` conditions): the platform's own RegExp, so that a Worker's bundle carries no
 * re2js (about a quarter of a one-tool Worker, gzip).
 *
 * V8's RegExp backtracks, so a pattern is refused, before it ever runs, when its shape can
 * take exponential time: a quantified group whose body holds a quantifier or an alternation
 * (`(a+)+`, `(a|aa)*`, `(\w+\s?)*`), the shape behind every classic ReDoS. What remains can
 * cost at worst polynomial time in the input, and a Worker's input is bounded twice: by the
 * request size limit (4 MiB by default) and by the platform's CPU time limit per request,
 * which ends that request, not the isolate's other work. Authors whose pattern is refused
 * write it without the nested repetition, or start the repeated group with a delimiter
 * (`[a-z0-9]+(?:-[a-z0-9]+)*` passes: each repetition begins at a `-` nothing else matches).
 * Same exports as re2-engine.ts.
 * Source: ECMA-262 §22.2 (pattern semantics); Cloudflare Workers platform limits (CPU time).
 */
import type { CompileOptions, CompiledPattern } from './re2-engine.js';
import { classEnd } from './patterns.js';

export type { CompileOptions, CompiledPattern } from './re2-engine.js';

/** False: the platform's backtracking RegExp, guarded by {@link backtrackingRisk}. */
export const LINEAR_TIME: boolean = false;

/**
 * Compiles an ECMA-262 pattern with the platform's RegExp. `flags`: any of `i`, `m`, `s`, `u`;
 * `options.vetted` skips the shape check (a vetted library's own expressions, such as
 * ajv-formats' format table, whose alternatives do not overlap).
 * @throws Error when the pattern has a shape that can backtrack exponentially, or is not
 *   valid ECMA-262 (the caller names the pattern).
 */
export function compilePattern(source: string, flags: string, options: CompileOptions = {}): CompiledPattern {
  const risk = options.vetted ? undefined : backtrackingRisk(source);
  if (risk) throw new Error(`a repetition that can backtrack exponentially on Workers (${risk})`);
  const searching = new RegExp(source, flags);
  let anchored: RegExp | undefined;
  return {
    test: (input) => searching.test(input),
    whole: (input) => {
      anchored ??= new RegExp(`^(?:${source})$`, flags);
      const m = anchored.exec(input);
      return m ? m.slice(1) : undefined;
    },
    size: source.length,
  };
}

/**
 * Where `source` repeats a group that itself repeats or alternates: the first such group's
 * text, or undefined. A repetition is `*`, `+`, `{n,}` or `{n,m}` with m > 1; `?` is not.
 * One shape passes although it repeats inside: a group with no alternation whose body begins
 * with a literal delimiter no other part of it can match (`(?:-[a-z0-9]+)*`, `(\.\d+)+`):
 * every repetition then starts at a delimiter, so the input splits one way only.
 */
export function backtrackingRisk(source: string): string | undefined {
  // Per open group: where its body starts, whether it alternates, whether its body repeats.
  const open: { start: number; alternates: boolean; repeats: boolean }[] = [];
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const top = open[open.length - 1];
    if (c === '(') {
      open.push({ start: i, alternates: false, repeats: false });
      continue;
    }
    if (c === '|') {
      if (top) top.alternates = true;
      continue;
    }
    if (c === ')') {
      open.pop();
      const repetition = repetitionAt(source, i + 1);
      if (!top) continue;
      const ambiguous = top.alternates || (top.repeats && !delimited(source.slice(top.start, i + 1)));
      if (ambiguous && repetition > 0) return source.slice(top.start, i + 1 + repetition);
      const parent = open[open.length - 1];
      if (parent && (top.alternates || top.repeats || repetition > 0)) parent.repeats = true;
      continue;
    }
    if (c === '*' || c === '+' || c === '?' || c === '{') continue; // an operator, read with its atom
    if (c === '\\') i++;
    else if (c === '[') i = classEnd(source, i);
    if (top && repetitionAt(source, i + 1) > 0) top.repeats = true;
  }
  return undefined;
}

/**
 * Whether a group's text (`(…)`, `(?:…)` or a named group) begins its body with a literal
 * character that no other atom of the body can match: only literals, classes and `\d`/`\w`/`\s`
 * are understood; anything else (`.`, other escapes) counts as matching it.
 */
function delimited(group: string): boolean {
  const body = group.replace(/^\((\?:|\?<[^>=!]*>)?/, '').slice(0, -1);
  let d = body[0];
  let from = 1;
  if (d === '\\' && /[^A-Za-z0-9]/.test(body[1] ?? 'a')) [d, from] = [body[1], 2];
  else if (d === undefined || /[\\[\]().*+?{}|^$]/.test(d)) return false;
  // A delimiter that repeats itself (`(a+)+`, `(a{1,5}){2,}`) splits nothing.
  if (d === undefined || /[*+?{]/.test(body[from] ?? '')) return false;
  for (let i = from; i < body.length; i++) {
    const c = body[i]!;
    if (c === '*' || c === '+' || c === '?' || c === '{' || c === '}' || c === ',' || /\d/.test(c)) {
      if (c === d) return false;
      continue;
    }
    if (c === '[') {
      const end = classEnd(body, i);
      if (classMatches(body.slice(i + 1, end), d)) return false;
      i = end;
    } else if (c === '\\') {
      const e = body[++i] ?? '';
      if (e === d) return false;
      if (/[^A-Za-z0-9]/.test(e)) continue; // an escaped literal other than d
      if (!/[dws]/.test(e) || new RegExp(`\\${e}`).test(d)) return false;
    } else if (c === d || c === '.') return false;
  }
  return true;
}

/** Whether the class body `inner` (between `[` and `]`) can match `d`; unsure counts as yes. */
function classMatches(inner: string, d: string): boolean {
  const negated = inner.startsWith('^');
  const items = negated ? inner.slice(1) : inner;
  if (items.includes('\\')) return true;
  let listed = false;
  for (let i = 0; i < items.length; i++) {
    if (items[i + 1] === '-' && i + 2 < items.length) {
      if (d >= items[i]! && d <= items[i + 2]!) listed = true;
      i += 2;
    } else if (items[i] === d) listed = true;
  }
  return negated ? !listed : listed;
}

/** The length of the repetition operator at `at` (0 when there is none, or it is `?`). */
function repetitionAt(source: string, at: number): number {
  const c = source[at];
  if (c === '*' || c === '+') return source[at + 1] === '?' ? 2 : 1;
  if (c !== '{') return 0;
  const m = /^\{(\d+)(,(\d*))?\}\??/.exec(source.slice(at, at + 24));
  if (!m || m[2] === undefined) return 0; // `{n}` repeats a fixed number of times
  return m[3] === '' || Number(m[3]) > 1 ? m[0].length : 0;
}
