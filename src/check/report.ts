/**
 * What `mcpkit check` reports: findings with a severity, a stable rule id, the spec section
 * and line they rest on, and the message that showed the problem.
 */
import type { Era } from '../core/index.js';

/** How bad a finding is: `error` breaks a MUST, `warning` a SHOULD, `info` is worth knowing. */
export type Severity = 'error' | 'warning' | 'info';

/** The severities from worst to mildest. */
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/** One problem found, as reported. */
export interface Finding {
  /** The stable id of the rule that found it, e.g. `tools.name`. */
  rule: string;
  severity: Severity;
  /** The spec page and heading, with the revision, e.g. `2026-07-28 server/tools "Tool Names"`. */
  section: string;
  /** The spec's own sentence the rule rests on. */
  requirement: string;
  /** What was wrong, in one line. */
  message: string;
  /** The era it was seen on, when it is era-specific. */
  era?: Era;
  /** The offending message (or the part of it at fault), as received. */
  offending?: unknown;
}

/** The whole result of a check. */
export interface CheckReport {
  /** The server as named to the checker: a URL, a command line, or `in-process`. */
  target: string;
  /** The eras the server answered, each with the revision used and the server's name. */
  eras: { era: Era; revision: string; server?: string }[];
  findings: Finding[];
  /** How many findings of each severity. */
  counts: Record<Severity, number>;
  /** Wall-clock milliseconds the check took. */
  elapsedMs: number;
}

/** True when `report` has a finding at `level` or worse (`level` = 'error' → errors only). */
export function failsAt(report: CheckReport, level: Severity): boolean {
  const worst = SEVERITIES.indexOf(level);
  return report.findings.some((f) => SEVERITIES.indexOf(f.severity) <= worst);
}

/** Counts findings per severity. */
export function countFindings(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  return counts;
}
