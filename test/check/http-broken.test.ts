/**
 * `mcpkit check` over real loopback HTTP: a server built with the official SDK v1 whose
 * one defect is an Origin check made against the request's own Host (a DNS-rebinding page
 * passes it) is reported by `http.host` and nothing else; mcpkit's everything server, served
 * by mcpkit/node, gets no finding from the same probe (it refuses the foreign Host).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serve } from '../../src/integrations/node/index.js';
import { checkServer, type CheckReport } from '../../src/testing/index.js';
import { createEverythingServer } from '../../servers/everything/server.js';

const DIR = fileURLToPath(new URL('./broken/', import.meta.url));
const SLOW = { timeout: 120_000 };
const found = (report: CheckReport): string[] => report.findings.map((f) => `${f.severity} ${f.rule}`);

/** Starts a broken HTTP server, checks it, and stops it by its PID. */
async function checkSpawned(file: string, era: 'legacy' | 'modern'): Promise<CheckReport> {
  const child = spawn(process.execPath, [`${DIR}${file}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
    const url = chunk.toString().trim();
    return await checkServer(
      { kind: 'http', label: url, url },
      { era, calls: [{ tool: 'echo', args: { text: 'hi' } }] },
    );
  } finally {
    child.kill();
  }
}

describe('the DNS-rebinding probe (http.host)', () => {
  it('reports an Origin checked against its own Host, and nothing else', SLOW, async () => {
    const report = await checkSpawned('http-origin-same-as-host.mjs', 'legacy');
    expect(found(report)).toEqual(['error http.host']);
    expect(report.findings[0]?.section).toBe(
      '2025-11-25 basic/transports "Streamable HTTP" "Security Warning"',
    );
    expect(report.findings[0]?.message).toContain('got HTTP 200');
  });

  it("finds nothing in mcpkit's everything server on loopback, on both eras", SLOW, async () => {
    const served = await serve(createEverythingServer(), { port: 0, host: '127.0.0.1' });
    try {
      const report = await checkServer({ kind: 'http', label: served.url, url: served.url });
      expect(report.eras.map((e) => e.era)).toEqual(['modern', 'legacy']);
      expect(found(report)).toEqual([]);
    } finally {
      await served.close();
    }
  });
});
