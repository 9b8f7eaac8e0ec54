/**
 * Settings of the seeded fuzz runs: a fixed seed and a fixed number of runs per property so
 * CI time stays bounded. `npm run fuzz` raises the runs (MCPKIT_FUZZ_RUNS) for a longer run;
 * MCPKIT_FUZZ_SEED replays another seed (fast-check prints the seed and path of a failure).
 */
import fc from 'fast-check';

/** fast-check parameters for one property: the seed, and the runs scaled by `weight`. */
export function fuzzRuns(weight = 1): fc.Parameters<unknown> {
  const runs = Number(process.env.MCPKIT_FUZZ_RUNS ?? 100);
  return {
    seed: Number(process.env.MCPKIT_FUZZ_SEED ?? 20261130),
    numRuns: Math.max(1, Math.round(runs * weight)),
  };
}

/** A string made of arbitrary code units, JSON-ish punctuation and newlines: what a hostile peer writes. */
export const junk = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({
    unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\\', '\n', '\r', 'a', '1', ' '),
    maxLength: 300,
  }),
  fc.json({ maxDepth: 6 }),
);
