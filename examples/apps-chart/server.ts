/**
 * An MCP App: a bar chart a tool opens in the host. `show_chart` (model and app) draws a
 * series; the view's Refresh button calls `chart_refresh`, a tool only the app may call
 * (hidden from the model); `chart_export` is for the model only. Hosts without the UI
 * extension get a text rendering of the same data.
 *
 * Run: npm run build && node dist/examples/apps-chart/main.js   (prints its URL), then
 *      `node dist/src/cli/main.js inspect --ui <url>` and open the Apps tab.
 * In your project, import from 'mcpkit/server' instead.
 */
import { z } from 'zod';
import { appResource, appTool, createServer, type McpServer } from '../../src/server/index.js';

/** The view's URI. */
export const CHART_VIEW = 'ui://chart/view.html';

/** Deterministic points for `series` at `round` (a refresh moves to the next round). */
export function pointsOf(series: string, round: number): number[] {
  return Array.from({ length: 5 }, (_, i) => ((series.length * 7 + i * 13 + round * 5) % 20) + 1);
}

const bars = (points: number[]) => points.map((p) => '#'.repeat(p)).join('\n');

/** The chart server; `html` is the built view (see build.ts), read on every resources/read. */
export function createChartServer(html: () => string | Promise<string>): McpServer {
  const server = createServer({ name: 'chart', version: '1.0.0' });
  const output = z.object({ series: z.string(), round: z.number(), points: z.array(z.number()) });
  appResource(server, CHART_VIEW, { name: 'Chart view', html, prefersBorder: true });
  appTool(server, 'show_chart', {
    description: 'Shows a bar chart of a series',
    inputSchema: z.object({ series: z.string().describe('Series name') }),
    outputSchema: output,
    resourceUri: CHART_VIEW,
    fallback: (r) =>
      `Chart of ${String(r.structuredContent?.series)} (text):\n${bars(r.structuredContent?.points as number[])}`,
    handler: ({ series }) => ({ series, round: 0, points: pointsOf(series, 0) }),
  });
  let refreshes = 0;
  appTool(server, 'chart_refresh', {
    description: 'Next round of the series (called by the chart view)',
    inputSchema: z.object({ series: z.string(), round: z.number().int().min(0).max(1000) }),
    outputSchema: output,
    resourceUri: CHART_VIEW,
    visibility: ['app'],
    handler: ({ series, round }) => {
      refreshes++;
      return { series, round: round + 1, points: pointsOf(series, round + 1) };
    },
  });
  appTool(server, 'chart_export', {
    description: 'Exports a series as CSV (for the model only)',
    inputSchema: z.object({ series: z.string() }),
    resourceUri: CHART_VIEW,
    visibility: ['model'],
    handler: ({ series }) => pointsOf(series, 0).join(','),
  });
  server.tool('chart_refreshes', { description: 'How many refreshes ran' }, () => String(refreshes));
  return server;
}
