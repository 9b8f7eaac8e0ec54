/**
 * Real input for `mcpkit check`, through the built CLI: mcpkit's everything server (no
 * findings, both eras) and the official reference servers from npm, whose findings are
 * recorded here; each one is real, and cites the spec line it rests on.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/testing/index.js';
import { runCli } from '../support/cli.js';
import { OUR_EVERYTHING, referenceEntry } from '../interop/helpers.js';

async function checkJson(args: string[]): Promise<{ code: number | null; report: CheckReport }> {
  const run = await runCli(['check', '--json', ...args]);
  return { code: run.code, report: JSON.parse(run.stdout) as CheckReport };
}

const found = (report: CheckReport): string[] =>
  report.findings.map((f) => `${f.severity} ${f.rule} ${f.era ?? ''}`.trim());

/** What the official SDK v1 servers all do (2026.8.31 packages, SDK 1.32). */
const SDK_V1_FINDINGS = [
  // Its request parse fails before the handler: a ZodError becomes -32603, JSON-RPC says -32602.
  'error errors.malformed-params legacy',
  // McpServer answers an unknown tool with an isError result, the spec calls it a protocol error.
  'warning errors.unknown-tool legacy',
  'info handshake.eras modern',
];

/** The machines are busy: each check spawns its server three times. */
const SLOW = { timeout: 120_000 };

describe.concurrent('mcpkit check on real servers', () => {
  it("finds nothing in mcpkit's everything server, on both eras, and exits 0", SLOW, async () => {
    const { code, report } = await checkJson([
      '--call',
      'test_simple_text',
      '--call',
      'test_custom_headers={"region":"Zürich","priority":2}',
      '--',
      process.execPath,
      OUR_EVERYTHING,
    ]);
    expect(report.eras.map((e) => `${e.era} ${e.revision}`)).toEqual([
      'modern 2026-07-28',
      'legacy 2025-11-25',
    ]);
    expect(report.findings).toEqual([]);
    expect(code).toBe(0);
  });

  const reference: [name: Parameters<typeof referenceEntry>[0], args: string[]][] = [
    ['server-everything', []],
    ['server-filesystem', [mkdtempSync(join(tmpdir(), 'mcpkit-check-'))]],
    ['server-memory', []],
  ];

  it.each(reference)(
    'records what it finds in the official %s, each with its spec line',
    SLOW,
    async (name, args) => {
      const { code, report } = await checkJson(['--', process.execPath, referenceEntry(name), ...args]);
      expect(report.eras.map((e) => e.era)).toEqual(['legacy']);
      expect(found(report)).toEqual(SDK_V1_FINDINGS);
      const malformed = report.findings[0];
      expect(malformed?.section).toBe('2025-11-25 server/tools "Error Handling"');
      expect(JSON.stringify(malformed?.offending)).toContain('-32603');
      expect(code).toBe(1);
    },
  );
});
