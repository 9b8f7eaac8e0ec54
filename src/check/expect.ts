/**
 * `expectServerConforms`: the checks of `mcpkit check`, run in process against a server
 * definition, for vitest (or any test runner): it throws with the findings listed.
 */
import type { Era } from '../core/index.js';
import { connect, type McpServer } from '../server/index.js';
import { createHttpHandler } from '../server/http/index.js';
import { createLinkedPair } from '../testing/runtime.js';
import { checkServer, type CheckOptions } from './check.js';
import { failsAt, type CheckReport, type Severity } from './report.js';

/** Options of {@link expectServerConforms}. */
export interface ConformsOptions extends Omit<CheckOptions, 'era'> {
  /** Eras to check (default both; the server must serve every one named). */
  eras?: readonly Era[];
  /** Also check over Streamable HTTP through `createHttpHandler` (default false: stdio-like pair only). */
  http?: boolean;
  /** The mildest severity that fails (default `error`). */
  failOn?: Severity;
}

/**
 * Checks `server` over an in-memory pair (and over its HTTP handler with `http: true`) and
 * resolves with the reports.
 * @throws Error listing every finding at `failOn` or worse, or naming an era not served.
 */
export async function expectServerConforms(
  server: McpServer,
  options: ConformsOptions = {},
): Promise<CheckReport[]> {
  const eras = options.eras ?? ['modern', 'legacy'];
  const reports = [
    await checkServer(
      {
        kind: 'transport',
        label: 'in-process',
        open: () => {
          const [client, end] = createLinkedPair();
          void connect(server, end).catch(() => undefined);
          return client;
        },
      },
      { ...options, era: eraOption(eras) },
    ),
  ];
  if (options.http === true) reports.push(await overHttp(server, options, eras));
  for (const report of reports) assertConforms(report, eras, options.failOn ?? 'error');
  return reports;
}

async function overHttp(
  server: McpServer,
  options: ConformsOptions,
  eras: readonly Era[],
): Promise<CheckReport> {
  const handler = createHttpHandler(server);
  try {
    return await checkServer(
      {
        kind: 'http',
        label: 'in-process HTTP',
        url: 'http://127.0.0.1/mcp',
        fetch: (request) => handler(request),
      },
      { ...options, era: eraOption(eras) },
    );
  } finally {
    await handler.close();
  }
}

function eraOption(eras: readonly Era[]): 'auto' | Era {
  return eras.length === 1 && eras[0] !== undefined ? eras[0] : 'auto';
}

function assertConforms(report: CheckReport, eras: readonly Era[], failOn: Severity): void {
  const missing = eras.filter((era) => !report.eras.some((e) => e.era === era));
  const failing = failsAt(report, failOn);
  if (missing.length === 0 && !failing) return;
  const lines = report.findings.map((f) => `  ${f.severity} ${f.rule} (${f.section}): ${f.message}`);
  const head =
    missing.length > 0
      ? `the server does not serve ${missing.join(' and ')}`
      : `${report.target} does not conform`;
  throw new Error(`${head}\n${lines.join('\n')}`);
}
