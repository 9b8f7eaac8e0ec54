/**
 * The markdown table of a bench:compare run (bench-compare.mjs): for each mode and figure, the
 * base's median over rounds, the working tree's, and new ÷ base taken round by round (median
 * of the rounds' ratios, their min–max in brackets). Reads the mcpbench JSON files
 * `<mode>.<base|mcpkit>.rN.json` of one folder; a figure no run has is left out.
 *
 *   node scripts/bench-compare-table.mjs OUT_DIR      # the table again, from saved runs
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PHASES = ['c1', 'c16', 'c64', 'p100k', 'p1m'];

/** The figures of one mcpbench run (`runs[0]` of its JSON): label, whether higher is better, reader. */
function figures() {
  const list = [];
  for (const p of PHASES) {
    list.push([`${p} calls/s`, true, (r) => r.phases?.[p]?.rps]);
    list.push([`${p} server CPU µs/call`, false, (r) => r.phases?.[p]?.serverCpuUsPerCall]);
    list.push([`${p} p50 ms`, false, (r) => r.phases?.[p]?.p50]);
  }
  list.push([
    'mem: KiB per legacy session (RSS growth ÷ sessions)',
    false,
    (r) => r.mem && r.mem.rssGrowth / 1024 / r.mem.lifecycles,
  ]);
  list.push(['mem: sessions/s', true, (r) => r.mem?.lifecyclesPerSec]);
  list.push(['startup ms', false, (r) => r.startupMs]);
  list.push(['RSS idle MiB', false, (r) => r.rssIdle && r.rssIdle / 2 ** 20]);
  return list;
}

/** mode → side ('base' | 'mcpkit') → round → run, from the files of `dir`; failed runs are skipped. */
function readRuns(dir) {
  const runs = {};
  for (const file of readdirSync(dir)) {
    const m = /^(.+)\.(base|mcpkit)\.r(\d+)\.json$/.exec(file);
    if (!m) continue;
    const run = JSON.parse(readFileSync(join(dir, file), 'utf8')).runs?.[0];
    if (!run || run.error) continue;
    (runs[m[1]] ??= { base: {}, mcpkit: {} })[m[2]][m[3]] = run;
  }
  return runs;
}

const finite = (xs) => xs.filter((x) => typeof x === 'number' && Number.isFinite(x));

function median(xs) {
  const s = finite(xs).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const fmt = (x) => (!Number.isFinite(x) ? '—' : Math.abs(x) >= 100 ? x.toFixed(0) : x.toPrecision(3));

/** One table row, or undefined when neither side has the figure. */
function row([label, higherIsBetter, read], sides) {
  const base = Object.values(sides.base).map(read);
  const mine = Object.values(sides.mcpkit).map(read);
  if (finite(base).length === 0 && finite(mine).length === 0) return undefined;
  const ratios = finite(
    Object.keys(sides.mcpkit).map((r) => sides.base[r] && read(sides.mcpkit[r]) / read(sides.base[r])),
  );
  const ratio = ratios.length
    ? `${fmt(median(ratios))} (${fmt(Math.min(...ratios))}–${fmt(Math.max(...ratios))})`
    : '—';
  return `| ${label} ${higherIsBetter ? '↑' : '↓'} | ${fmt(median(base))} | ${fmt(median(mine))} | ${ratio} |`;
}

/** The whole table as markdown; `meta` is bench-compare's meta.json (what was compared, when). */
export function compareTable(dir, meta) {
  const runs = readRuns(dir);
  const dirty = meta?.new?.dirty ? ' + uncommitted changes' : '';
  const out = [
    `# bench:compare — new ÷ base${meta ? `, ${meta.date}` : ''}`,
    '',
    meta
      ? `base ${meta.base.commit} (${meta.base.dir}); new ${meta.new.commit}${dirty} (${meta.new.dir}); ${meta.rounds} rounds of ${meta.duration} s per phase; ONLY=${meta.only}`
      : `runs in ${dir}`,
    '',
    'new ÷ base: the ratio of the two runs of each round (adjacent in time), median of the rounds (min–max).',
    '↑ higher is better, ↓ lower is better.',
    '',
  ];
  for (const mode of Object.keys(runs).sort()) {
    out.push(`## ${mode}`, '', '| figure | base | new | new ÷ base |', '| --- | ---: | ---: | ---: |');
    for (const figure of figures()) {
      const line = row(figure, runs[mode]);
      if (line) out.push(line);
    }
    out.push('');
  }
  return out.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/bench-compare-table.mjs OUT_DIR');
    process.exit(2);
  }
  let meta;
  try {
    meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8'));
  } catch {
    meta = undefined;
  }
  console.log(compareTable(dir, meta));
}
