/**
 * Real input for `mcpkit check`: small servers written with the official SDK v1's low-level
 * `Server`, each with one defect. Each defect is reported by its rule, and nothing else is.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnStdio } from '../../src/integrations/stdio/index.js';
import { checkServer, type CheckReport, type SafeCall } from '../../src/testing/index.js';

const DIR = fileURLToPath(new URL('./broken/', import.meta.url));

function check(file: string, calls: SafeCall[] = []): Promise<CheckReport> {
  return checkServer(
    {
      kind: 'transport',
      label: file,
      open: () =>
        spawnStdio({
          command: process.execPath,
          args: [`${DIR}${file}`],
          stderr: 'pipe',
          shutdownTimeoutMs: 200,
        }),
    },
    { era: 'legacy', calls: [{ tool: 'echo', args: { text: 'hi' } }, ...calls] },
  );
}

const found = (report: CheckReport): string[] => report.findings.map((f) => `${f.severity} ${f.rule}`);

/** The machines are busy: each check spawns its server twice. */
const SLOW = { timeout: 120_000 };

describe.concurrent('mcpkit check on servers built with the official SDK v1', () => {
  it('finds nothing in the healthy base server, on the legacy era it serves', SLOW, async () => {
    const report = await check('base.mjs');
    expect(report.eras).toEqual([{ era: 'legacy', revision: '2025-11-25', server: 'broken-fixture 1.0.0' }]);
    expect(found(report)).toEqual([]);
  });

  const cases: [file: string, expected: string, calls?: SafeCall[]][] = [
    ['bad-tool-name.mjs', 'warning tools.name'],
    ['bad-schema.mjs', 'error tools.input-schema'],
    ['structured-mismatch.mjs', 'error tools.structured-content', [{ tool: 'weather', args: {} }]],
    ['looping-cursor.mjs', 'error lists.cursor-loop'],
    ['wrong-error-code.mjs', 'warning errors.unknown-tool'],
    ['structured-not-object.mjs', 'error tools.structured-object', [{ tool: 'numbers', args: {} }]],
    ['unknown-method-internal-error.mjs', 'error errors.unknown-method'],
  ];

  it.each(cases)(
    'reports the one defect of %s as %s, and nothing else',
    SLOW,
    async (file, expected, calls) => {
      const report = await check(file, calls);
      expect(found(report)).toEqual([expected]);
      const [finding] = report.findings;
      expect(finding?.section).toMatch(/^2025-11-25 /);
      expect(finding?.requirement).not.toBe('');
    },
  );
});
