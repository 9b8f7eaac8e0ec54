/**
 * `mcpkit check` against each of mcpkit's reference servers (servers/NAME, built), over
 * stdio, on both eras: no finding of any severity but `info`, and each safe call's result
 * checked against its outputSchema.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnStdio } from '../../src/integrations/stdio/index.js';
import { checkServer, type SafeCall } from '../../src/testing/index.js';
import { ourEntry } from '../support/reference-servers.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpkit-check-'));
writeFileSync(join(dir, 'a.txt'), 'hello');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Checked {
  name: string;
  args: string[];
  env?: Record<string, string>;
  calls: SafeCall[];
}

const SERVERS: Checked[] = [
  {
    name: 'filesystem',
    args: [dir],
    calls: [
      { tool: 'read_text_file', args: { path: join(dir, 'a.txt') } },
      { tool: 'list_allowed_directories', args: {} },
      { tool: 'directory_tree', args: { path: dir } },
    ],
  },
  {
    name: 'memory',
    args: [],
    env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    calls: [
      { tool: 'read_graph', args: {} },
      { tool: 'search_nodes', args: { query: 'x' } },
    ],
  },
  {
    name: 'sequential-thinking',
    args: [],
    env: { DISABLE_THOUGHT_LOGGING: 'true' },
    // thoughtHistoryLength grows for as long as the connection lives, on both eras: over stdio
    // the modern era keeps the connection, so no session-state warning.
    calls: [
      {
        tool: 'sequentialthinking',
        args: { thought: 't', nextThoughtNeeded: false, thoughtNumber: 1, totalThoughts: 1 },
      },
    ],
  },
];

describe.each(SERVERS)('mcpkit check on the $name server', ({ name, args, env, calls }) => {
  it('finds nothing to warn about on either era', { timeout: 120_000 }, async () => {
    const report = await checkServer(
      {
        kind: 'transport',
        label: name,
        open: () =>
          spawnStdio({
            command: process.execPath,
            args: [ourEntry(name), ...args],
            env: { ...process.env, ...env } as Record<string, string>,
            stderr: 'pipe',
            shutdownTimeoutMs: 500,
          }),
      },
      { calls },
    );
    expect(report.eras.map((e) => e.era).sort()).toEqual(['legacy', 'modern']);
    expect(report.findings.filter((f) => f.severity !== 'info').map((f) => f.rule)).toEqual([]);
  });
});
