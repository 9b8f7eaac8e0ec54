/**
 * The gateway relays numbers as it parsed them, so an integer beyond ±(2^53 − 1) (an id
 * such as 1917043659912705296) would reach the other side rounded (1917043659912705300)
 * without a word. The gateway refuses such a message instead of changing it.
 * Source: RFC 8259 §6 (interoperable integers are within ±(2^53 − 1)).
 */

/**
 * The JSON Pointer of the first number in `value` that is an integer beyond
 * ±(2^53 − 1) — a value JSON.parse may already have rounded —, or undefined. Looks at
 * plain objects and arrays only, depth first; `1e300` counts too (it cannot be told from
 * a rounded integer once parsed).
 */
export function firstUnsafeInteger(value: unknown, path = ''): string | undefined {
  if (typeof value === 'number') {
    return Number.isInteger(value) && !Number.isSafeInteger(value) ? path || '/' : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found = firstUnsafeInteger(child, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The sentence for a refused message: where the number is and why it is not relayed. */
export function unsafeIntegerMessage(what: string, pointer: string): string {
  return (
    `${what} has an integer beyond ±9007199254740991 (2^53 − 1) at '${pointer}', which a JSON ` +
    'number cannot carry exactly; the gateway does not relay a number it may have changed'
  );
}
