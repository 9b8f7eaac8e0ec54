/**
 * Reporting contract changes: a text report grouped by level, and the vitest matcher
 * `toMatchContract` that fails with that report.
 */
import { atLeast, diffContracts, type ChangeLevel, type ContractChange } from './diff.js';
import type { Contract } from './snapshot.js';

const HEADINGS: Record<ChangeLevel, string> = {
  breaking: 'Breaking',
  review: 'Review',
  info: 'Info',
};

/** The changes as text: one group per level, one line per change (`kind path: message [eras]`). */
export function formatContractChanges(changes: readonly ContractChange[]): string {
  if (changes.length === 0) return 'No changes.';
  const lines: string[] = [];
  for (const level of ['breaking', 'review', 'info'] as const) {
    const group = changes.filter((c) => c.level === level);
    if (group.length === 0) continue;
    if (lines.length > 0) lines.push('');
    lines.push(`${HEADINGS[level]} (${group.length}):`);
    for (const c of group) {
      const eras = c.eras.length === 0 ? '' : ` [${c.eras.join(', ')}]`;
      lines.push(`  ${c.kind}  ${c.path}: ${c.message}${eras}`);
    }
  }
  const count = (level: ChangeLevel) => changes.filter((c) => c.level === level).length;
  lines.push('', `${count('breaking')} breaking, ${count('review')} to review, ${count('info')} info`);
  return lines.join('\n');
}

/** Options of {@link contractMatchers}' `toMatchContract`. */
export interface ContractMatchOptions {
  /** The least serious level that fails the assertion; default `breaking`. */
  failOn?: ChangeLevel;
}

/** The result shape of a vitest (or Jest) matcher. */
interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/**
 * Matchers for `expect.extend(contractMatchers)`:
 * `expect(await serverContract(server)).toMatchContract(baseline)` passes while no change from
 * `baseline` is at `failOn` (default `breaking`) or worse, and fails with the report.
 */
export const contractMatchers = {
  toMatchContract(received: Contract, baseline: Contract, options: ContractMatchOptions = {}): MatcherResult {
    const changes = diffContracts(baseline, received);
    const failOn = options.failOn ?? 'breaking';
    const failing = changes.filter((c) => atLeast(c, failOn));
    return {
      pass: failing.length === 0,
      message: () =>
        failing.length === 0
          ? `expected a ${failOn} change from the baseline contract, found none`
          : `the contract changed (${failing.length} change(s) at ${failOn} or worse):\n\n${formatContractChanges(changes)}`,
    };
  },
};
