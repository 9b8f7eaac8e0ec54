/**
 * The short chaos run in CI (the long one is `npm run chaos`): three fleet
 * instances and a persistent Redis under mixed load for 15 s while an instance is SIGKILLed
 * and restarted every 2.5 s and Redis is restarted once half-way. Nothing may hang, run
 * twice, reach the wrong call or vanish; every failure is a clear error; every listen
 * stream recovers.
 */
import { describe, expect, it } from 'vitest';
import { runChaos, verdict } from '../../bench/harness/chaos.js';

describe('a fleet under chaos', () => {
  it('loses, duplicates and hangs nothing while instances die and Redis restarts', async () => {
    const faults: string[] = [];
    const log = (line: string): number => faults.push(`${performance.now().toFixed(0)} ms ${line}`);
    const report = await runChaos({
      seconds: 15,
      killEveryMs: 2500,
      downMs: 700,
      boundMs: 30_000,
      restartRedis: true,
      log,
    });
    const seen = {
      faults,
      clear: [...report.clear],
      unclear: [...report.unclear],
      odd: [...report.odd],
      hung: report.hungTraces,
    };
    expect(verdict(report), JSON.stringify(seen, null, 1)).toEqual([]);
    expect(report.kills).toBeGreaterThanOrEqual(2);
    for (const [kind, tally] of report.tallies) {
      expect(tally.answered, kind).toBeGreaterThan(0);
      // Failures are the calls cut by a kill: a few per kill, never most of the traffic.
      expect(tally.failed, kind).toBeLessThan(tally.answered);
    }
    expect(report.listeners).toHaveLength(6);
  }, 120_000);
});
