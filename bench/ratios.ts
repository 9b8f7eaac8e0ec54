/**
 * The ratio table: mcpkit against the official v2 SDK and against the bare ceiling, each
 * ratio taken per run (runs measured side by side) and summarised as median (min–max),
 * next to the targets.
 */
import type { Config } from './harness/config.js';
import type { Results, Spread } from './harness/results.js';
import { spread } from './harness/results.js';
import type { Impl } from './harness/servers.js';
import { modeName, type Mode } from './harness/targets.js';
import { payloadKey } from './scenarios/payload.js';
import { IDLE_RSS, STARTUP_MS } from './scenarios/startup.js';
import { MODES, throughputKey } from './scenarios/throughput.js';
import { cell, table } from './report.js';

/** A target on one ratio: `mcpkit / against` must be `op` `value`. */
interface Target {
  against: 'v2' | 'bare';
  op: '≥' | '≤';
  value: number;
}

interface RatioRow {
  label: string;
  /** The ratios (undefined: not measured). */
  v2: Spread | undefined;
  bare: Spread | undefined;
  targets: Target[];
}

function met(row: RatioRow, t: Target): string {
  const s = row[t.against];
  const times = t.value < 1 ? `${Math.round(t.value * 100)}%` : `${t.value}×`;
  const text = `${t.op} ${times} ${t.against === 'v2' ? 'v2' : 'bare'}`;
  if (!s) return `${text} (not measured)`;
  const ok = t.op === '≥' ? s.median >= t.value : s.median <= t.value;
  return `${ok ? '✓' : '✗'} ${text}`;
}

function throughputRows(config: Config, results: Results): RatioRow[] {
  const rows: RatioRow[] = [];
  const callTargets = (mode: Mode): Target[] => {
    if (mode.wire === 'http') return [{ against: 'v2', op: '≥', value: mode.era === 'modern' ? 10 : 5 }];
    return [
      { against: 'v2', op: '≥', value: 5 },
      { against: 'bare', op: '≥', value: 0.6 },
    ];
  };
  for (const mode of MODES) {
    for (const c of config.inFlight) {
      const key = throughputKey(mode, c, 'callsPerSec');
      const targets = c === 16 ? callTargets(mode) : [];
      rows.push({ label: `${modeName(mode)}, ${c} in flight: calls/s`, ...pair(results, key), targets });
    }
    const cpu = throughputKey(mode, 16, 'cpuPerCall');
    const cpuTargets: Target[] =
      mode.wire === 'http' && mode.era === 'modern' ? [{ against: 'bare', op: '≤', value: 2 }] : [];
    rows.push({
      label: `${modeName(mode)}, 16 in flight: server CPU/call`,
      ...pair(results, cpu),
      targets: cpuTargets,
    });
  }
  return rows;
}

function pair(results: Results, figure: string): { v2: Spread | undefined; bare: Spread | undefined } {
  return { v2: results.ratio(figure, 'mcpkit', 'v2'), bare: results.ratio(figure, 'mcpkit', 'bare') };
}

/** Best-of ratio (startup takes the best spawn of each). */
function bestRatio(results: Results, figure: string, other: Impl): Spread | undefined {
  const a = results.spread(figure, 'mcpkit');
  const b = results.spread(figure, other);
  return a && b ? spread([a.min / b.min]) : undefined;
}

function footprintRows(results: Results): RatioRow[] {
  const mib = payloadKey('1 MiB', 'mibPerSec');
  return [
    { label: 'stdio 100 KiB echo: MiB/s', ...pair(results, payloadKey('100 KiB', 'mibPerSec')), targets: [] },
    {
      label: 'stdio 1 MiB echo: MiB/s',
      ...pair(results, mib),
      targets: [{ against: 'bare', op: '≥', value: 0.9 }],
    },
    {
      label: 'startup (best of each)',
      v2: bestRatio(results, STARTUP_MS, 'v2'),
      bare: bestRatio(results, STARTUP_MS, 'bare'),
      targets: [{ against: 'bare', op: '≤', value: 1.3 }],
    },
    { label: 'idle RSS', ...pair(results, IDLE_RSS), targets: [{ against: 'bare', op: '≤', value: 1.2 }] },
  ];
}

/** The ratio table as markdown lines. */
export function ratioTable(config: Config, results: Results): string[] {
  const rows = [...throughputRows(config, results), ...footprintRows(results)];
  const lines = rows
    .filter((r) => r.v2 || r.bare)
    .map((r) => [r.label, cell(r.v2), cell(r.bare), r.targets.map((t) => met(r, t)).join('; ') || '']);
  return table(['figure', 'mcpkit / official v2', 'mcpkit / bare', 'target (issue) → met?'], lines);
}
