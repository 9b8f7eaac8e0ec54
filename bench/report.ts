/**
 * Renders one invocation's results as markdown: the raw figures per implementation,
 * then the ratios (taken pair by pair from runs measured side by side) against the
 * targets of the issue, each marked ✓ or ✗ by its median.
 */
import type { Config } from './harness/config.js';
import type { Results, Spread } from './harness/results.js';
import { IMPL_LABEL, implsFor, type Impl } from './harness/servers.js';
import { modeName } from './harness/targets.js';
import { LISTEN_CPU, LISTEN_IMPLS, LISTEN_RATE, LISTEN_RSS } from './scenarios/listen.js';
import { PAYLOADS, payloadKey } from './scenarios/payload.js';
import { SESSION_EACH, SESSION_GROWTH } from './scenarios/sessions.js';
import { IDLE_RSS, STARTUP_MS } from './scenarios/startup.js';
import { MODES, throughputKey } from './scenarios/throughput.js';

const MIB = 2 ** 20;

/** A number with about three significant digits. */
export function num(n: number): string {
  const a = Math.abs(n);
  if (a >= 100) return Math.round(n).toString();
  if (a >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

/** `median (min–max)`, scaled; `–` when nothing was measured. */
function cell(s: Spread | undefined, scale = 1): string {
  if (!s) return '–';
  if (s.n === 1 || s.min === s.max) return num(s.median / scale);
  return `${num(s.median / scale)} (${num(s.min / scale)}–${num(s.max / scale)})`;
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** A markdown table; no lines at all when there are no rows (the section was not run). */
function table(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  if (rows.length === 0) return [];
  return [row(head), row(head.map(() => '---')), ...rows.map(row)];
}

function throughputTable(config: Config, results: Results): string[] {
  const rows: string[][] = [];
  for (const mode of MODES) {
    for (const c of config.inFlight) {
      for (const impl of implsFor(mode.era)) {
        const get = (what: 'callsPerSec' | 'p50' | 'p99' | 'cpuPerCall'): string =>
          cell(results.spread(throughputKey(mode, c, what), impl));
        if (get('callsPerSec') === '–') continue;
        rows.push([
          modeName(mode),
          String(c),
          IMPL_LABEL[impl],
          get('callsPerSec'),
          get('p50'),
          get('p99'),
          get('cpuPerCall'),
        ]);
      }
    }
  }
  return table(['mode', 'in flight', 'server', 'calls/s', 'p50 ms', 'p99 ms', 'server CPU µs/call'], rows);
}

function payloadTable(results: Results): string[] {
  const rows: string[][] = [];
  for (const { label } of PAYLOADS) {
    for (const impl of implsFor('modern')) {
      const mib = results.spread(payloadKey(label, 'mibPerSec'), impl);
      if (!mib) continue;
      rows.push([
        label,
        IMPL_LABEL[impl],
        cell(mib),
        cell(results.spread(payloadKey(label, 'p50'), impl)),
        cell(results.spread(payloadKey(label, 'cpuPerCall'), impl)),
      ]);
    }
  }
  return table(['echo size', 'server', 'MiB/s (each way)', 'p50 ms', 'server CPU µs/call'], rows);
}

function best(results: Results, figure: string, impl: Impl): string {
  const s = results.spread(figure, impl);
  return s ? num(s.min) : '–';
}

function footprintTable(config: Config, results: Results): string[] {
  const measured = (impl: Impl): boolean =>
    [STARTUP_MS, SESSION_GROWTH].some((figure) => results.spread(figure, impl) !== undefined);
  const rows = implsFor('legacy')
    .filter(measured)
    .map((impl) => [
      IMPL_LABEL[impl],
      best(results, STARTUP_MS, impl),
      cell(results.spread(IDLE_RSS, impl), MIB),
      cell(results.spread(SESSION_GROWTH, impl), MIB),
      cell(results.spread(SESSION_EACH, impl), 1024),
    ]);
  return table(
    [
      'server',
      'startup ms (best)',
      'idle RSS MiB',
      `RSS growth MiB, ${config.sessions} legacy sessions`,
      'KiB/session',
    ],
    rows,
  );
}

function listenTable(results: Results): string[] {
  const rows = LISTEN_IMPLS.filter((impl) => results.spread(LISTEN_RATE, impl)).map((impl) => [
    IMPL_LABEL[impl],
    cell(results.spread(LISTEN_RATE, impl)),
    cell(results.spread(LISTEN_CPU, impl)),
    cell(results.spread(LISTEN_RSS, impl), 1024),
  ]);
  return table(
    ['server', 'notifications/s', 'server CPU µs/notification', 'RSS KiB per idle listen stream'],
    rows,
  );
}

export { throughputTable, payloadTable, footprintTable, listenTable, table, cell, row };
