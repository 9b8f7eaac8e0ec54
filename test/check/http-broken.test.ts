/**
 * `mcpkit check` over real loopback HTTP: a server built with the official SDK v1 whose
 * one defect is an Origin check made against the request's own Host (a DNS-rebinding page
 * passes it) is reported by `http.host` and nothing else; mcpkit's everything server, served
 * by mcpkit/node, gets no finding from the same probe (it refuses the foreign Host). A
 * 2026-07-28 server on plain node:http that ignores an `Mcp-Param-*` header disagreeing with
 * the body is reported by `http.param-mirroring` and nothing else; the everything server's
 * `x-mcp-header` tool is called with its headers mirrored and gets no finding.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { serve } from '../../src/integrations/node/index.js';
import { runCli } from '../support/cli.js';
import { checkServer, type CheckReport, type SafeCall } from '../../src/testing/index.js';
import { createEverythingServer } from '../../servers/everything/server.js';

const DIR = fileURLToPath(new URL('./broken/', import.meta.url));
const SLOW = { timeout: 120_000 };
const found = (report: CheckReport): string[] => report.findings.map((f) => `${f.severity} ${f.rule}`);

/** Starts a broken HTTP server, checks it, and stops it by its PID. */
async function checkSpawned(
  file: string,
  era: 'legacy' | 'modern',
  calls: SafeCall[] = [{ tool: 'echo', args: { text: 'hi' } }],
): Promise<CheckReport> {
  const child = spawn(process.execPath, [`${DIR}${file}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
    const url = chunk.toString().trim();
    return await checkServer({ kind: 'http', label: url, url }, { era, calls });
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

describe('the Mcp-Param-* probe (http.param-mirroring)', () => {
  const route: SafeCall = { tool: 'route', args: { region: 'us-west1', query: 'SELECT 1' } };

  it(
    'reports a 2026-07-28 server that ignores a mismatched Mcp-Param-* header, and nothing else',
    SLOW,
    async () => {
      const report = await checkSpawned('http-param-mismatch.mjs', 'modern', [route]);
      expect(report.eras).toEqual([
        { era: 'modern', revision: '2026-07-28', server: 'broken-param-fixture 1.0.0' },
      ]);
      expect(found(report)).toEqual(['error http.param-mirroring']);
      const [finding] = report.findings;
      expect(finding?.section).toBe(
        '2026-07-28 basic/transports/streamable-http "Server Behavior for Custom Headers"',
      );
      expect(finding?.message).toContain('Mcp-Param-Region disagreeing with the body got HTTP 200');
    },
  );

  it('is what `mcpkit check --call route=… URL` prints, exiting 1 with --strict', SLOW, async () => {
    const child = spawn(process.execPath, [`${DIR}http-param-mismatch.mjs`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
      const url = chunk.toString().trim();
      const call = `route=${JSON.stringify(route.args)}`;
      const run = await runCli(['check', '--era', 'modern', '--strict', '--json', '--call', call, url]);
      expect(run.code).toBe(1);
      const report = JSON.parse(run.stdout) as CheckReport;
      expect(found(report)).toEqual(['error http.param-mirroring']);
    } finally {
      child.kill();
    }
  });

  it(
    "mirrors Mcp-Param-* on every call to mcpkit's everything server, which refuses the bad ones",
    SLOW,
    async () => {
      const served = await serve(createEverythingServer(), { port: 0, host: '127.0.0.1' });
      const sent: [region: string | null, priority: string | null, status: number][] = [];
      const spy = async (request: Request): Promise<Response> => {
        const body = await request.clone().text();
        const response = await fetch(request);
        const header = (name: string): string | null => request.headers.get(`mcp-param-${name}`);
        if (body.includes('test_custom_headers'))
          sent.push([header('region'), header('priority'), response.status]);
        return response;
      };
      try {
        const report = await checkServer(
          { kind: 'http', label: served.url, url: served.url, fetch: spy },
          {
            era: 'modern',
            calls: [{ tool: 'test_custom_headers', args: { region: 'Zürich', priority: 2 } }],
          },
        );
        expect(found(report)).toEqual([]);
        const region = `=?base64?${Buffer.from('Zürich', 'utf8').toString('base64')}?=`;
        const other = `=?base64?${Buffer.from('Zürich-mcpkit-check', 'utf8').toString('base64')}?=`;
        // The --call, the call without its required arguments (nothing to mirror), then the
        // three probes: every header right, Region disagreeing (encoded: not ASCII), Region missing.
        expect(sent).toEqual([
          [region, '2', 200],
          [null, null, 200],
          [region, '2', 200],
          [other, '2', 400],
          [null, '2', 400],
        ]);
      } finally {
        await served.close();
      }
    },
  );
});
