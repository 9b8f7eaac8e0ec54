/**
 * `npm run chaos`: a fleet of three instances and a persistent redis-server under mixed load
 * while instances are SIGKILLed and restarted and Redis restarts once (bench/harness/chaos.ts).
 * Prints a markdown report on stdout (progress on stderr).
 * Flags: --seconds N (default 60), --kill-every-ms N (default 4000), --down-ms N (default
 * 1000), --bound-ms N (an operation unanswered this long is hung; default 30000),
 * --no-redis-restart (instance kills only), --check
 * (exit 1 unless nothing hung, was duplicated, misrouted or lost, every failure was a clear
 * error and every listen stream recovered).
 */
import { parseArgs } from 'node:util';
import { runChaos, verdict, type ChaosReport } from './harness/chaos.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    'kill-every-ms': { type: 'string', default: '4000' },
    'down-ms': { type: 'string', default: '1000' },
    'bound-ms': { type: 'string', default: '30000' },
    check: { type: 'boolean', default: false },
    'no-redis-restart': { type: 'boolean', default: false },
  },
});

function markdown(report: ChaosReport): string {
  const lines = [
    `# mcpkit chaos run\n`,
    `Node ${process.version}; ${report.seconds} s of load; ${report.kills} instance kills (SIGKILL, restart); Redis restarted ${report.redisRestarts}×.\n`,
    '| operation | sent | answered | failed (clear error) | failed (unclear) | hung | duplicated | misrouted | lost |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const [kind, t] of report.tallies)
    lines.push(
      `| ${kind} | ${t.sent} | ${t.answered} | ${t.failed} | ${t.unclear} | ${t.hung} | ${t.duplicated} | ${t.misrouted} | ${t.lost} |`,
    );
  lines.push('', `\`mark\` calls executed more than once (counted in Redis): ${report.duplicatedExecutions}`);
  const recovered = report.listeners.filter((l) => l.recovered).length;
  lines.push(
    `Listen streams that heard a list change after the faults: ${recovered} of ${report.listeners.length}`,
  );
  lines.push('', '| instance | RSS MiB first | peak | last |', '| --- | --- | --- | --- |');
  for (const m of report.memory) {
    const f = (n: number | undefined): string => (n === undefined ? 'n/a' : n.toFixed(0));
    lines.push(`| ${m.name} | ${f(m.samples[0])} | ${f(Math.max(...m.samples))} | ${f(m.samples.at(-1))} |`);
  }
  const errors = (title: string, map: Map<string, number>): void => {
    if (map.size === 0) return;
    lines.push('', `${title}:`, '');
    for (const [message, n] of [...map].sort((a, b) => b[1] - a[1])) lines.push(`- ${n}× ${message}`);
  };
  errors('Clear errors seen', report.clear);
  errors('Unclear errors seen', report.unclear);
  errors('Other results seen (misrouted, duplicated or lost)', report.odd);
  for (const [kind, ...trace] of report.hungTraces)
    lines.push('', `A hung ${kind}; its client's last exchanges:`, '', '```', ...trace, '```');
  return lines.join('\n');
}

async function main(): Promise<void> {
  const report = await runChaos({
    seconds: Number(values.seconds),
    killEveryMs: Number(values['kill-every-ms']),
    downMs: Number(values['down-ms']),
    boundMs: Number(values['bound-ms']),
    restartRedis: !values['no-redis-restart'],
    log: (line) => console.error(`${performance.now().toFixed(0)} ms ${line}`),
  });
  console.log(markdown(report));
  const bad = verdict(report);
  if (values.check && bad.length) {
    console.error(`chaos: ${bad.join('; ')}`);
    process.exit(1);
  }
  process.exit(0); // listen clients' reconnect timers must not keep the run alive
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
