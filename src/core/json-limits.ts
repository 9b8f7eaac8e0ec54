/**
 * Bounds on JSON received from the other side that `JSON.parse` itself does not enforce.
 *
 * V8 parses arbitrarily deep JSON, but `JSON.stringify`, `structuredClone`, schema
 * validation and most handler code recurse, so a `[[[[…]]]]` 100 000 levels deep as a tool
 * argument or result would overflow the stack wherever it is touched next. Frames are
 * therefore checked once, on arrival, with a linear scan that uses no recursion.
 * Source: 2026-07-28 basic/security_best_practices (validate all inputs).
 */

/** Deepest nesting of arrays and objects accepted in one message (default of `maxJsonDepth`). */
export const DEFAULT_MAX_JSON_DEPTH = 256;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when the JSON text nests arrays/objects deeper than `maxDepth`. The text must be
 * valid JSON (brackets inside strings are skipped). Linear in the text length; a text
 * shorter than `2 × maxDepth` cannot exceed it and is not scanned.
 */
export function nestedDeeperThan(text: string, maxDepth: number): boolean {
  if (text.length <= 2 * maxDepth) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = endOfString(text, i);
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}

/**
 * Index of the closing quote of the string that opens at `start`: the next `"` not escaped
 * by an odd run of backslashes. `indexOf` jumps over the text in between, so a long string
 * argument costs little next to `JSON.parse` itself.
 */
function endOfString(text: string, start: number): number {
  for (let quote = text.indexOf('"', start + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return text.length;
}

/**
 * True when a parsed value nests arrays/objects deeper than `maxDepth` (for values that did
 * not arrive as text, such as a YAML document). Iterative: it cannot overflow the stack.
 */
export function valueDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
