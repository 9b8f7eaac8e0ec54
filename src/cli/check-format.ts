/**
 * The report of `mcpkit check` for people: a heading with the eras served, findings
 * grouped by severity (errors first), each with its rule id, era, spec section and
 * sentence and a short excerpt of the offending message; coloured on a terminal.
 */
import { styleText } from 'node:util';
import type { CheckReport, Finding, Severity } from '../testing/index.js';

type Style = Parameters<typeof styleText>[0];

const MARKS: Record<Severity, { mark: string; style: Style; title: string }> = {
  error: { mark: '✖', style: 'red', title: 'Errors' },
  warning: { mark: '▲', style: 'yellow', title: 'Warnings' },
  info: { mark: '●', style: 'cyan', title: 'Info' },
};

/** How much of an offending message is shown. */
const EXCERPT_CHARS = 240;

function painter(colour: boolean): (style: Style, text: string) => string {
  return colour ? (style, text) => styleText(style, text) : (_style, text) => text;
}

function excerpt(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function findingLines(finding: Finding, paint: ReturnType<typeof painter>): string[] {
  const { mark, style } = MARKS[finding.severity];
  const era = finding.era ? paint('dim', ` [${finding.era}]`) : '';
  const lines = [`  ${paint(style, mark)} ${paint('bold', finding.rule)}${era} ${finding.message}`];
  lines.push(paint('dim', `      ${finding.section}: ${finding.requirement}`));
  if (finding.offending !== undefined)
    lines.push(paint('dim', `      offending: ${excerpt(finding.offending)}`));
  return lines;
}

/** The report as text, ending in a newline. */
export function formatReport(report: CheckReport, colour: boolean): string {
  const paint = painter(colour);
  const eras = report.eras.map((e) => `${e.era} ${e.revision}${e.server ? ` (${e.server})` : ''}`).join(', ');
  const lines = [
    `${paint('bold', 'mcpkit check')} ${report.target}`,
    `  eras: ${eras === '' ? 'none' : eras}`,
    '',
  ];
  for (const severity of ['error', 'warning', 'info'] as const) {
    const group = report.findings.filter((f) => f.severity === severity);
    if (group.length === 0) continue;
    lines.push(paint(MARKS[severity].style, `${MARKS[severity].title} (${group.length})`));
    for (const finding of group) lines.push(...findingLines(finding, paint));
    lines.push('');
  }
  const { error, warning, info } = report.counts;
  const summary = `${plural(error, 'error')}, ${plural(warning, 'warning')}, ${info} info · ${(report.elapsedMs / 1000).toFixed(1)} s`;
  lines.push(
    error > 0 ? paint('red', summary) : warning > 0 ? paint('yellow', summary) : paint('green', summary),
  );
  return `${lines.join('\n')}\n`;
}
