/**
 * Where measurements are collected: one value per (figure, implementation, run), so
 * ratios can be taken pair by pair from runs measured side by side.
 */
import type { Impl } from './servers.js';

/** Median with the range it came from. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  n: number;
}

/** The median and range of `values`; undefined when empty. */
export function spread(values: readonly number[]): Spread | undefined {
  const finite = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (finite.length === 0) return undefined;
  const mid = finite.length >> 1;
  const median = finite.length % 2 ? finite[mid]! : (finite[mid - 1]! + finite[mid]!) / 2;
  return { median, min: finite[0]!, max: finite[finite.length - 1]!, n: finite.length };
}

/** Measurements of one invocation. */
export class Results {
  readonly #values = new Map<string, Map<number, number>>();
  /** Free-form lines printed under the table (skipped figures, caveats found at run time). */
  readonly notes: string[] = [];

  /** Records `value` of `figure` for `impl` in run `run`. */
  add(figure: string, impl: Impl, run: number, value: number | undefined): void {
    if (value === undefined) return;
    const key = `${figure}\u0000${impl}`;
    let runs = this.#values.get(key);
    if (!runs) this.#values.set(key, (runs = new Map()));
    runs.set(run, value);
  }

  /** Every run's value of `figure` for `impl`, by run index. */
  runs(figure: string, impl: Impl): Map<number, number> {
    return this.#values.get(`${figure}\u0000${impl}`) ?? new Map();
  }

  /** Median and range of `figure` for `impl`. */
  spread(figure: string, impl: Impl): Spread | undefined {
    return spread([...this.runs(figure, impl).values()]);
  }

  /** Median and range of `a / b` over the runs where both were measured. */
  ratio(figure: string, a: Impl, b: Impl): Spread | undefined {
    const bRuns = this.runs(figure, b);
    const ratios: number[] = [];
    for (const [run, value] of this.runs(figure, a)) {
      const other = bRuns.get(run);
      if (other !== undefined && other !== 0) ratios.push(value / other);
    }
    return spread(ratios);
  }
}
