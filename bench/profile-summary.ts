/**
 * Summarises V8 `.cpuprofile` files (from `node --cpu-prof`): the functions and files
 * with the most self time, summed over all given profiles. Run directly as
 * `node dist/bench/profile-summary.js <file.cpuprofile>...`, or called by the bench.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Self time (µs) per function key and per file, summed over `files`. */
export function selfTimes(
  files: readonly string[],
  root: string,
): { fns: Map<string, number>; files: Map<string, number>; total: number } {
  const fns = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      const frame = nodes.get(samples[i]!)?.callFrame;
      const us = deltas[i + 1] ?? 0; // time until the next sample is spent where this one landed
      if (!frame || frame.functionName === '(idle)') continue;
      const where = shortUrl(frame.url, root);
      const fn =
        `${frame.functionName || '(anonymous)'} ${where ? `${where}:${frame.lineNumber + 1}` : ''}`.trim();
      fns.set(fn, (fns.get(fn) ?? 0) + us);
      const group = where || frame.functionName;
      byFile.set(group, (byFile.get(group) ?? 0) + us);
      total += us;
    }
  }
  return { fns, files: byFile, total };
}

function shortUrl(url: string, root: string): string {
  const rootUrl = pathToFileURL(root).href + '/';
  return url.startsWith(rootUrl) ? url.slice(rootUrl.length) : url;
}

function top(map: Map<string, number>, total: number, n: number): string[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => `| ${((100 * us) / total).toFixed(1)}% | ${(us / 1000).toFixed(0)} | \`${name}\` |`);
}

/** Markdown: top self-time functions and files over `files` (busy time only, idle excluded). */
export function summarize(files: readonly string[], root: string, n = 20): string {
  const { fns, files: byFile, total } = selfTimes(files, root);
  if (total === 0) return '_No samples in the profiles._';
  return [
    `${files.length} profile(s), ${(total / 1000).toFixed(0)} ms busy (idle excluded).`,
    '',
    '| self % | self ms | function |',
    '| --- | --- | --- |',
    ...top(fns, total, n),
    '',
    '| self % | self ms | file |',
    '| --- | --- | --- |',
    ...top(byFile, total, 12),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(summarize(process.argv.slice(2), process.cwd()));
}
