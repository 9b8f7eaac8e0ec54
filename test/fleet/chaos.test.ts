/**
 * The short chaos run in CI (issue 25 §6; the long one is `npm run chaos`): three fleet
 * instances and a persistent Redis under mixed load for 15 s while an instance is SIGKILLed
 * and restarted every 3 s and Redis restarts once. Nothing may hang, run twice, reach the
 * wrong call or vanish; every failure is a clear error; every listen stream recovers.
 */
import { describe, expect, it } from 'vitest';
import { runChaos, verdict } from '../../bench/harness/chaos.js';

describe('a fleet under chaos', () => {
  it('loses, duplicates and hangs nothing while instances die and Redis restarts', async () => {
    const report = await runChaos({ seconds: 15, killEveryMs: 3000, downMs: 700, boundMs: 30_000 });
    expect(verdict(report)).toEqual([]);
    expect(report.kills).toBeGreaterThanOrEqual(3);
    for (const [kind, tally] of report.tallies) {
      expect(tally.answered, kind).toBeGreaterThan(0);
      // Failures are the calls cut by a kill: a few per kill, never most of the traffic.
      expect(tally.failed, kind).toBeLessThan(tally.answered);
    }
    expect(report.listeners).toHaveLength(6);
  }, 120_000);
});
