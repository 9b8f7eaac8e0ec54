/**
 * A token bucket for bounding how often something happens: `take()` is true while the
 * budget lasts (at most `burst` at once, refilled at `perSecond`). Used to let normal
 * traffic through as it comes and to coalesce or drop only under a flood.
 */

/** Returns `take`, true when one more event fits the budget now. */
export function rateBudget(perSecond: number, burst = perSecond): () => boolean {
  let tokens = burst;
  let at = performance.now();
  return () => {
    if (perSecond === Infinity) return true;
    const now = performance.now();
    tokens = Math.min(burst, tokens + ((now - at) / 1000) * perSecond);
    at = now;
    if (tokens < 1) return false;
    tokens--;
    return true;
  };
}
